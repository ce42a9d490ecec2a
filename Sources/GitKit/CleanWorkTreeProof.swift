internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Proves that a work tree is clean, as `git status` would find it, from stat data alone and without libgit2's
/// status, which on a large repository costs about twice git's time.
///
/// It starts where the index's cache-tree shows that the index is HEAD's tree (nothing staged, nothing in
/// conflict). Then every tracked file must have the stat data git recorded for it (type, executable bit, size,
/// modification and change times, inode, owner), and not be "racily clean" (modified in the same clock tick as the
/// index was written, when stat data cannot tell). Where untracked files count, every directory holding tracked
/// files is listed and each name the index does not know must be ignored. That is git's own test for an unchanged
/// file (`ie_match_stat`), with file systems walked by relative paths.
///
/// It only ever proves. Anything it cannot decide this way (a changed or racily clean file, a submodule, an
/// untracked name that is not ignored, a setting such as `core.ignorecase` it does not follow, an index replaced
/// meanwhile) makes it give up, and the caller runs libgit2's full status, which then decides.
struct CleanWorkTreeProof {
    let repository: Repository
    let index: JudgedIndex

    func holds(untracked: Bool) -> Bool {
        guard let workdir = repository.workdir, let settings = Settings(repository),
              let entries = IndexCacheTree.entries(indexFile: index.bytes) else { return false }
        let directory = open(workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return false }
        defer { close(directory) }
        guard allUnchanged(entries.filter { !$0.assumeUnchanged && !$0.skipWorktree }, in: directory, settings) else { return false }
        if untracked, !hasOnlyIgnoredUntrackedNames(entries, in: directory) { return false }
        return IndexFileIdentity(path: index.path) == index.identity
    }

    /// What git's stat comparison depends on; nil for settings this proof does not follow.
    private struct Settings {
        var fileMode = true
        var trustChangeTime = true

        init?(_ repository: Repository) {
            var snapshot: OpaquePointer?
            guard git_repository_config_snapshot(&snapshot, repository.pointer) == 0, let snapshot else {
                git_error_clear()
                return nil
            }
            defer { git_config_free(snapshot) }
            func flag(_ key: String, _ fallback: Bool) -> Bool? {
                var value: Int32 = 0
                let result = git_config_get_bool(&value, snapshot, key)
                if result == GIT_ENOTFOUND.rawValue { git_error_clear(); return fallback }
                guard result == 0 else { git_error_clear(); return nil }
                return value != 0
            }
            var checkStat: UnsafePointer<CChar>?
            let checkStatResult = git_config_get_string(&checkStat, snapshot, "core.checkstat")
            git_error_clear()
            guard checkStatResult == GIT_ENOTFOUND.rawValue || (checkStatResult == 0 && checkStat.map { String(cString: $0) } == "default"),
                  flag("core.ignorecase", false) == false, flag("core.precomposeunicode", false) == false,
                  flag("core.symlinks", true) == true,
                  let fileMode = flag("core.filemode", true), let trustChangeTime = flag("core.trustctime", true) else { return nil }
            self.fileMode = fileMode
            self.trustChangeTime = trustChangeTime
        }
    }

