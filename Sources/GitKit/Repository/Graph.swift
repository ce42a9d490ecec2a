internal import CLibgit2

extension Repository {
    /// Counts commits on `local` not in `upstream` (ahead) and the reverse (behind).
    public func aheadBehind(local: OID, upstream: OID) throws -> (ahead: Int, behind: Int) {
        var ahead = 0, behind = 0
        var localOID = local.gitOID, upstreamOID = upstream.gitOID
        try check(git_graph_ahead_behind(&ahead, &behind, pointer, &localOID, &upstreamOID), "git_graph_ahead_behind")
        return (ahead, behind)
    }

    /// Whether `commit` has `ancestor` in its history; false when they are equal, like libgit2.
    public func isDescendant(_ commit: OID, of ancestor: OID) throws -> Bool {
        var commitOID = commit.gitOID, ancestorOID = ancestor.gitOID
        return try check(git_graph_descendant_of(pointer, &commitOID, &ancestorOID), "git_graph_descendant_of") == 1
    }

    /// The best common ancestor of two commits; nil when their histories are unrelated.
    public func mergeBase(_ a: OID, _ b: OID) throws -> OID? {
        var aOID = a.gitOID, bOID = b.gitOID
        return try nilIfNotFound { () throws(GitError) -> OID in
            var base = git_oid()
            try check(git_merge_base(&base, pointer, &aOID, &bOID), "git_merge_base")
            return OID(base)
        }
    }
}
