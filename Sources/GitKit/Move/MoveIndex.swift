internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Writes the index a move ends with: the current index with the moved paths' entries replaced, every other
/// entry (and its staged state) untouched. The new index is built in `<git dir>/modkit/index`, then installed
/// under git's `index.lock` by one rename, so the lock is held for microseconds and the index is never half-written.
struct MoveIndex {
    let repository: Repository
    let plan: MovePlan

    func write() throws {
        let gitDir = repository.gitDir
        let indexPath = repository.directory.index
        let staging = MoveJournal.directory(gitDir: gitDir) + "/index"
        unlink(staging)
        unlink(staging + ".lock")
        let before = Self.identity(indexPath)
        if before != nil { try copyKeepingTimes(indexPath, to: staging) }

        let keepsCacheTree = cacheTreeIsFromTree(staging)
        let index = IndexHandle(try make("git_index_open") { git_index_open(&$0, staging) }, owner: repository)
        for change in plan.changes {
            guard let new = change.new else {
                let result = git_index_remove(index.pointer, change.path, 0)
                if result < 0 && result != GIT_ENOTFOUND.rawValue { try check(result, "git_index_remove") }
                continue
            }
            try add(new, at: change.path, skipWorktree: plan.skipped.contains(change.path), to: index)
        }
        if keepsCacheTree {
            // The index was the old commit's tree and now is the new one's: record it, as git's merge does, so
            // that the next status need not compare HEAD with the index (see `IndexCacheTree`). Only the
            // directories the move changed are rebuilt, and their trees are already in the repository.
            var tree = git_oid()
            if git_index_write_tree_to(&tree, index.pointer, repository.pointer) != 0 { git_error_clear() }
        }
        try check(git_index_write(index.pointer), "git_index_write")

        let lock = indexPath + ".lock"
        let descriptor = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw WorkTreeMoveRefusal(reason: "index.lock appeared while modkit was moving the work tree", paths: [".git/index.lock"],
                                      hint: "when the other git process is done, run the command again: it finishes the move")
        }
        close(descriptor)
        defer { unlink(lock) }
        guard Self.identity(indexPath) == before else {
            throw WorkTreeMoveRefusal(reason: "another process changed the index while modkit was moving the work tree", paths: [".git/index"],
                                      hint: "run the command again: it finishes the move")
        }
        guard rename(staging, indexPath) == 0 else { throw FileSystem.error("cannot replace", indexPath) }
    }

    /// Whether the index at `path` is exactly the tree of the commit the move starts from, by its cache-tree.
    private func cacheTreeIsFromTree(_ path: String) -> Bool {
        guard let from = plan.from, let fromTree = repository.treeID(ofCommit: from),
              let (_, bytes) = IndexFileIdentity.contents(path: path) else { return false }
        return IndexCacheTree(indexFile: bytes)?.rootTree == fromTree
    }

    /// An entry with the stat data of the file just written, so the next status does not re-read it.
    private func add(_ entry: MoveChange.Entry, at path: String, skipWorktree: Bool, to index: IndexHandle) throws {
        var item = git_index_entry()
        item.id = entry.oid.gitOID
        item.mode = entry.mode
        if skipWorktree {
            item.flags_extended = UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue)
        } else if !entry.isGitlink {
            var info = stat()
            if lstat(plan.absolute(path), &info) == 0 {
                #if canImport(Darwin)
                let (changed, modified) = (info.st_ctimespec, info.st_mtimespec)
                #else
                let (changed, modified) = (info.st_ctim, info.st_mtim)
                #endif
                item.ctime = git_index_time(seconds: Int32(truncatingIfNeeded: changed.tv_sec), nanoseconds: UInt32(changed.tv_nsec))
                item.mtime = git_index_time(seconds: Int32(truncatingIfNeeded: modified.tv_sec), nanoseconds: UInt32(modified.tv_nsec))
                item.dev = UInt32(truncatingIfNeeded: info.st_dev)
                item.ino = UInt32(truncatingIfNeeded: info.st_ino)
                item.uid = info.st_uid
                item.gid = info.st_gid
                item.file_size = UInt32(truncatingIfNeeded: info.st_size)
            }
        }
        let name = strdup(path)
        defer { free(name) }
        item.path = UnsafePointer(name)
        try check(git_index_add(index.pointer, &item), "git_index_add")
    }

    /// The index as the staging file's starting point, with its modification time: libgit2 judges which entries are
    /// "racily clean" against it. A hard link costs no copy and keeps the time; libgit2 then writes the staging index
    /// through its own lock file and rename, so the shared inode (the live index) is never written. Where links are
    /// unsupported, a plain copy: it is only a scratch file until the rename, so it needs no sync.
    private func copyKeepingTimes(_ source: String, to destination: String) throws {
        if link(source, destination) == 0 { return }
        guard let data = FileManager.default.contents(atPath: source) else { throw FileSystem.error("cannot read", source) }
        do {
            try AtomicWrite.replace(destination, with: data, temporary: destination + ".tmp", mode: 0o644, sync: false)
        } catch {
            throw FileSystem.error("cannot write", destination, error.code)
        }
        var info = stat()
        guard stat(source, &info) == 0 else { return }
        #if canImport(Darwin)
        var times = [info.st_atimespec, info.st_mtimespec]
        #else
        var times = [info.st_atim, info.st_mtim]
        #endif
        utimensat(AT_FDCWD, destination, &times, 0)
    }

    private static func identity(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return [Int(info.st_ino), Int(info.st_size), Int(modified.tv_sec), Int(modified.tv_nsec)]
    }
}
