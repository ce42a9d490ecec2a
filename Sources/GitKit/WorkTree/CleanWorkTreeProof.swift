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
              let entries = index.entries,
              entries.allSatisfy({ Self.isPlainPath($0.path) }) else { return false }
        let root = open(workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return false }
        defer { close(root) }
        let directories = TrackedDirectory.grouping(entries)
        guard let untrackedNames = walk(directories, of: entries, root: root, settings, listing: untracked),
              untrackedNames.allSatisfy({ isIgnored($0.path, isDirectory: $0.isDirectory) }) else { return false }
        return IndexFileIdentity(path: index.path) == index.identity
    }

    /// What git's stat comparison depends on; nil for settings this proof does not follow.
    private struct Settings: Sendable {
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

    /// A directory of the work tree that holds tracked files, directly or below.
    private struct TrackedDirectory: Sendable {
        /// Its path's components; empty for the work tree's root.
        var components: [ArraySlice<UInt8>]
        /// The entries directly in it, by the offset of their name in the path.
        var files: [(entry: Int, nameStart: Int)] = []
        /// The names the index knows in it: its files (skip-worktree and assume-unchanged ones too) and its
        /// directories of tracked files.
        var known = Set<PathKey>()
        /// The names of its directories of tracked files.
        var subdirectories = Set<PathKey>()
        /// False when every entry in it and below it is outside the sparse checkout (skip-worktree): then it
        /// may be absent.
        var mustExist = false
        /// Its index in the unsorted grouping (during the grouping only).
        fileprivate var parent = 0

        /// Every directory holding tracked files, with all its ancestors, in path order (a parent before its
        /// children).
        static func grouping(_ entries: [IndexEntryStat]) -> [TrackedDirectory] {
            var directories = [TrackedDirectory(components: [])]
            var byPath = [PathKey([]): 0]
            func directory(_ path: ArraySlice<UInt8>) -> Int {
                let key = PathKey(path)
                if let found = byPath[key] { return found }
                let slash = path.lastIndex(of: UInt8(ascii: "/"))
                let parent = directory(slash.map { path[..<$0] } ?? path[path.startIndex..<path.startIndex])
                let name = PathKey(path[(slash.map { $0 + 1 } ?? path.startIndex)...])
                directories[parent].known.insert(name)
                directories[parent].subdirectories.insert(name)
                directories.append(TrackedDirectory(components: path.split(separator: UInt8(ascii: "/")), parent: parent))
                byPath[key] = directories.count - 1
                return directories.count - 1
            }
            // Index entries are sorted by path, so most share the previous entry's directory.
            var previous: (path: ArraySlice<UInt8>, directory: Int) = (entries.first?.path[..<0] ?? [], 0)
            for (position, entry) in entries.enumerated() {
                let slash = entry.path.lastIndex(of: UInt8(ascii: "/"))
                let path = entry.path[..<(slash ?? 0)]
                if path != previous.path { previous = (path, directory(path)) }
                let nameStart = slash.map { $0 + 1 } ?? 0
                directories[previous.directory].files.append((position, nameStart))
                directories[previous.directory].known.insert(PathKey(entry.path[nameStart...]))
                guard !entry.skipWorktree else { continue }
                var present = previous.directory
                while !directories[present].mustExist {
                    directories[present].mustExist = true
                    guard present != 0 else { break }
                    present = directories[present].parent
                }
            }
            // Byte order of the components: each directory's ancestors come before it.
            return directories.sorted { $0.components.lexicographicallyPrecedes($1.components) { $0.lexicographicallyPrecedes($1) } }
        }
    }

    /// An untracked name, relative to the work tree.
    private struct UntrackedName: Sendable {
        let path: [UInt8]
        let isDirectory: Bool
    }

    /// Checks every tracked file's stat data and, when `listing`, lists each directory; returns the names the index
    /// does not know, or nil when a file changed or a directory cannot be read. Directories are opened one
    /// component at a time relative to their parent, never through a symbolic link, and a large index is split over
    /// the cores, as git's parallel index preload is.
    private func walk(_ directories: [TrackedDirectory], of entries: [IndexEntryStat], root: Int32, _ settings: Settings,
                      listing: Bool) -> [UntrackedName]? {
        let total = directories.reduce(0) { $0 + $1.files.count }
        let parts = total < 2_000 ? 1 : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        // Contiguous runs of directories with about the same number of files each.
        var bounds = [0]
        var counted = 0
        for (position, directory) in directories.enumerated() {
            counted += directory.files.count
            if bounds.count < parts, counted >= total * bounds.count / parts { bounds.append(position + 1) }
        }
        while bounds.count <= parts { bounds.append(directories.count) }
        let runs = bounds, indexModified = index.identity.modifiedTime
        var results = [[UntrackedName]?](repeating: nil, count: parts)
        results.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                results[part] = Self.walk(directories[runs[part]..<runs[part + 1]], of: entries, root: root, settings,
                                          indexModified: indexModified, listing: listing)
            }
        }
        var names: [UntrackedName] = []
        for result in results {
            guard let result else { return nil }
            names += result
        }
        return names
    }

    private static func walk(_ directories: ArraySlice<TrackedDirectory>, of entries: [IndexEntryStat], root: Int32,
                             _ settings: Settings, indexModified: (seconds: UInt32, nanoseconds: UInt32),
                             listing: Bool) -> [UntrackedName]? {
        var opened = OpenDirectories(root: root)
        defer { opened.closeAll() }
        var names: [UntrackedName] = []
        var name: [UInt8] = []
        for directory in directories {
            guard let descriptor = opened.open(directory.components) else {
                // A directory of files outside the sparse checkout is absent, as it should be.
                if !directory.mustExist, opened.lastOpenFoundNothing { continue }
                return nil
            }
            for (position, nameStart) in directory.files {
                let entry = entries[position]
                if entry.assumeUnchanged { continue }  // git does not look at it
                name.removeAll(keepingCapacity: true)
                name.append(contentsOf: entry.path[nameStart...])
                name.append(0)
                if entry.skipWorktree {
                    // Outside the sparse checkout it must be absent: git compares a file that is there anyway.
                    guard Self.isAbsent(name, in: descriptor) else { return nil }
                    continue
                }
                guard Self.isUnchanged(entry, name: name, in: descriptor, settings, indexModified: indexModified) else {
                    return nil
                }
            }
            guard listing else { continue }
            guard let listed = Self.names(in: descriptor) else { return nil }
            let prefix = Array(directory.components.map(Array.init).joined(separator: [UInt8(ascii: "/")]))
            for (listedName, type) in listed {
                let key = PathKey(listedName[...])
                let known = directory.known.contains(key)
                if known, type != DT_DIR, type != DT_UNKNOWN { continue }  // a tracked file, checked above
                if directory.components.isEmpty, listedName.elementsEqual(".git".utf8) { continue }
                var isDirectory = type == DT_DIR
                if type == DT_UNKNOWN {
                    var info = stat()
                    guard (listedName + [0]).withUnsafeBufferPointer({ path in
                        path.withMemoryRebound(to: CChar.self) { fstatat(descriptor, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0 }
                    }) else { return nil }
                    isDirectory = info.st_mode & S_IFMT == S_IFDIR
                }
                if known {
                    if !isDirectory || directory.subdirectories.contains(key) { continue }
                    return nil  // a tracked file (one git does not look at) is now a directory: git lists it as untracked
                }
                names.append(UntrackedName(path: prefix.isEmpty ? listedName : prefix + [UInt8(ascii: "/")] + listedName,
                                           isDirectory: isDirectory))
            }
        }
        return names
    }

    /// The directories a walk in path order has open: the current one and its ancestors, each opened relative to
    /// its parent with `O_NOFOLLOW`, so a directory replaced by a symbolic link is not followed.
    private struct OpenDirectories {
        let root: Int32
        private var stack: [(component: ArraySlice<UInt8>, descriptor: Int32)] = []
        /// After `open` failed: whether the directory (or one of its ancestors) does not exist.
        private(set) var lastOpenFoundNothing = false

        init(root: Int32) { self.root = root }

        mutating func open(_ components: [ArraySlice<UInt8>]) -> Int32? {
            var shared = 0
            while shared < stack.count, shared < components.count, stack[shared].component == components[shared] { shared += 1 }
            while stack.count > shared { close(stack.removeLast().descriptor) }
            while stack.count < components.count {
                let parent = stack.last?.descriptor ?? root
                let component = components[stack.count]
                let descriptor = (Array(component) + [0]).withUnsafeBufferPointer { path in
                    path.withMemoryRebound(to: CChar.self) {
                        openat(parent, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    }
                }
                guard descriptor >= 0 else {
                    lastOpenFoundNothing = errno == ENOENT
                    return nil
                }
                stack.append((component, descriptor))
            }
            return stack.last?.descriptor ?? root
        }

        mutating func closeAll() {
            while let last = stack.popLast() { close(last.descriptor) }
        }
    }

    /// True when `name` (NUL-terminated) is not in `directory`.
    private static func isAbsent(_ name: [UInt8], in directory: Int32) -> Bool {
        var info = stat()
        let found = name.withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { fstatat(directory, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0 }
        }
        return !found && errno == ENOENT
    }

    /// git's test: the same kind of file with the same stat data, written before the index was. `name` is
    /// NUL-terminated and relative to `directory`.
    private static func isUnchanged(_ entry: IndexEntryStat, name: [UInt8], in directory: Int32, _ settings: Settings,
                                    indexModified: (seconds: UInt32, nanoseconds: UInt32)) -> Bool {
        var info = stat()
        let found = name.withUnsafeBufferPointer { path in
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

    private func isIgnored(_ path: [UInt8], isDirectory: Bool) -> Bool {
        var ignored: Int32 = 0
        let bytes = path + (isDirectory ? [UInt8(ascii: "/")] : []) + [0]
        let result = bytes.withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { git_ignore_path_is_ignored(&ignored, repository.pointer, $0.baseAddress!) }
        }
        git_error_clear()
        return result == 0 && ignored == 1
    }

    /// The names in an open directory with their `d_type`; nil when it cannot be listed. The descriptor stays open.
    private static func names(in directory: Int32) -> [([UInt8], UInt8)]? {
        let descriptor = openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
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

/// A path's bytes as a set member, hashed in one call (an array of bytes hashes byte by byte). A slice shares the
/// index entry's storage.
private struct PathKey: Hashable, Sendable {
    let bytes: ArraySlice<UInt8>
    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
