internal import CLibgit2

/// Tracked paths that hold local work: staged, modified or deleted, and unmerged ones apart.
public struct LocalChanges: Sendable, Equatable {
    /// Paths whose index entry differs from HEAD or whose work-tree file differs from the index, sorted.
    public var paths: [String]
    /// Paths with unresolved merge conflicts, sorted.
    public var conflicted: [String]

    public var isEmpty: Bool { paths.isEmpty && conflicted.isEmpty }
}

extension Repository {
    /// The tracked paths with local work. Untracked files do not count, nor do submodules' own states: a move
    /// never writes inside a submodule, and a submodule left at another commit must not keep its parent "dirty".
    /// Entries marked skip-worktree (sparse checkouts) are unmodified, as git reports them.
    /// Where libgit2 finds changes and `FastPaths` says only git answers as git does, git answers
    /// (`git status --ignore-submodules=all`): libgit2 errs only towards "changed" there.
    public func localChanges() throws -> LocalChanges {
        let found = try localChangesByLibgit2()
        guard !found.isEmpty, FastPaths.statusNeedsGit(self) != nil else { return found }
        let entries = try GitStatus(self, untracked: false, submodules: false).entries
        let conflicted = entries.filter(\.isConflicted).map(\.path)
        let paths = entries.filter { !$0.isConflicted }.flatMap { [$0.path] + ($0.origin.map { [$0] } ?? []) }
        return LocalChanges(paths: Set(paths).sorted(), conflicted: Set(conflicted).sorted())
    }

    private func localChangesByLibgit2() throws -> LocalChanges {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        let list = StatusListHandle(try make("git_status_list_new") { git_status_list_new(&$0, pointer, &options) }, owner: self)
        let trackedIndex = try openIndex()
        var paths = Set<String>(), conflicted = Set<String>()
        for index in 0..<git_status_list_entrycount(list.pointer) {
            guard let entry = git_status_byindex(list.pointer, index) else { continue }
            var names: [String] = []
            for delta in [entry.pointee.head_to_index, entry.pointee.index_to_workdir] {
                guard let delta else { continue }
                for file in [delta.pointee.old_file, delta.pointee.new_file] {
                    if let path = file.path { names.append(String(cString: path)) }
                }
            }
            let flags = entry.pointee.status.rawValue
            if flags == GIT_STATUS_WT_DELETED.rawValue, let path = names.first,
               let tracked = git_index_get_bypath(trackedIndex.pointer, path, 0),
               tracked.pointee.flags_extended & UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue) != 0 {
                continue  // libgit2 reports a skip-worktree entry as deleted; git does not
            }
            if flags & GIT_STATUS_CONFLICTED.rawValue != 0 {
                conflicted.formUnion(names)
            } else if flags & ~GIT_STATUS_WT_NEW.rawValue & ~GIT_STATUS_IGNORED.rawValue != 0 {
                paths.formUnion(names)
            }
        }
        return LocalChanges(paths: paths.sorted(), conflicted: conflicted.sorted())
    }
}
