internal import CLibgit2

extension Repository {
    /// The remote a local branch's upstream lives on (`branch.<name>.remote`); nil when it has no upstream.
    public func remoteOfUpstream(branch: String) throws -> String? {
        try nilIfNotFound { () throws(GitError) -> String in
            var buf = git_buf()
            try check(git_branch_upstream_remote(&buf, pointer, "refs/heads/" + branch), "git_branch_upstream_remote")
            return takeBuf(&buf)
        }
    }
}
