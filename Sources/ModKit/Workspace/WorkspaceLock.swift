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
    /// The open lock file, `flock`ed for as long as this process holds the lock (the kernel drops it when the process dies).
    private var descriptor: Int32
    private var released = false

    /// Takes the lock of the workspace at `root` for `command`, or throws naming the holder.
    ///
    /// A new lock file is written in full beside the lock, `flock`ed, then `link`ed into place, so it never
    /// appears empty or unlocked. A stale lock is taken over only by the one process that gets its `flock`,
    /// and only when the holder it names is dead: two commands started together after a crash never both proceed.
    public init(root: URL, command: String) throws {
        let directory = root.appendingPathComponent(".modkit", isDirectory: true)
        try PrivateState.prepare(directory)
        file = directory.appendingPathComponent("lock")
        let me = Holder(pid: getpid(), command: command, since: Date(), host: ProcessInfo.processInfo.hostName)
        var replaced: Holder?
        var waits = 0
        while true {
            if let created = try LockFile.publish(file.path, contents: me.text) {
                descriptor = created
                break
            }
            switch LockFile.takeOver(file.path, from: { holder in
                holder.map { $0.host == me.host && !WorkspaceLock.isAlive($0.pid) } ?? true
            }, contents: me.text) {
            case .vanished:
                continue
            case .taken(let taken, let holder):
                descriptor = taken
                replaced = holder ?? Holder(pid: 0, command: "unknown (lock file cut short)", since: Date(), host: me.host)
            case .held(let holder):
                // Held by a process that is taking over a dead holder's lock and has not rewritten it yet.
                let settling = holder.map { $0.host == me.host && !WorkspaceLock.isAlive($0.pid) } ?? true
                if settling, waits < 200 {
                    waits += 1
                    usleep(5_000)
                    continue
                }
                let who = holder.map { "pid \($0.pid) ('\($0.command)') since \(ISO8601DateFormatter().string(from: $0.since))" }
                    ?? "a process that is writing it"
                throw ModKitError("another modkit command holds the workspace lock: \(who)",
                                  hint: "wait for it to finish; if that process is gone, remove \(file.path)")
            }
            break
        }
        replacedStaleHolder = replaced
    }

    /// Gives the lock back; also done when the lock is deallocated.
    public func release() {
        guard !released else { return }
        released = true
        if LockFile.isSameFile(descriptor, file.path) { unlink(file.path) }
        close(descriptor)
    }

    deinit { release() }

    static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}

/// modkit's private folder `.modkit/`, with a `.gitignore` that keeps the lock and release state out of git.
public enum PrivateState {
    public static func prepare(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ignore = directory.appendingPathComponent(".gitignore")
        // It ignores itself too, so a command that writes it leaves the manifest repository clean.
        // `/lock*` covers the lock's staging copies (`lock.<pid>-<time>`) that a killed command may leave.
        let current = "# modkit's private state (this file included); snapshots/ is committed.\n/lock*\n/release/\n/placed\n/.gitignore\n"
        let former = ["# modkit's private state (this file included); snapshots/ is committed.\n/lock\n/release/\n/placed\n/.gitignore\n",
                      "# modkit's private state; snapshots/ is committed.\n/lock\n/release/\n",
                      "# modkit's private state (this file included); snapshots/ is committed.\n/lock\n/release/\n/.gitignore\n",
                      "# modkit's private state; snapshots/ is committed.\n/lock\n/release/\n/placed\n"]
        let existing = FileManager.default.contents(atPath: ignore.path)
        if existing == nil || former.contains(where: { existing == Data($0.utf8) }) {
            try AtomicFile.write(Data(current.utf8), to: ignore)
        }
    }
}
