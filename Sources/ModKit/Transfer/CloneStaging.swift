import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Hidden staging directories beside a module's path (`.<name>.modkit-clone-<pid>-<n>`) that clones are
/// written into and renamed from, so a kill at any moment leaves nothing at the module's path.
enum CloneStaging {
    static let marker = ".modkit-clone-"

    /// Removes leftovers of earlier interrupted clones of this path and returns a fresh staging path.
    static func prepare(for directory: URL) throws -> URL {
        let parent = directory.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let prefix = ".\(directory.lastPathComponent)\(marker)"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where entry.hasPrefix(prefix) {
            let pid = entry.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) }
            if let pid, pid != getpid(), kill(pid, 0) == 0 { continue }  // another live sync is cloning it
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry))
        }
        return parent.appendingPathComponent("\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Moves a finished clone to the module's path (replacing an empty directory there).
    static func publish(_ staging: URL, to directory: URL) throws {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.path), entries.isEmpty {
            try FileManager.default.removeItem(at: directory)
        }
        guard rename(staging.path, directory.path) == 0 else {
            throw ModKitError("could not move the new clone into \(directory.path): \(String(cString: strerror(errno)))")
        }
    }

    static func discard(_ staging: URL) {
        try? FileManager.default.removeItem(at: staging)
    }
}
