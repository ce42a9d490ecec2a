import GitKit

/// What a manifest revision names once the remote has been fetched.
enum RevisionTarget: Equatable {
    /// A remote branch: checked out as a local branch tracking it.
    case branch(name: String, commit: OID)
    /// A tag: checked out detached at the tagged commit.
    case tag(name: String, commit: OID)
    /// A commit id: checked out detached.
    case commit(OID)

    var commit: OID {
        switch self {
        case .branch(_, let commit), .tag(_, let commit), .commit(let commit): return commit
        }
    }

    var label: String {
        switch self {
        case .branch(let name, _): return name
        case .tag(let name, _): return "tag \(name)"
        case .commit(let oid): return "commit \(oid.short)"
        }
    }

    /// Resolves `revision` (nil: the remote's default branch) in a freshly fetched repository.
    static func resolve(_ revision: String?, remote: String, in repository: Repository) throws -> RevisionTarget {
        guard let revision else {
            let name = try repository.remoteDefaultBranch(remote: remote)
                ?? ["main", "master", "develop"].first { (try? repository.remoteBranchTarget(remote: remote, branch: $0)) != nil }
            guard let name, let commit = try repository.remoteBranchTarget(remote: remote, branch: name) else {
                throw ModKitError("cannot tell the default branch of remote '\(remote)'", hint: "set a revision for this module in modkit.yml")
            }
            return .branch(name: name, commit: commit)
        }
        if let ref = SpecialRef.remoteRef(for: revision) {
            guard let commit = try repository.reference(SpecialRef.localRef(for: ref)) else {
                throw ModKitError("ref '\(ref)' was not fetched from remote '\(remote)'", hint: "check that the remote has it: git ls-remote \(remote) \(ref)")
            }
            return .commit(commit)
        }
        if revision.hasPrefix("refs/heads/") { return try resolve(String(revision.dropFirst("refs/heads/".count)), remote: remote, in: repository) }
        if revision.hasPrefix("refs/tags/"), try repository.reference(revision) != nil {
            return .tag(name: String(revision.dropFirst("refs/tags/".count)), commit: try repository.resolveCommit(revision))
        }
        if let commit = try repository.remoteBranchTarget(remote: remote, branch: revision) {
            return .branch(name: revision, commit: commit)
        }
        if try repository.reference("refs/tags/\(revision)") != nil {
            return .tag(name: revision, commit: try repository.resolveCommit("refs/tags/\(revision)"))
        }
        if revision.count == 40, let oid = OID(hex: revision), repository.hasCommit(oid) {
            return .commit(oid)
        }
        throw ModKitError("revision '\(revision)' is not a branch, tag or commit of remote '\(remote)'",
                          hint: "check the module's revision in modkit.yml")
    }
}
