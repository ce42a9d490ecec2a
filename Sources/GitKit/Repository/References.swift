internal import CLibgit2

/// Where HEAD points.
public enum Head: Sendable, Equatable {
    /// On a local branch that has commits.
    case branch(name: String, commit: OID)
    /// Detached at a commit.
    case detached(OID)
    /// On a branch without commits yet (fresh repository or orphan branch).
    case unborn(branch: String)
}

extension Repository {
    /// Reports HEAD as a branch, a detached commit or an unborn branch.
    public func head() throws -> Head {
        let headRef = try lookupReference("HEAD")
        if let symbolic = headRef.symbolicTarget {
            let branch = symbolic.removingPrefix("refs/heads/")
            // Resolved once: the branch file is read here and not again by the peel.
            let resolved = try nilIfNotFound { () throws(GitError) in
                ReferenceHandle(try make("git_reference_resolve") { git_reference_resolve(&$0, headRef.pointer) }, owner: self)
            }
            guard let resolved else { return .unborn(branch: branch) }
            return .branch(name: branch, commit: try peelToCommit(resolved))
        }
        return .detached(try peelToCommit(headRef))
    }

    /// Resolves any revision git understands (branch, tag, id, "origin/main", "HEAD~1", …) to a commit; `.notFound` when missing.
    public func resolveCommit(_ revision: String) throws -> OID {
        try resolveCommitObject(revision).oid
    }

    /// Whether `oid` names a commit present in this repository.
    public func hasCommit(_ oid: OID) -> Bool {
        (try? lookupCommit(oid)) != nil
    }

    /// The local branch names (without "refs/heads/"), sorted.
    public func localBranches() throws -> [String] {
        let iterator = BranchIteratorHandle(
            try make("git_branch_iterator_new") { git_branch_iterator_new(&$0, pointer, GIT_BRANCH_LOCAL) }, owner: self)
        var names: [String] = []
        while true {
            var ref: OpaquePointer?
            var type = GIT_BRANCH_LOCAL
            let result = git_branch_next(&ref, &type, iterator.pointer)
            if result == GIT_ITEROVER.rawValue { break }
            try check(result, "git_branch_next")
            guard let ref else { continue }
            names.append(ReferenceHandle(ref, owner: self).name.removingPrefix("refs/heads/"))
        }
        return names.sorted()
    }

    /// The tip of a local branch; nil when the branch does not exist.
    public func branchTarget(_ name: String) throws -> OID? {
        try reference("refs/heads/" + name)
    }

    /// Creates a local branch at `commit`; throws `.exists` unless `force`.
    public func createBranch(_ name: String, at commit: OID, force: Bool = false) throws {
        let target = try lookupCommit(commit)
        _ = ReferenceHandle(try make("git_branch_create") {
            git_branch_create(&$0, pointer, name, target.pointer, force ? 1 : 0)
        }, owner: self)
    }

    /// Sets (e.g. "origin/develop", which must exist) or with nil removes the upstream of a local branch.
    public func setUpstream(branch: String, to upstream: String?) throws {
        let ref = try lookupBranch(branch)
        if upstream == nil, try self.upstream(ofBranch: branch) == nil { return }
        try withOptionalCString(upstream) { (name) throws(GitError) in
            try check(git_branch_set_upstream(ref.pointer, name), "git_branch_set_upstream")
        }
    }

    /// The upstream of a local branch as a short name ("origin/develop"); nil when none is configured.
    public func upstream(ofBranch branch: String) throws -> String? {
        try tracking(ofBranch: branch)?.upstream
    }

    /// `upstream(ofBranch:)` as libgit2 works it out, loading the whole remote: for refspecs `tracking` does not map.
    func upstreamByLoadingRemote(ofBranch branch: String) throws -> String? {
        try nilIfNotFound { () throws(GitError) -> String in
            var buf = git_buf()
            try check(git_branch_upstream_name(&buf, pointer, "refs/heads/" + branch), "git_branch_upstream_name")
            return takeBuf(&buf).removingPrefix("refs/remotes/").removingPrefix("refs/heads/")
        }
    }

    /// The remote-tracking tip `refs/remotes/<remote>/<branch>`; nil when it does not exist.
    public func remoteBranchTarget(remote: String, branch: String) throws -> OID? {
        try reference("refs/remotes/\(remote)/\(branch)")
    }

