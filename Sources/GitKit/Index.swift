internal import CLibgit2

extension Repository {
    /// Stages paths relative to the work tree (files or directories; additions, modifications and deletions); ignored new files are skipped.
    public func add(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try stage(pathspec: paths)
    }

    /// Stages every change in the work tree, like `git add -A`.
    public func addAll() throws {
        try stage(pathspec: [])
    }

    /// Applies a pathspec (empty = everything) to the index and writes it.
    private func stage(pathspec: [String]) throws(GitError) {
        let index = try openIndex()
        try withStrarray(pathspec) { (array) throws(GitError) in
            try check(git_index_add_all(index.pointer, array, GIT_INDEX_ADD_DEFAULT.rawValue, nil, nil), "git_index_add_all")
            try check(git_index_update_all(index.pointer, array, nil, nil), "git_index_update_all")
        }
        try check(git_index_write(index.pointer), "git_index_write")
    }

    func openIndex() throws(GitError) -> IndexHandle {
        IndexHandle(try make("git_repository_index") { git_repository_index(&$0, pointer) }, owner: self)
    }
}
