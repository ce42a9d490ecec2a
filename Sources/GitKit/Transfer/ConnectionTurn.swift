import Foundation

/// A connection's turn to open, owed by a transfer until it really connects. A sync spaces its connections to one
/// server (`TransferGates`: git daemon's listen queue holds 5); spaced where a transfer takes its slot, they bunched
/// again on a busy machine between the slot and the connection, and a syn dropped at a full queue costs a second.
///
/// `owing` runs a transfer with its turn owed; the first connection it opens waits for the turn right before it
/// connects: libgit2's plain connections (`SocketStreams`: git://, http(s), ssh) and a git process (`take()` before it
/// starts). Where libgit2's connections are not modkit's (libgit2 1.7 and later, `modkit.fastPaths` off globally), the
/// turn is waited for at once, before the transfer. A turn not taken (a transfer that opened no connection) lapses.
public enum ConnectionTurn {
    private static let key = "modkit.connectionTurn"

    private final class Turn {
        let wait: () -> Void
        init(_ wait: @escaping () -> Void) { self.wait = wait }
    }

    /// Runs `body` with `wait` (which returns when the connection may open) owed to its first connection.
    public static func owing<T>(_ wait: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        guard SocketStreams.installed else {
            wait()
            return try body()
        }
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[key]
        dictionary[key] = Turn(wait)
        defer { dictionary[key] = outer }
        return try body()
    }

    /// Waits for the turn owed on this thread, if any, and settles it.
    public static func take() {
        claim()?()
    }

    /// The turn owed on this thread, settled: the caller waits for it (and again before each further connection it
    /// opens for the same purpose, such as a second connection for an answer that does not come).
    static func claim() -> (() -> Void)? {
        let dictionary = Thread.current.threadDictionary
        guard let turn = dictionary[key] as? Turn else { return nil }
        dictionary.removeObject(forKey: key)
        return turn.wait
    }
}
