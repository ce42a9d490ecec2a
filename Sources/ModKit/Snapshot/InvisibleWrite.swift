import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Writes into a manifest repository's work tree so that nothing half-made ever shows in `git status`: the file or
/// folder is made in the git directory (which git never lists), then renamed into place in one step.
enum InvisibleWrite {
    /// Replaces `target` with `data` (mode 0644).
    static func file(_ data: Data, to target: URL, gitDir: String) throws {
        let temp = stagingPath(gitDir)
        try writeNew(data, at: temp)
        guard rename(temp, target.path) == 0 else {
            unlink(temp)
            try AtomicFile.write(data, to: target)  // another file system: the usual temp file beside the target
            return
        }
    }

    /// Creates folder `target` holding one file `name` with `data`, unless the folder exists already.
    static func directory(_ target: URL, holding name: String, _ data: Data, gitDir: String) throws {
        let temp = stagingPath(gitDir)
        guard mkdir(temp, 0o755) == 0 else { throw AtomicFile.WriteError(path: temp, message: String(cString: strerror(errno))) }
        defer { try? FileManager.default.removeItem(atPath: temp) }
        try writeNew(data, at: temp + "/" + name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        if rename(temp, target.path) != 0, !FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try AtomicFile.write(data, to: target.appendingPathComponent(name))
        }
    }

    private static func stagingPath(_ gitDir: String) -> String {
        var directory = gitDir
        while directory.hasSuffix("/") { directory.removeLast() }
        return "\(directory)/modkit-staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    private static func writeNew(_ data: Data, at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw AtomicFile.WriteError(path: path, message: String(cString: strerror(errno))) }
        var ok = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) } == data.count
        ok = ok && fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        close(descriptor)
        if !ok {
            unlink(path)
            throw AtomicFile.WriteError(path: path, message: "write failed")
        }
    }
}
