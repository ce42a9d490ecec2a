import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The lock that lets one mutating modkit command run in a workspace at a time (`.modkit/lock`).
/// It records who holds it; a lock whose process has died on this host is taken over.
public final class WorkspaceLock: @unchecked Sendable {
    /// Who holds a lock, as written in the lock file.
    public struct Holder: Sendable, Equatable {
        public var pid: Int32
        public var command: String
        public var since: Date
        public var host: String

        var text: String {
            "pid: \(pid)\ncommand: \(command)\nsince: \(ISO8601DateFormatter().string(from: since))\nhost: \(host)\n"
        }

        init(pid: Int32, command: String, since: Date, host: String) {
            self.pid = pid
            self.command = command
            self.since = since
            self.host = host
        }

        init?(parsing text: String) {
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard let pid = fields["pid"].flatMap({ Int32($0) }) else { return nil }
            self.pid = pid
            command = fields["command"] ?? "modkit"
            since = fields["since"].flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date(timeIntervalSince1970: 0)
            host = fields["host"] ?? ""
        }
    }

    public let file: URL
    /// A stale lock from a dead process that this lock replaced, so the caller can say so.
    public let replacedStaleHolder: Holder?
    private var released = false

    /// Takes the lock of the workspace at `root` for `command`, or throws naming the holder.
    public init(root: URL, command: String) throws {
        let directory = root.appendingPathComponent(".modkit", isDirectory: true)
        try PrivateState.prepare(directory)
        file = directory.appendingPathComponent("lock")
        let me = Holder(pid: getpid(), command: command, since: Date(), host: ProcessInfo.processInfo.hostName)
        var replaced: Holder?
        while true {
            if WorkspaceLock.create(file, contents: me.text) { break }
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                continue  // removed between our attempt and the read: try again
            }
            guard let holder = Holder(parsing: text) else {
                // A lock file cut short by a crash while being written: nobody can hold it.
                try? FileManager.default.removeItem(at: file)
                continue
            }
            if holder.host == me.host && !WorkspaceLock.isAlive(holder.pid) {
                try? FileManager.default.removeItem(at: file)
                replaced = holder
                continue
            }
            let since = ISO8601DateFormatter().string(from: holder.since)
            throw ModKitError(
                "another modkit command holds the workspace lock: pid \(holder.pid) ('\(holder.command)') since \(since)",
                hint: "wait for it to finish; if that process is gone, remove \(file.path)"
            )
        }
        replacedStaleHolder = replaced
    }

    /// Gives the lock back; also done when the lock is deallocated.
    public func release() {
        guard !released else { return }
        released = true
        try? FileManager.default.removeItem(at: file)
    }

    deinit { release() }

    /// Creates the lock file only if it does not exist (O_EXCL), with its whole contents in one write.
    private static func create(_ file: URL, contents: String) -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        _ = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
        return true
    }

    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}

/// modkit's private folder `.modkit/`, with a `.gitignore` that keeps the lock and release state out of git.
public enum PrivateState {
    public static func prepare(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ignore = directory.appendingPathComponent(".gitignore")
        // It ignores itself too, so a command that writes it leaves the manifest repository clean.
        let former = "# modkit's private state; snapshots/ is committed.\n/lock\n/release/\n"
        let existing = FileManager.default.contents(atPath: ignore.path)
        if existing == nil || existing == Data(former.utf8) {
            try AtomicFile.write(Data("# modkit's private state (this file included); snapshots/ is committed.\n/lock\n/release/\n/.gitignore\n".utf8), to: ignore)
        }
    }
}
