internal import CLibgit2
import Foundation

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
    /// Reads only, like `git --no-optional-locks status`: stat data found stale (a file touched, or checked out in the
    /// same clock tick as the index was written) is not written back, so such a file is hashed again next time.
    public func status(paths: [String] = [], untracked: Bool = true) throws -> StatusSummary {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.flags = untracked
            ? GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            : 0
        let judged = indexFileMatchingHead(collectingEntries: paths.isEmpty)
        if paths.isEmpty, let judged, CleanWorkTreeProof(repository: self, index: judged).holds(untracked: untracked) {
            return StatusSummary()
        }
        let summary = try withStrarray(paths) { pathspec throws(GitError) in
            options.pathspec = pathspec.pointee
            let list = try statusList(&options, judged: judged)
            return Self.summarize(list)
        }
        // libgit2 errs only towards "changed" where git converts content or skips entries (see `FastPaths`):
        // its clean answer stands, and a change is asked of git there.
        if !summary.isClean, FastPaths.statusNeedsGit(self) != nil {
            return try GitStatus(self, paths: paths, untracked: untracked, submodules: true).summary
        }
        return summary
    }

    /// The status of HEAD, index and work tree. When the index's cache-tree shows that the index is exactly
    /// HEAD's tree (see `IndexCacheTree`), only the index and the work tree are compared: HEAD's trees are not
    /// read, which in a large repository is a third of the work. The index file must be the same before the
    /// check and after the status (git replaces it by renaming a new file over it); otherwise the full
    /// comparison runs.
    private func statusList(_ options: inout git_status_options, judged: JudgedIndex?) throws(GitError) -> StatusListHandle {
        options.show = judged == nil ? GIT_STATUS_SHOW_INDEX_AND_WORKDIR : GIT_STATUS_SHOW_WORKDIR_ONLY
        let list = StatusListHandle(try make("git_status_list_new") { git_status_list_new(&$0, pointer, &options) },
                                    owner: self)
        guard let judged, IndexFileIdentity(path: judged.path) != judged.identity else { return list }
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        return StatusListHandle(try make("git_status_list_new") { git_status_list_new(&$0, pointer, &options) },
                                owner: self)
    }

    /// The index file when its cache-tree says it is HEAD's tree; nil otherwise. `collectingEntries` keeps its
    /// entries for `CleanWorkTreeProof`, read in the same walk.
    func indexFileMatchingHead(collectingEntries: Bool = false) -> JudgedIndex? {
        // libgit2 keeps the index in the git directory (a linked work tree's own), and a proof of a clean work tree
        // needs nothing of its parsed copy.
        let path = directory.index
        guard let (identity, bytes) = IndexFileIdentity.contents(path: path),
              let cacheTree = IndexCacheTree(indexFile: bytes, collectingEntries: collectingEntries),
              let headTree = headTreeID(), headTree == cacheTree.rootTree else { return nil }
        return JudgedIndex(path: path, identity: identity, entries: cacheTree.entries)
    }

    /// The tree of HEAD's commit; nil when HEAD is unborn or unreadable.
    private func headTreeID() -> OID? {
        var commitID = git_oid()
        guard git_reference_name_to_id(&commitID, pointer, "HEAD") == 0 else { return nil }
        return treeID(ofCommit: OID(commitID))
    }

    private static func summarize(_ list: StatusListHandle) -> StatusSummary {
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

extension Repository {
    /// Paths (relative to the work tree) of tracked files whose index or work-tree content differs from HEAD.
    public func changedTrackedPaths() throws -> [String] {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.flags = 0
        let judged = indexFileMatchingHead(collectingEntries: true)
        if let judged, CleanWorkTreeProof(repository: self, index: judged).holds(untracked: false) { return [] }
        let list = try statusList(&options, judged: judged)
        var paths: [String] = []
        for index in 0..<git_status_list_entrycount(list.pointer) {
            guard let entry = git_status_byindex(list.pointer, index) else { continue }
            let delta = entry.pointee.index_to_workdir ?? entry.pointee.head_to_index
            if let path = delta?.pointee.new_file.path ?? delta?.pointee.old_file.path { paths.append(String(cString: path)) }
        }
        if !paths.isEmpty, FastPaths.statusNeedsGit(self) != nil {
            return try GitStatus(self, untracked: false, submodules: true).entries.map(\.path).sorted()
        }
        return paths.sorted()
    }
}

/// An index file whose cache-tree showed it to be HEAD's tree, as read then.
struct JudgedIndex {
    let path: String
    let identity: IndexFileIdentity
    /// Its entries, when they were asked for.
    let entries: [IndexEntryStat]?
}

/// Which file an index path names, and when it was last written: git and libgit2 write a new index to
/// `index.lock` and rename it into place, so a changed index has a new identity.
struct IndexFileIdentity: Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: [Int]
    private let changed: [Int]

    /// The file's modification time as the index's 32-bit fields hold times: seconds and nanoseconds.
    var modifiedTime: (UInt32, UInt32) { (UInt32(truncatingIfNeeded: modified[0]), UInt32(truncatingIfNeeded: modified[1])) }

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
        changed = [Int(info.st_ctimespec.tv_sec), Int(info.st_ctimespec.tv_nsec)]
        #else
        modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        changed = [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
        #endif
    }

    /// The file's identity and its bytes, read through one descriptor; nil when it cannot be read whole.
    static func contents(path: String) -> (IndexFileIdentity, [UInt8])? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0, info.st_size < 1 << 31 else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, size - done) }
            guard count > 0 else { return nil }
            done += count
        }
        return (IndexFileIdentity(info), bytes)
    }
}
