import Foundation
import GitKit

/// How much of a sync runs at once: transfers that wait on a network many at a time but at most `perHost` against
/// one server (git daemon refuses a 33rd connection by default), and work that keeps this machine busy (transfers
/// from a remote on this machine, writing work trees) at most `local` at a time.
public struct TransferLimits: Sendable, Equatable {
    public var perHost: Int
    public var local: Int

    public init(perHost: Int, local: Int) {
        self.perHost = max(1, perHost)
        self.local = max(1, local)
    }

    /// Workers of a sync without `-j`: waiting on round trips costs no CPU, so far more than the cores
    /// (docs/transfers.md: 100 modules at 50 ms round trip).
    public static let defaultJobs = 32
    /// Connections to one host without `-j` (`MODKIT_CONNECTIONS_PER_HOST` sets another).
    public static let defaultPerHost = 16

    /// The limits of a sync of `jobs` workers: per host the default (or `MODKIT_CONNECTIONS_PER_HOST`), never above
    /// `jobs`; `local` as given.
    public static func forSync(jobs: Int, local: Int,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> TransferLimits {
        let perHost = environment["MODKIT_CONNECTIONS_PER_HOST"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? defaultPerHost
        return TransferLimits(perHost: min(perHost, jobs), local: min(local, jobs))
    }
}

/// The slots `TransferLimits` allows, shared by every worker of one sync.
final class TransferGates: @unchecked Sendable {
    private let limits: TransferLimits
    private let condition = NSCondition()
    private var busy: [String: Int] = [:]
    /// The key of work on this machine (no host name is empty).
    private static let localKey = ""

    init(_ limits: TransferLimits) { self.limits = limits }

    /// Runs a transfer from `url` in a slot of its host, or in a local slot when `url` is on this machine.
    func transfer<T>(from url: String, _ body: () throws -> T) rethrows -> T {
        try withSlot(Self.host(of: url) ?? Self.localKey, body)
    }

    /// Runs work that keeps this machine busy in a local slot.
    func local<T>(_ body: () throws -> T) rethrows -> T { try withSlot(Self.localKey, body) }

    private func withSlot<T>(_ key: String, _ body: () throws -> T) rethrows -> T {
        let limit = key == Self.localKey ? limits.local : limits.perHost
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
