import Foundation
import GitKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The lock that lets one mutating modkit command run in a workspace at a time (`.modkit/lock`).
/// It records who holds it, and the processes it started that may outlive it (git transfers, release commands); a lock
/// whose process has died on this host is taken over once those children have ended too.
public final class WorkspaceLock: @unchecked Sendable {
    /// Who holds a lock, as written in the lock file.
    public struct Holder: Sendable, Equatable {
        public var pid: Int32
        public var command: String
        public var since: Date
        public var host: String
        /// Processes the holder started and had not seen end (`child: PID` lines). A `git fetch` outlives a holder
        /// killed with SIGKILL until its next write; taking the lock over before it ends would race it for the refs.
        public var children: [Int32] = []

        var text: String {
            "pid: \(pid)\ncommand: \(command)\nsince: \(ISO8601DateFormatter().string(from: since))\nhost: \(host)\n"
                + children.map { "child: \($0)\n" }.joined()
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
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if line[..<colon] == "child" {
                    if let child = Int32(value), child > 0 { children.append(child) }
                } else {
                    fields[String(line[..<colon])] = value
                }
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
    /// What the lock file says: this process, and the children it is running.
    private var holder: Holder
    private let mutex = NSLock()

    /// How long a takeover waits for the children a killed holder left running before it gives up.
    static let orphanWait: TimeInterval = 120

    /// Takes the lock of the workspace at `root` for `command`, or throws naming the holder.
    ///
    /// A new lock file is written in full beside the lock, `flock`ed, then `link`ed into place, so it never
    /// appears empty or unlocked. A stale lock is taken over only by the one process that gets its `flock`,
    /// and only when the holder it names is dead: two commands started together after a crash never both proceed.
    /// `waiting` is told, once, when the lock waits for processes a killed holder left running.
    public init(root: URL, command: String, waiting: ((String) -> Void)? = nil) throws {
        let directory = root.appendingPathComponent(".modkit", isDirectory: true)
        try PrivateState.prepare(directory)
        file = directory.appendingPathComponent("lock")
        let me = Holder(pid: getpid(), command: command, since: Date(), host: ProcessInfo.processInfo.hostName)
        var replaced: Holder?
        var contention = Contention(host: me.host, lockPath: file.path, waiting: waiting)
        while true {
            if let created = try LockFile.publish(file.path, contents: me.text) {
                descriptor = created
                break
            }
            switch LockFile.takeOver(file.path, from: { holder in
                holder.map { contention.isStale($0) && $0.children.allSatisfy { !WorkspaceLock.isAlive($0) } } ?? true
            }, contents: me.text) {
            case .vanished:
                continue
            case .taken(let taken, let holder):
                descriptor = taken
                replaced = holder ?? Holder(pid: 0, command: "unknown (lock file cut short)", since: Date(), host: me.host)
            case .held(let holder):
                try contention.pause(heldBy: holder)
                continue
            }
            break
        }
        replacedStaleHolder = replaced
        holder = me
        HeldLocks.shared.add(self)
        if GitProcesses.observer == nil {
            GitProcesses.observer = { pid, running in running ? WorkspaceLock.started(pid) : WorkspaceLock.ended(pid) }
        }
    }

    /// How long to wait for a lock another process holds: briefly for one taking over a dead holder's lock, up to
    /// `orphanWait` for the processes a killed holder left running; otherwise it is refused at once.
    private struct Contention {
        /// This host: a holder's process can be seen to be dead only here.
        let host: String
        let lockPath: String
        let waiting: ((String) -> Void)?
        private var waits = 0
        private var orphansSince: Date?

        init(host: String, lockPath: String, waiting: ((String) -> Void)?) {
            self.host = host
            self.lockPath = lockPath
            self.waiting = waiting
        }

        /// A holder on this host whose process is dead.
        func isStale(_ holder: Holder) -> Bool {
            holder.host == host && !WorkspaceLock.isAlive(holder.pid)
        }

        /// Sleeps before the next attempt, or throws naming whoever holds the lock.
        mutating func pause(heldBy holder: Holder?) throws {
            let orphans = holder.map { isStale($0) ? $0.children.filter(WorkspaceLock.isAlive) : [] } ?? []
            if let holder, !orphans.isEmpty {
                // The holder was killed while git (or a release command) it started still runs: wait for it.
                let since = orphansSince ?? Date()
                if orphansSince == nil {
                    orphansSince = since
                    waiting?("waiting for pid \(orphans.map(String.init).joined(separator: ", ")), left running by the " +
                             "interrupted '\(holder.command)' (pid \(holder.pid)), to end")
                }
                if Date().timeIntervalSince(since) < WorkspaceLock.orphanWait {
                    usleep(50_000)
                    return
                }
                throw ModKitError("the workspace lock is still in use by pid \(orphans.map(String.init).joined(separator: ", ")), " +
                                  "started by the interrupted '\(holder.command)' (pid \(holder.pid))",
                                  hint: "wait for it to end, or stop it (kill \(orphans.map(String.init).joined(separator: " "))), then run again")
            }
            // Held by a process that is taking over a dead holder's lock and has not rewritten it yet.
            let settling = holder.map(isStale) ?? true
            if settling, waits < 200 {
                waits += 1
                usleep(5_000)
                return
            }
            let who = holder.map { "pid \($0.pid) ('\($0.command)') since \(ISO8601DateFormatter().string(from: $0.since))" }
                ?? "a process that is writing it"
            throw ModKitError("another modkit command holds the workspace lock: \(who)",
                              hint: "wait for it to finish; if that process is gone, remove \(lockPath)")
        }
    }

    /// Records in every lock this process holds that it started `pid`, which may outlive it; `ended` when it is reaped.
    static func started(_ pid: Int32) {
        for lock in HeldLocks.shared.all { lock.update { $0.children.append(pid) } }
    }

    static func ended(_ pid: Int32) {
        for lock in HeldLocks.shared.all { lock.update { $0.children.removeAll { $0 == pid } } }
    }

    private func update(_ change: (inout Holder) -> Void) {
        mutex.withLock {
            guard !released else { return }
            change(&holder)
            LockFile.rewrite(descriptor, holder.text)
        }
    }

    /// Gives the lock back; also done when the lock is deallocated.
    public func release() {
        let first: Bool = mutex.withLock {
            defer { released = true }
            return !released
        }
        guard first else { return }
        HeldLocks.shared.remove(self)
        if LockFile.isSameFile(descriptor, file.path) { unlink(file.path) }
        close(descriptor)
    }

    deinit { release() }

    static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}

/// The workspace locks this process holds (usually one), so the children it starts are recorded in them.
private final class HeldLocks: @unchecked Sendable {
    static let shared = HeldLocks()
    private let mutex = NSLock()
    private var locks: [ObjectIdentifier: Weak] = [:]

    private struct Weak { weak var lock: WorkspaceLock? }

    var all: [WorkspaceLock] { mutex.withLock { locks.values.compactMap(\.lock) } }
    func add(_ lock: WorkspaceLock) { mutex.withLock { locks[ObjectIdentifier(lock)] = Weak(lock: lock) } }
    func remove(_ lock: WorkspaceLock) { mutex.withLock { _ = locks.removeValue(forKey: ObjectIdentifier(lock)) } }
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
