import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How modkit replaces a file: the new bytes go to a temporary file beside it, which is renamed over the old one. The
/// path then holds its old or its new content, never a mix, and a hard-linked copy elsewhere keeps the old bytes (a new
/// inode). `AtomicFile` (modkit's own files), the work-tree moves, the move journal and known_hosts write through it.
/// Three renames do more than replace one file's bytes and stay where they are: `MoveIndex` swaps in an index under
/// git's own `index.lock`, `InvisibleWrite` stages in the git directory so `git status` never sees a half-made file,
/// and `DevelopJournal` renames a whole folder into place.
public enum AtomicWrite {
    /// Why a replacement failed: the file concerned and the `errno`; nothing was replaced.
    public struct Failure: Error, Sendable {
        public var path: String
        public var code: Int32
        public var message: String { String(cString: strerror(code)) }
    }

    /// Writes `data` to `temporary` (replacing a leftover there), with permission bits `mode` (less the umask, unless
    /// `exactMode`), synced to disk when `sync`, then renames it to `path`. On failure the temporary file is removed.
    public static func replace(_ path: String, with data: Data, temporary: String, mode: mode_t, exactMode: Bool = false,
                               sync: Bool) throws(Failure) {
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure(path: path, code: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += count
            }
        }
        if failure == 0, exactMode, fchmod(descriptor, mode) != 0 { failure = errno }
        if failure == 0, sync, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure != 0 else { return }
        unlink(temporary)
        throw Failure(path: path, code: failure)
    }
}
