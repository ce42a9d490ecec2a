import Foundation
import GitKit

/// How much of a sync runs at once: transfers that wait on a network many at a time but at most a few against one
/// server, and work that keeps this machine busy (transfers from a remote on this machine, writing work trees) at
/// most `local` at a time.
public struct TransferLimits: Sendable, Equatable {
    /// Workers of the sync: no more transfers than this run at once.
    public var jobs: Int
    /// Connections to one server, whatever its transport (`MODKIT_CONNECTIONS_PER_HOST`); nil: `defaultPerHost(for:)`.
    public var perHostOverride: Int?
    /// Milliseconds between two new connections to one server (`MODKIT_CONNECTION_SPACING_MS`); nil:
    /// `spacing(for:)`.
    public var spacingOverride: Double?
    public var local: Int

    public init(jobs: Int, perHostOverride: Int? = nil, spacingOverride: Double? = nil, local: Int) {
        self.jobs = max(1, jobs)
        self.perHostOverride = perHostOverride.map { max(1, $0) }
        self.spacingOverride = spacingOverride.map { min(max(0, $0), 1_000) }
        self.local = max(1, min(local, self.jobs))
    }

    /// Workers of a sync without `-j`: waiting on round trips costs no CPU, so far more than the cores
    /// (docs/transfers.md: 100 modules at 50 ms round trip); as many as the most one server takes (git://).
    public static let defaultJobs = 64

    /// Connections to the server of `url` at once: the override, or what that kind of server takes without refusing
    /// or stalling; never more than the workers.
    /// `sharedSSHChannels`: the channels a sync's shared ssh connections to that server carry (`SSHConnectionShare`),
    /// which stand in for the default.
    public func perHost(for url: String, sharedSSHChannels: Int? = nil) -> Int {
        min(jobs, perHostOverride ?? sharedSSHChannels ?? Self.defaultPerHost(for: url))
    }

    /// Of those, how many may hold a server's process through a whole conversation (a listing by libgit2 and the
    /// download over its connection, a fetch or clone by git): the override, or what that kind of server takes; never
    /// more than `perHost(for:)`.
    public func holdingPerHost(for url: String, sharedSSHChannels: Int? = nil) -> Int {
        min(perHost(for: url, sharedSSHChannels: sharedSSHChannels),
            perHostOverride ?? sharedSSHChannels ?? Self.defaultHoldingPerHost(for: url))
    }

