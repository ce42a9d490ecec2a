internal import CLibgit2

// `git fetch --tags` never moves a local tag to the remote's tag of the same name ("would clobber existing
// tag"); libgit2 with GIT_REMOTE_DOWNLOAD_TAGS_ALL force-updates it. So the remote's tags are fetched into a
// mirror namespace, pruned like remote-tracking branches, and copied to refs/tags/ only where that loses nothing.

extension Repository {
    /// Where `fetch(downloadTags: .all)` keeps the remote's tags as the remote has them.
    static func tagMirrorPrefix(_ remote: String) -> String { "refs/modkit/remote-tags/\(remote)/" }

    /// Records a new clone's tags (the remote's, as no local tag exists yet) as the mirror, packed with the other
    /// references, so the first update fetch finds the mirror complete and writes nothing for tags. Does nothing when
    /// the mirror has entries already.
    public func seedTagMirror(remote: String) throws {
        let prefix = Repository.tagMirrorPrefix(remote)
        guard try references(matching: prefix + "*").isEmpty else { return }
        let tags = try references(matching: "refs/tags/*")
        guard !tags.isEmpty else { return }
        for tag in tags {
            try setReference(prefix + tag.name.removingPrefix("refs/tags/"), to: tag.target, force: false, logMessage: "clone: tag mirror")
        }
        try packReferences()
    }

    /// Moves loose references into `packed-refs`, as `git pack-refs --all` does.
    func packReferences() throws {
        let refdb = RefdbHandle(try make("git_repository_refdb") { git_repository_refdb(&$0, pointer) }, owner: self)
        try check(git_refdb_compress(refdb.pointer), "git_refdb_compress")
    }

    /// Whether a local reference stands where `name` would need a directory, or lives below `name` itself.
    private func tagNameCollides(_ name: String) -> Bool {
        var parent = name
        while let slash = parent.lastIndex(of: "/"), parent[..<slash] != "refs/tags" {
            parent = String(parent[..<slash])
            if (try? referenceTarget(parent)) != nil { return true }
        }
        return !((try? references(matching: name + "/*")) ?? []).isEmpty
    }

    /// Creates each mirrored tag missing from refs/tags/; returns the names where a different local tag was kept.
    func adoptMirroredTags(remote: String) throws -> [String] {
        let prefix = Repository.tagMirrorPrefix(remote)
        var kept: [String] = []
        for mirrored in try references(matching: prefix + "*") {
            let name = mirrored.name.removingPrefix(prefix)
            if let local = try referenceTarget("refs/tags/" + name) {
                if local != mirrored.target { kept.append(name) }
                continue
            }
            var oid = mirrored.target.gitOID
            var created: OpaquePointer?
            let result = git_reference_create(&created, pointer, "refs/tags/" + name, &oid, 0, "fetch: new tag from \(remote)")
            if let created { git_reference_free(created) }
            if result == GIT_EEXISTS.rawValue { kept.append(name); continue }
            // A local tag where the remote's needs a directory (`v1` against `v1/rc`), or the other way round.
            if result < 0, tagNameCollides("refs/tags/" + name) { git_error_clear(); kept.append(name); continue }
            try check(result, "git_reference_create")
        }
        return kept.sorted()
    }
}
