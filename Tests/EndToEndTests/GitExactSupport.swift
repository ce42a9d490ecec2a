import Foundation
import GitKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs programs with an explicit environment and keeps their stdout as bytes: file names that are not UTF-8 and
/// UTF-16 file contents must reach the differential tests unchanged.
enum Exec {
    struct Result {
        var status: Int32
        var out: Data
        var err: String
        var text: String { String(decoding: out, as: UTF8.self) }
        /// stdout split into lines, without trimming (porcelain status lines start with a space).
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String]) throws -> Result {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-exec-\(UUID().uuidString)")
        let outFile = scratch.appendingPathExtension("out"), errFile = scratch.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        let ended = ProcessExit(process)
        try process.run()
        ended.wait()
        return Result(status: process.terminationStatus, out: try Data(contentsOf: outFile),
                      err: String(decoding: try Data(contentsOf: errFile), as: UTF8.self))
    }

    /// Runs git and fails with its stderr unless it exits 0.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> Result {
        let result = try run("/usr/bin/env", ["git"] + arguments, in: directory, environment: environment)
        guard result.status == 0 else {
            throw SandboxError("git \(arguments.joined(separator: " ")) in \(directory.path) failed (\(result.status)): \(result.err)")
        }
        return result
    }
}

/// One work-tree entry as `lstat` sees it: what git's checkout is responsible for.
enum TreeEntry: Equatable {
    case file(mode: UInt32, bytes: [UInt8])
    case link(target: [UInt8])
    case directory(mode: UInt32)
}

/// File-system access by raw byte paths (no String round trip, so no Unicode normalisation and no lossy decoding).
enum RawFS {
    static func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    static func join(_ parent: [UInt8], _ child: [UInt8]) -> [UInt8] { parent.isEmpty ? child : parent + [0x2F] + child }

    static func makeParents(of path: [UInt8]) throws {
        guard let slash = path.lastIndex(of: 0x2F), slash > 0 else { return }
        let parent = Array(path[..<slash])
        var info = stat()
        if lstat(cString(parent), &info) == 0 { return }
        try makeParents(of: parent)
        guard mkdir(cString(parent), 0o755) == 0 || errno == EEXIST else { throw failure("mkdir", parent) }
    }

    /// Writes `bytes` as a new file at `path` (whatever was there is removed first), mode 0755 or 0644.
    static func writeFile(_ bytes: [UInt8], to path: [UInt8], executable: Bool = false) throws {
        try makeParents(of: path)
        remove(path)
        let fd = open(cString(path), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw failure("write", path) }
            offset += written
        }
        try setExecutable(path, executable)
    }

    static func setExecutable(_ path: [UInt8], _ executable: Bool) throws {
        guard chmod(cString(path), executable ? 0o755 : 0o644) == 0 else { throw failure("chmod", path) }
    }

    static func makeSymlink(_ target: [UInt8], at path: [UInt8]) throws {
        try makeParents(of: path)
        remove(path)
        guard symlink(cString(target), cString(path)) == 0 else { throw failure("symlink", path) }
    }

    /// Removes a file, link or directory tree; nothing there is fine.
    static func remove(_ path: [UInt8]) {
        var info = stat()
        guard lstat(cString(path), &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? names(in: path)) ?? [] { remove(join(path, name)) }
            rmdir(cString(path))
        } else {
            unlink(cString(path))
        }
    }

    static func names(in directory: [UInt8]) throws -> [[UInt8]] {
        guard let handle = opendir(cString(directory)) else { throw failure("opendir", directory) }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    static func readFile(_ path: [UInt8]) throws -> [UInt8] {
        let fd = open(cString(path), O_RDONLY)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw failure("read", path) }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    static func lstatInfo(_ path: [UInt8]) -> stat? {
        var info = stat()
        return lstat(cString(path), &info) == 0 ? info : nil
    }

    /// Seconds of the modification and status-change times, as the index records them.
    static func times(_ info: stat) -> (mtime: Int, ctime: Int) {
        #if canImport(Darwin)
        return (Int(info.st_mtimespec.tv_sec), Int(info.st_ctimespec.tv_sec))
        #else
        return (Int(info.st_mtim.tv_sec), Int(info.st_ctim.tv_sec))
        #endif
    }

    /// Every entry below `root` but the top-level `.git`, keyed by its path relative to `root`.
    static func tree(_ root: [UInt8]) throws -> [[UInt8]: TreeEntry] {
        var entries: [[UInt8]: TreeEntry] = [:]
        try walk(root, skippingTopLevelGit: true) { path, entry, _ in entries[path] = entry }
        return entries
    }

    /// Visits every entry below `root` (depth first, parents before children) with its path relative to `root`, what it
    /// holds and its `lstat` data; the top-level `.git` is left out when told.
    static func walk(_ root: [UInt8], skippingTopLevelGit: Bool,
                     _ visit: (_ path: [UInt8], _ entry: TreeEntry, _ info: stat) throws -> Void) throws {
        func walk(_ relative: [UInt8]) throws {
            for name in try names(in: join(root, relative)) {
                if skippingTopLevelGit && relative.isEmpty && name == Array(".git".utf8) { continue }
                let path = join(relative, name), full = join(root, path)
                guard let info = lstatInfo(full) else { throw failure("lstat", full) }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    try visit(path, .directory(mode: UInt32(info.st_mode & 0o7777)), info)
                    try walk(path)
                case S_IFLNK:
                    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                    let count = readlink(cString(full), &buffer, buffer.count - 1)
                    guard count >= 0 else { throw failure("readlink", full) }
                    try visit(path, .link(target: buffer[..<count].map { UInt8(bitPattern: $0) }), info)
                default:
                    try visit(path, .file(mode: UInt32(info.st_mode & 0o7777), bytes: try readFile(full)), info)
                }
            }
        }
        try walk([])
    }

    static func failure(_ call: String, _ path: [UInt8]) -> SandboxError {
        SandboxError("\(call) \(show(path)): \(String(cString: strerror(errno)))")
    }

    /// A byte string for a failure message: printable ASCII as is, everything else as \xNN.
    static func show(_ bytes: [UInt8]) -> String {
        bytes.map { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined()
    }

    /// Undoes git's C-style quoting of a path (`core.quotePath`): `"caf\303\251"` → the raw bytes.
    static func unquote(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.first == 0x22, bytes.last == 0x22 else { return bytes }
        var result: [UInt8] = []
        var index = 1
        while index < bytes.count - 1 {
            let byte = bytes[index]
            guard byte == 0x5C, index + 1 < bytes.count - 1 else { result.append(byte); index += 1; continue }
            let next = bytes[index + 1]
            if (0x30...0x37).contains(next), index + 3 < bytes.count {
                result.append(UInt8(bytes[(index + 1)...(index + 3)].reduce(0) { $0 * 8 + Int($1 - 0x30) } & 0xFF))
                index += 4
                continue
            }
            let escapes: [UInt8: UInt8] = [0x6E: 0x0A, 0x74: 0x09, 0x72: 0x0D, 0x61: 0x07, 0x62: 0x08, 0x66: 0x0C, 0x76: 0x0B]
            result.append(escapes[next] ?? next)
            index += 2
        }
        return result
    }
}