    /// What a server of each transport takes at once (docs/transfers.md, measured at 50 ms round trip):
    /// - http(s): 48. A web server keeps thousands of connections; each no-op costs one request.
    /// - git://: 64. modkit's own listing ends git daemon's process with its answer (`GitDaemonListing`), so a
    ///   listing holds one of the daemon's processes for no round trip; what holds one longer has a cap of its own
    ///   (`defaultHoldingPerHost`). With connections 2 ms apart (`spacing`), a server 50 ms away needs some 55
    ///   listings waiting for their answers to use every turn, beside the transfers holding its processes (48 left
    ///   turns unused while 10 of them were held: docs/transfers.md, stop 38).
    /// - ssh: 8. sshd starts dropping connections at random once 10 have not finished their handshake
    ///   (`MaxStartups 10:30:100`), and a handshake at internet distance takes several round trips. Over a sync's
    ///   shared connections, as many as they carry channels (`SSHConnectionShare`, up to 32).
    /// - anything else: 16.
    public static func defaultPerHost(for url: String) -> Int {
        let lowered = url.lowercased()
        if lowered.hasPrefix("git://") { return 64 }
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return 48 }
        if GitKit.isSSHURL(url) { return sshPerHost }
        return 16
    }

    /// Connections to one ssh server at once, each with its own handshake.
    public static let sshPerHost = 8

    /// What holds a server's process through a whole conversation, at once: over git:// 16. git daemon serves at most
    /// 32 (`--max-connections`), counting a connection until it has reaped its process; past that it kills one
    /// connection from the same address and stops accepting for a second. The listings running beside hold some of
    /// the 32 too, each for the time the daemon takes to answer (through the bench's proxy about 17 at once, which
    /// delivers a request 25 ms after the connection). Elsewhere as many as `defaultPerHost`.
    public static func defaultHoldingPerHost(for url: String) -> Int {
        url.lowercased().hasPrefix("git://") ? 16 : defaultPerHost(for: url)
    }

    /// How far apart new connections to the server of `url` start: the override, or what its transport needs.
    /// A server's queue of connections it has not yet accepted is short, and a connection that finds it full loses
    /// its syn and waits a whole second for the retransmission. git daemon listens with a queue of 5 and forks a
    /// process for each connection it accepts: 2 ms (1 ms lost syns through the bench's proxy, docs/transfers.md).
    /// Web and ssh servers queue hundreds: 1 ms.
    public func spacing(for url: String) -> Duration {
        let milliseconds = spacingOverride ?? (url.lowercased().hasPrefix("git://") ? 2 : 1)
        return .microseconds(Int64(milliseconds * 1_000))
    }

    /// The limits of a sync of `jobs` workers: per host each transport's default (or `MODKIT_CONNECTIONS_PER_HOST`),
    /// never above `jobs`, with connections spaced as `spacing(for:)` says (or `MODKIT_CONNECTION_SPACING_MS`);
    /// `local` as given.
    public static func forSync(jobs: Int, local: Int,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> TransferLimits {
        let perHost = environment["MODKIT_CONNECTIONS_PER_HOST"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let spacing = environment["MODKIT_CONNECTION_SPACING_MS"].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
        return TransferLimits(jobs: jobs, perHostOverride: perHost, spacingOverride: spacing, local: local)
    }
}

/// The slots `TransferLimits` allows, shared by every worker of one sync. New connections to one server start
/// `TransferLimits.spacing(for:)` apart: sixteen connections opened in the same millisecond to git daemon lose about
/// half their syns, and each of those costs a second (docs/transfers.md).
final class TransferGates: @unchecked Sendable {
    private let limits: TransferLimits
    /// The sync's shared ssh connections, which raise the slots of the servers they reach.
    private let sshShare: SSHConnectionShare?
    private let condition = NSCondition()
    private var busy: [String: Int] = [:]
    /// Each server's connections waiting for their turn to open.
    private var turns: [String: ConnectionTurns] = [:]
    /// The key of work on this machine (no host name is empty).
    private static let localKey = ""

    init(_ limits: TransferLimits, sshShare: SSHConnectionShare? = nil) {
        self.limits = limits
        self.sshShare = sshShare
    }

    /// Runs a transfer from `url` in a slot of its host, or in a local slot when `url` is on this machine. The slot
    /// itself is not paced: its connections are, where they open (`holdingServer`, `paceConnection`).
    func transfer<T>(from url: String, _ body: () throws -> T) rethrows -> T {
        guard let server = Self.server(of: url) else { return try local(body) }
        return try withSlot(server, limit: limits.perHost(for: url, sharedSSHChannels: sshShare?.channels(to: url)), body)
    }

    /// Runs, within a transfer's slot, the part that holds a server's process through a whole conversation
    /// (`FetchOptions.holdingServer`) in one of the fewer slots its host has for that. Its first connection waits for
    /// its turn (`paceConnection`) right before it opens (`ConnectionTurn`). Runs `body` at once for a url on this
    /// machine.
    func holdingServer<T>(of url: String, _ body: () throws -> T) rethrows -> T {
        guard let server = Self.server(of: url) else { return try body() }
        let limit = limits.holdingPerHost(for: url, sharedSSHChannels: sshShare?.channels(to: url))
        return try withSlot("holding " + server, limit: limit) {
            try ConnectionTurn.owing({ self.paceConnection(to: url, holdingServer: true) }, body)
        }
    }

    /// Waits for a connection's turn to open to the server of `url`, right before it opens (a listing of modkit's own:
    /// `FetchOptions.pacingConnection`; a transfer holding the server: `ConnectionTurn`): `TransferLimits.spacing(for:)`
    /// after the last connection to that server, in the order they asked, those that hold the server's process
    /// (`holdingServer`) first. Spaced where a slot is taken, connections bunched again on a busy machine, as threads
    /// reached their connections late; taking turns only in the order asked, a transfer that had set up its connection
    /// more slowly than the listings beside it waited behind all of them, though it takes longest.
    func paceConnection(to url: String, holdingServer: Bool = false) {
        guard let server = Self.server(of: url) else { return }
        condition.lock()
        let turns = self.turns[server] ?? ConnectionTurns(spacing: limits.spacing(for: url))
        self.turns[server] = turns
        condition.unlock()
        turns.wait(holdingServer: holdingServer)
    }

    /// Runs work that keeps this machine busy in a local slot.
    func local<T>(_ body: () throws -> T) rethrows -> T { try withSlot(Self.localKey, limit: limits.local, body) }

    /// Waits for one of `limit` slots of `key`, then runs `body`.
    private func withSlot<T>(_ key: String, limit: Int, _ body: () throws -> T) rethrows -> T {
        condition.lock()
        while busy[key, default: 0] >= limit { condition.wait() }
        busy[key, default: 0] += 1
        condition.unlock()
        defer {
            condition.lock()
            busy[key, default: 1] -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// `git://host:9418/x` → `git://host:9418`: the key of one server, per transport and host (and port); nil for a url
    /// on this machine.
    private static func server(of url: String) -> String? {
        host(of: url).map { scheme(of: url) + $0 }
    }

    /// `https://host/x` → `https://`; `ssh://` for scp-like `host:x`: one server per transport and host.
    private static func scheme(of url: String) -> String {
        guard let range = url.range(of: "://") else { return "ssh://" }
        return url[..<range.upperBound].lowercased()
    }

    /// `git://host:9418/x`, `https://user@host/x`, `user@host:x` → `host` (with its port: another port is another
    /// server); nil for a path or `file://` url.
    static func host(of url: String) -> String? {
        if let scheme = url.range(of: "://") {
            guard !url.lowercased().hasPrefix("file:") else { return nil }
            let authority = url[scheme.upperBound...].prefix { $0 != "/" }
            return String(authority.split(separator: "@").last ?? authority).lowercased()
        }
        // scp-like `[user@]host:path`: a colon before any slash
        guard let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/"), !url.hasPrefix("/") else { return nil }
        let authority = url[..<colon]
        return String(authority.split(separator: "@").last ?? authority).lowercased()
    }
}

/// The connections waiting to open to one server, let through one at a time, `spacing` apart: those that hold the
/// server's process first, then in the order they came. The thread at the head of the line sleeps until the next turn
/// and lets through whoever is first then; the others sleep until they are let through or become the head.
final class ConnectionTurns: @unchecked Sendable {
    private final class Waiter {
        let holdingServer: Bool
        let wake = DispatchSemaphore(value: 0)
        /// Set before `wake` when the waiter's turn came; unset, `wake` makes it the one that keeps time.
        var admitted = false
        init(holdingServer: Bool) { self.holdingServer = holdingServer }
    }

    private let spacing: Duration
    private let lock = NSLock()
    private var line: [Waiter] = []
    private var keepingTime = false
    private var nextTurn: ContinuousClock.Instant?

    init(spacing: Duration) { self.spacing = spacing }

    /// How many wait for their turn now.
    var waiting: Int { lock.withLock { line.count } }

    /// Returns when the caller's connection may open.
    func wait(holdingServer: Bool) {
        let me = Waiter(holdingServer: holdingServer)
        lock.lock()
        line.insert(me, at: holdingServer ? line.firstIndex { !$0.holdingServer } ?? line.count : line.count)
        var keepsTime = !keepingTime
        keepingTime = true
        lock.unlock()
        while true {
            if !keepsTime {
                me.wake.wait()
                if me.admitted { return }
                keepsTime = true
            }
            lock.lock()
            let now = ContinuousClock.now
            if let due = nextTurn, now < due {
                lock.unlock()
                Thread.sleep(forTimeInterval: now.duration(to: due) / .seconds(1))
                continue
            }
            nextTurn = now + spacing
            let first = line.removeFirst()
            if first === me {
                if let next = line.first { next.wake.signal() } else { keepingTime = false }
                lock.unlock()
                return
            }
            first.admitted = true
            first.wake.signal()
            lock.unlock()
        }
    }
}
