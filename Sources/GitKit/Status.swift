internal import CLibgit2

/// How many files are in each state, like the sections of `git status`.
public struct StatusSummary: Sendable, Equatable {
    /// Files with changes in the index relative to HEAD.
    public var staged: Int
    /// Tracked files changed or deleted in the work tree relative to the index.
    public var modified: Int
    /// Untracked files (inside untracked directories too; ignored files are not counted).
    public var untracked: Int
    /// Files with unresolved merge conflicts.
    public var conflicted: Int

    public init(staged: Int = 0, modified: Int = 0, untracked: Int = 0, conflicted: Int = 0) {
        self.staged = staged
        self.modified = modified
        self.untracked = untracked
        self.conflicted = conflicted
    }

    /// No staged, modified or conflicted files; untracked files do not count.
    public var isClean: Bool { staged == 0 && modified == 0 && conflicted == 0 }
}

extension Repository {
    /// Summarises the work tree and index; a file staged and modified again counts in both.
    /// `paths` (relative to the work tree) limits it to those files or folders, e.g. a directory module.
    /// `untracked: false` skips looking for untracked files (their count is then 0), which is all
    /// `isClean` needs and spares reading ignore rules and listing untracked directories.
    /// `refreshingIndex` writes back the stat data of files found unchanged, as `git status` does when it can
    /// take the index lock: a file written in the same clock tick as the index is otherwise re-read and hashed
    /// by every status. When another process holds the lock the status is read without refreshing.
    public func status(paths: [String] = [], untracked: Bool = true, refreshingIndex: Bool = false) throws -> StatusSummary {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = untracked
            ? GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            : 0
        let plainFlags = options.flags
        if refreshingIndex { options.flags |= GIT_STATUS_OPT_UPDATE_INDEX.rawValue }
        let list = try withStrarray(paths) { pathspec throws(GitError) in
            options.pathspec = pathspec.pointee
            do throws(GitError) {
                return StatusListHandle(try make("git_status_list_new") { git_status_list_new(&$0, pointer, &options) },
                                        owner: self)
            } catch where error.code == .locked && options.flags != plainFlags {
                options.flags = plainFlags
                return StatusListHandle(try make("git_status_list_new") { git_status_list_new(&$0, pointer, &options) },
                                        owner: self)
            }
        }
        let stagedMask = GIT_STATUS_INDEX_NEW.rawValue | GIT_STATUS_INDEX_MODIFIED.rawValue
            | GIT_STATUS_INDEX_DELETED.rawValue | GIT_STATUS_INDEX_RENAMED.rawValue | GIT_STATUS_INDEX_TYPECHANGE.rawValue
        let modifiedMask = GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_WT_DELETED.rawValue
            | GIT_STATUS_WT_RENAMED.rawValue | GIT_STATUS_WT_TYPECHANGE.rawValue
        var summary = StatusSummary()
        for index in 0..<git_status_list_entrycount(list.pointer) {
            guard let entry = git_status_byindex(list.pointer, index) else { continue }
            let flags = entry.pointee.status.rawValue
            if flags & GIT_STATUS_CONFLICTED.rawValue != 0 {
                summary.conflicted += 1
                continue
            }
            if flags & stagedMask != 0 { summary.staged += 1 }
            if flags & modifiedMask != 0 { summary.modified += 1 }
            if flags & GIT_STATUS_WT_NEW.rawValue != 0 { summary.untracked += 1 }
        }
        return summary
    }
}
