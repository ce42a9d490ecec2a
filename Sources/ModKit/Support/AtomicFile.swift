import Foundation
import GitKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file write that leaves either the old or the new contents, never a mix: temp file in the same directory, fsync, rename.
public enum AtomicFile {
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "cannot write \(path): \(message)" }
    }

    /// Removes the temporary files `write` left beside `url` when its process was killed before the rename.
    public static func removeAbandonedTemporaries(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).modkit-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Replaces the file at `url` (following a symlink to its target) with `data`, keeping the existing file's permission bits; a new file gets 0644 less the umask.
    /// A temporary file that an earlier run killed mid-write left beside the target goes first: it is never the user's to find.
    public static func write(_ data: Data, to url: URL) throws {
        let target = url.resolvingSymlinksInPath().path
        removeAbandonedTemporaries(of: URL(fileURLWithPath: target))
        let directory = RelativePath.parent(of: target)
        let name = RelativePath.lastComponent(of: target)
        var info = stat()
        let existingMode: mode_t? = stat(target, &info) == 0 ? info.st_mode & 0o7777 : nil
        let mode = existingMode ?? 0o644

        let temp = (directory.isEmpty ? "." : directory) + "/.\(name).modkit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try AtomicWrite.replace(target, with: data, temporary: temp, mode: mode, exactMode: existingMode != nil, sync: true)
        } catch {
            throw failure(error.path, errno: error.code)
        }
    }

    private static func failure(_ path: String, errno code: Int32 = errno) -> WriteError {
        WriteError(path: path, message: String(cString: strerror(code)))
    }
}