    /// The stat walk; split over the cores for a large index, as git's parallel index preload is.
    private func allUnchanged(_ entries: [IndexEntryStat], in directory: Int32, _ settings: Settings) -> Bool {
        let parts = entries.count < 2_000 ? 1 : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let indexModified = index.identity.modifiedTime
        var results = [Bool](repeating: false, count: parts)
        results.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = (entries.count * part / parts)..<(entries.count * (part + 1) / parts)
                results[part] = entries[range].allSatisfy {
                    Self.isPlainPath($0.path) && Self.isUnchanged($0, in: directory, settings, indexModified: indexModified)
                }
            }
        }
        return !results.contains(false)
    }

    /// git's test: the same kind of file with the same stat data, written before the index was.
    private static func isUnchanged(_ entry: IndexEntryStat, in directory: Int32, _ settings: Settings,
                                    indexModified: (seconds: UInt32, nanoseconds: UInt32)) -> Bool {
        var info = stat()
        let found = (entry.path + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { fstatat(directory, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0 }
        }
        guard found else { return false }
        let kind = info.st_mode & S_IFMT
        switch entry.mode {
        case 0o100644, 0o100755:
            guard kind == S_IFREG else { return false }
            if settings.fileMode, (info.st_mode & 0o100 != 0) != (entry.mode == 0o100755) { return false }
        case 0o120000:
            guard kind == S_IFLNK else { return false }
        default:
            return false  // a submodule, or a mode git does not write
        }
        #if canImport(Darwin)
        let modified = info.st_mtimespec, changed = info.st_ctimespec
        #else
        let modified = info.st_mtim, changed = info.st_ctim
        #endif
        guard UInt32(truncatingIfNeeded: info.st_size) == entry.size,
              UInt32(truncatingIfNeeded: modified.tv_sec) == entry.modifiedSeconds,
              UInt32(truncatingIfNeeded: modified.tv_nsec) == entry.modifiedNanoseconds,
              UInt32(truncatingIfNeeded: info.st_ino) == entry.inode,
              UInt32(truncatingIfNeeded: info.st_uid) == entry.uid,
              UInt32(truncatingIfNeeded: info.st_gid) == entry.gid else { return false }
        if settings.trustChangeTime {
            guard UInt32(truncatingIfNeeded: changed.tv_sec) == entry.changedSeconds,
                  UInt32(truncatingIfNeeded: changed.tv_nsec) == entry.changedNanoseconds else { return false }
        }
        // Racily clean: changed in the tick the index was written, so the same stat data may hide new content.
        return entry.modifiedSeconds < indexModified.seconds
            || (entry.modifiedSeconds == indexModified.seconds && entry.modifiedNanoseconds < indexModified.nanoseconds)
    }

    /// Lists every directory that holds tracked files; true when each name the index does not know is ignored.
    private func hasOnlyIgnoredUntrackedNames(_ entries: [IndexEntryStat], in root: Int32) -> Bool {
        var files = Set<PathKey>()
        var directories = Set<PathKey>([PathKey([])])
        files.reserveCapacity(entries.count)
        for entry in entries {
            files.insert(PathKey(entry.path))
            var end = entry.path.count
            while let slash = entry.path[..<end].lastIndex(of: UInt8(ascii: "/")) {
                guard directories.insert(PathKey(Array(entry.path[..<slash]))).inserted else { break }
                end = slash
            }
        }
        for directory in directories.map(\.bytes) {
            guard let names = Self.names(in: directory, under: root) else { return false }
            for (name, type) in names {
                if directory.isEmpty, name == Array(".git".utf8) { continue }
                let path = directory.isEmpty ? name : directory + [UInt8(ascii: "/")] + name
                if files.contains(PathKey(path)) { continue }
                var isDirectory = type == DT_DIR
                if type == DT_UNKNOWN {
                    var info = stat()
                    let found = (path + [0]).withUnsafeBufferPointer { path in
                        path.withMemoryRebound(to: CChar.self) { fstatat(root, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0 }
                    }
                    guard found else { return false }
                    isDirectory = info.st_mode & S_IFMT == S_IFDIR
                }
                // A directory of tracked files is listed in its own turn.
                if isDirectory, directories.contains(PathKey(path)) { continue }
                guard isIgnored(path, isDirectory: isDirectory) else { return false }
            }
        }
        return true
    }

    private func isIgnored(_ path: [UInt8], isDirectory: Bool) -> Bool {
        var ignored: Int32 = 0
        let bytes = path + (isDirectory ? [UInt8(ascii: "/")] : []) + [0]
        let result = bytes.withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { git_ignore_path_is_ignored(&ignored, repository.pointer, $0.baseAddress!) }
        }
        git_error_clear()
        return result == 0 && ignored == 1
    }

    /// The names in a directory of the work tree with their `d_type`; nil when it cannot be listed.
    private static func names(in directory: [UInt8], under root: Int32) -> [([UInt8], UInt8)]? {
        let relative = directory.isEmpty ? Array(".".utf8) : directory
        let descriptor = (relative + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { openat(root, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { return nil }
        guard let stream = fdopendir(descriptor) else { close(descriptor); return nil }
        defer { closedir(stream) }
        var names: [([UInt8], UInt8)] = []
        while let item = readdir(stream) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append((name, item.pointee.d_type))
        }
        return names
    }

    /// A relative path without empty, `.`, `..` or `.git` components, as git itself requires of index entries.
    private static func isPlainPath(_ path: [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { bytes in
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                let length = end - start
                if length == 0 { return false }
                if bytes[start] == UInt8(ascii: ".") {
                    if length == 1 || (length == 2 && bytes[start + 1] == UInt8(ascii: ".")) { return false }
                    if length == 4, bytes[start + 1] | 0x20 == UInt8(ascii: "g"), bytes[start + 2] | 0x20 == UInt8(ascii: "i"),
                       bytes[start + 3] | 0x20 == UInt8(ascii: "t") { return false }
                }
                start = end + 1
            }
            return true
        }
    }
}

/// A path's bytes as a set member, hashed in one call (an array of bytes hashes byte by byte).
private struct PathKey: Hashable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
