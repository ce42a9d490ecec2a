internal import CLibgit2

extension Repository {
    /// Whether `path` (relative to the work tree) is ignored by the repository's ignore rules, like `git check-ignore`.
    public func isIgnored(_ path: String) throws -> Bool {
        var ignored: Int32 = 0
        try check(git_ignore_path_is_ignored(&ignored, pointer, path), "git_ignore_path_is_ignored")
        return ignored != 0
    }
}