    /// The branch `refs/remotes/<remote>/HEAD` points at (set by clone), e.g. "main"; nil when unknown.
    public func remoteDefaultBranch(remote: String) throws -> String? {
        guard let ref = try nilIfNotFound({ () throws(GitError) in try lookupReference("refs/remotes/\(remote)/HEAD") }),
              let target = ref.symbolicTarget else { return nil }
        let prefix = "refs/remotes/\(remote)/"
        return target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : nil
    }

    /// The object id a full reference name resolves to (symbolic refs followed, tags not peeled); nil when missing.
    public func reference(_ name: String) throws -> OID? {
        try referenceTarget(name)
    }

    /// Every reference whose full name starts with `prefix`, resolved to its direct target, sorted by name.
    public func references(withPrefix prefix: String) throws -> [(name: String, target: OID)] {
        try references(matching: prefix + "*").sorted { $0.name < $1.name }
    }

    /// Every reference matching a glob such as "refs/remotes/origin/*" (`*` also matches "/"), symbolic ones resolved.
    public func references(matching glob: String) throws -> [(name: String, target: OID)] {
        let iterator = ReferenceIteratorHandle(
            try make("git_reference_iterator_glob_new") { git_reference_iterator_glob_new(&$0, pointer, glob) }, owner: self)
        var found: [(name: String, target: OID)] = []
        while true {
            var raw: OpaquePointer?
            let result = git_reference_next(&raw, iterator.pointer)
            if result == GIT_ITEROVER.rawValue { break }
            try check(result, "git_reference_next")
            guard let raw else { continue }
            let ref = ReferenceHandle(raw, owner: self)
            if let target = try ref.directTarget ?? referenceTarget(ref.name) { found.append((ref.name, target)) }
        }
        return found
    }

    /// Creates or (with `force`) moves a direct reference, writing `logMessage` to its reflog.
    public func setReference(_ name: String, to target: OID, force: Bool, logMessage: String) throws {
        var oid = target.gitOID
        _ = ReferenceHandle(try make("git_reference_create") {
            git_reference_create(&$0, pointer, name, &oid, force ? 1 : 0, logMessage)
        }, owner: self)
    }

    /// Deletes a reference by full name; throws `.notFound` when it does not exist.
    public func deleteReference(_ name: String) throws {
        let ref = try lookupReference(name)
        try check(git_reference_delete(ref.pointer), "git_reference_delete")
    }

    // MARK: internal helpers

    func referenceTarget(_ name: String) throws(GitError) -> OID? {
        try nilIfNotFound { () throws(GitError) -> OID in
            var oid = git_oid()
            try check(git_reference_name_to_id(&oid, pointer, name), "git_reference_name_to_id")
            return OID(oid)
        }
    }

    func lookupReference(_ name: String) throws(GitError) -> ReferenceHandle {
        ReferenceHandle(try make("git_reference_lookup") { git_reference_lookup(&$0, pointer, name) }, owner: self)
    }

    func lookupBranch(_ name: String) throws(GitError) -> ReferenceHandle {
        ReferenceHandle(try make("git_branch_lookup") { git_branch_lookup(&$0, pointer, name, GIT_BRANCH_LOCAL) },
                        owner: self)
    }

    func peelToCommit(_ ref: ReferenceHandle) throws(GitError) -> OID {
        let object = ObjectHandle(try make("git_reference_peel") { git_reference_peel(&$0, ref.pointer, GIT_OBJECT_COMMIT) },
                                  owner: self)
        return OID(git_object_id(object.pointer))
    }

    func lookupCommit(_ oid: OID) throws(GitError) -> ObjectHandle {
        var raw = oid.gitOID
        return ObjectHandle(try make("git_commit_lookup") { git_commit_lookup(&$0, pointer, &raw) }, owner: self)
    }

    func resolveCommitObject(_ revision: String) throws(GitError) -> (oid: OID, commit: ObjectHandle) {
        let object = ObjectHandle(try make("git_revparse_single") { git_revparse_single(&$0, pointer, revision) }, owner: self)
        let commit = ObjectHandle(try make("git_object_peel") { git_object_peel(&$0, object.pointer, GIT_OBJECT_COMMIT) },
                                  owner: self)
        return (OID(git_object_id(commit.pointer)), commit)
    }
}

extension String {
    func removingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
