internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Writes the work tree of a move itself instead of through `git_checkout_tree`: libgit2 rewrites a changed file
/// in place (`O_TRUNC` on the same inode), which changes every hard-linked copy outside the repository and, when
/// interrupted, leaves a file that is neither its old nor its new content. Here every file is written to a
/// temporary file beside it and renamed over the old one, as git does, so each path is always exactly its old or
/// its new content — which is what lets an interrupted move be recognised and finished.
struct MoveWriter {
    let repository: Repository
    let plan: MovePlan

    /// Removes what the move removes, then writes what it adds or changes; `done` are paths already at their
    /// new content (an interrupted move), left alone.
    func writeWorkTree(skipping done: Set<String> = []) throws {
        for change in plan.written.reversed() where !done.contains(change.path) {
            guard let old = change.old else { continue }
            let path = plan.absolute(change.path)
            if old.isGitlink {
                if change.new?.isGitlink != true { rmdir(path) }  // a populated submodule stays, as with git
            } else if change.new == nil || change.new?.isGitlink == true {
                guard unlink(path) == 0 || errno == ENOENT else { throw FileSystem.error("cannot remove", path) }
            }
            if change.new == nil { removeEmptyParents(of: change.path) }
        }
        for change in plan.written where !done.contains(change.path) {
            guard let new = change.new else { continue }
            try makeParents(of: change.path)
            let path = plan.absolute(change.path)
            if new.isGitlink {
                if FileSystem.kind(path) == .missing, mkdir(path, 0o777) != 0 { throw FileSystem.error("cannot create", path) }
            } else {
                if FileSystem.kind(path) == .directory, rmdir(path) != 0 { throw FileSystem.error("cannot replace the directory", path) }
                try write(new, to: change.path)
            }
        }
    }

    /// One file (or symlink) as a new inode, renamed over whatever is at `path`. Nothing is synced to disk, as git
    /// syncs neither (see `MoveJournal.write`).
    private func write(_ entry: MoveChange.Entry, to relative: String) throws {
        let path = plan.absolute(relative)
        let temp = Self.temporaryPath(for: path)
        let content = try blobContent(entry, path: relative)
        guard entry.isLink else {
            do {
                try AtomicWrite.replace(path, with: content, temporary: temp, mode: entry.isExecutable ? 0o777 : 0o666, sync: false)
            } catch {
                throw FileSystem.error("cannot write", error.path, error.code)
            }
            return
        }
        unlink(temp)
        guard symlink(String(decoding: content, as: UTF8.self), temp) == 0 else { throw FileSystem.error("cannot create", temp) }
        guard rename(temp, path) == 0 else {
            let error = FileSystem.error("cannot write", path)
            unlink(temp)
            throw error
        }
    }

    /// A blob as the work tree holds it: with the repository's filters (line endings, `ident`) applied; a symlink's target raw.
    private func blobContent(_ entry: MoveChange.Entry, path: String) throws -> Data {
        var raw = entry.oid.gitOID
        let blob = ObjectHandle(try make("git_blob_lookup") { git_blob_lookup(&$0, repository.pointer, &raw) }, owner: repository)
        if entry.isLink {
            let size = Int(git_blob_rawsize(blob.pointer))
            guard size > 0, let bytes = git_blob_rawcontent(blob.pointer) else { return Data() }
            return Data(bytes: bytes, count: size)
        }
        var options = git_blob_filter_options()
        try check(git_blob_filter_options_init(&options, UInt32(GIT_BLOB_FILTER_OPTIONS_VERSION)), "git_blob_filter_options_init")
        // The default flag makes `git_blob_filter` return nothing at all for a binary blob; the filters themselves leave binary content alone.
        options.flags &= ~GIT_BLOB_FILTER_CHECK_FOR_BINARY.rawValue
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try check(git_blob_filter(&buffer, blob.pointer, path, &options), "git_blob_filter")
        guard let pointer = buffer.ptr, buffer.size > 0 else { return Data() }
        return Data(bytes: pointer, count: buffer.size)
    }

    /// Where the new content of `path` is written before the rename: a hidden name beside it, fixed per path so a
    /// leftover from an interrupted move is replaced by the next attempt, and short (24 bytes) so that any name the
    /// file system takes has a temporary name it takes too.
    static func temporaryPath(for path: String) -> String {
        let parent = FileSystem.parent(path)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the name's bytes
        for byte in path.utf8.dropFirst(parent.utf8.count + 1) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return parent + "/.modkit-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func makeParents(of relative: String) throws {
        for ancestor in FileSystem.ancestors(relative) {
            let path = plan.absolute(ancestor)
            switch FileSystem.kind(path) {
            case .directory: continue
            case .missing: break
            case .file, .link:
                // Only a tracked file the move removes can be here (the preflight refused anything else).
                guard unlink(path) == 0 else { throw FileSystem.error("cannot remove", path) }
            }
            guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw FileSystem.error("cannot create", path) }
        }
    }

    /// Removes directories left empty, innermost first, as git does; stops at the first one that is not empty.
    private func removeEmptyParents(of relative: String) {
        for ancestor in FileSystem.ancestors(relative).reversed() {
            guard rmdir(plan.absolute(ancestor)) == 0 else { return }
        }
    }
}
