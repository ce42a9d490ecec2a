import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The file operations behind `WorkspaceLock`: create-with-contents via link(2), and takeover via flock(2).
enum LockFile {
    enum TakeOver {
        /// The lock file disappeared or was replaced meanwhile: try again.
        case vanished
        /// This process now holds the lock file (open, flocked, rewritten); the holder it named before.
        case taken(Int32, WorkspaceLock.Holder?)
        /// Someone else holds it.
        case held(WorkspaceLock.Holder?)
    }

    /// Creates `path` holding `contents`, already flocked; nil when it exists. Returns the open descriptor.
    static func publish(_ path: String, contents: String) throws -> Int32? {
        let temp = "\(path).\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create", temp) }
        defer { unlink(temp) }
        guard writeAll(descriptor, contents), flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw failure("write", temp)
        }
        if link(temp, path) == 0 { return descriptor }
        let code = errno
        close(descriptor)
        if code == EEXIST { return nil }
        // A file system without hard links: fall back to an exclusive create, flocked right after.
        guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP else { throw failure("create", path, code) }
        let direct = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard direct >= 0 else {
            if errno == EEXIST { return nil }
            throw failure("create", path)
        }
        _ = flock(direct, LOCK_EX | LOCK_NB)
        _ = writeAll(direct, contents)
        return direct
    }

    /// Takes the lock file over when nobody holds its flock and `isStale` says its recorded holder is gone.
    static func takeOver(_ path: String, from isStale: (WorkspaceLock.Holder?) -> Bool, contents: String) -> TakeOver {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return .vanished }
        let holder = WorkspaceLock.Holder(parsing: read(descriptor))
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return .held(holder)
        }
        guard isSameFile(descriptor, path) else {
            close(descriptor)
            return .vanished
        }
        // Read again under the flock: this is what the takeover replaces.
        let current = WorkspaceLock.Holder(parsing: read(descriptor))
        guard isStale(current) else {
            close(descriptor)  // a live holder from a modkit that did not flock
            return .held(current)
        }
        guard writeAll(descriptor, contents), ftruncate(descriptor, off_t(contents.utf8.count)) == 0 else {
            close(descriptor)
            return .held(current)
        }
        return .taken(descriptor, current)
    }

    /// Replaces the held lock file's contents with `text` (written first, then cut to length, so a reader sees the
    /// holder's lines at all times).
    static func rewrite(_ descriptor: Int32, _ text: String) {
        if writeAll(descriptor, text) { _ = ftruncate(descriptor, off_t(text.utf8.count)) }
    }

    /// Whether `descriptor` is the file currently at `path`.
    static func isSameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        return fstat(descriptor, &open) == 0 && stat(path, &named) == 0 && open.st_ino == named.st_ino && open.st_dev == named.st_dev
    }

    private static func read(_ descriptor: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
    }

    private static func writeAll(_ descriptor: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count
    }

    private static func failure(_ action: String, _ path: String, _ code: Int32 = errno) -> ModKitError {
        ModKitError("cannot \(action) the workspace lock \(path): \(String(cString: strerror(code)))",
                    hint: "check that you can write to the workspace's .modkit folder")
    }
}
