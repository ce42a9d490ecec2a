import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// What one `lstat` says of a path. Foundation's attributes and resource values also look up the owner's and group's
/// names (reading /etc/passwd and /etc/group for every file), which a sync weighing each module before it starts has
/// no use for.
struct FileStatus {
    let isRegularFile: Bool
    let isDirectory: Bool
    let size: UInt64
    let modified: Date
    /// The owner's user id.
    let owner: uid_t

    /// nil when `path` does not exist or cannot be read; a symbolic link is described, not followed.
    init?(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        size = UInt64(max(0, info.st_size))
        owner = info.st_uid
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        modified = Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
    }

    /// The newest regular file below `folder` (at any depth, not following links), with its modification time; nil
    /// when there is none.
    static func newestFile(under folder: String) -> (path: String, date: Date)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var newest: (path: String, date: Date)?
        for name in names {
            let path = folder + "/" + name
            guard let status = FileStatus(path) else { continue }
            let candidate: (path: String, date: Date)? = status.isDirectory ? newestFile(under: path) : status.isRegularFile ? (path, status.modified) : nil
            if let candidate, newest.map({ candidate.date > $0.date }) ?? true { newest = candidate }
        }
        return newest
    }
}
