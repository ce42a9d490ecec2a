internal import CLibgit2

// `git fetch --tags` never moves a local tag to the remote's tag of the same name ("would clobber existing
// tag"); libgit2 with GIT_REMOTE_DOWNLOAD_TAGS_ALL force-updates it. So the remote's tags are fetched into a
// mirror namespace, pruned like remote-tracking branches, and copied to refs/tags/ only where that loses nothing.

extension Repository {
    /// Where `fetch(downloadTags: .all)` keeps the remote's tags as the remote has them.
    static func tagMirrorPrefix(_ remote: String) -> String { "refs/modkit/remote-tags/\(remote)/" }

    /// The remote's tag of that name as last fetched (the tag object for an annotated tag); nil when it has none.
    public func remoteTagTarget(remote: String, tag: String) throws -> OID? {
        try reference(Repository.tagMirrorPrefix(remote) + tag)
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
            try check(result, "git_reference_create")
        }
        return kept.sorted()
    }
}
