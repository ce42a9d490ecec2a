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

extension Repository {
    /// The paths git tracks (its index, like `git ls-files`), relative to the work tree, for which `include` is true;
    /// `include` sees each path as stored in the index, so a caller can reject most by their last bytes cheaply.
    public func trackedPaths(where include: (String) -> Bool) throws -> [String] {
        let index = try openIndex()
        try check(git_index_read(index.pointer, 0), "git_index_read")
        var paths: [String] = []
        var previous = ""
        for position in 0..<git_index_entrycount(index.pointer) {
            guard let entry = git_index_get_byindex(index.pointer, position) else { continue }
            let path = String(cString: entry.pointee.path)
            // Each path once: a conflicted file has up to three stage entries, next to each other.
            guard path != previous else { continue }
            previous = path
            if include(path) { paths.append(path) }
        }
        return paths
    }
}
