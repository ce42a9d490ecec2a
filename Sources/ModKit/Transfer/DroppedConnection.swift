import Foundation
import GitKit

/// A transfer the server turned away before it began. sshd closes connections past its `MaxStartups` (10 unfinished
/// handshakes by default, counting every client) before it sends its banner. Nothing was transferred, so the transfer
/// is tried again after a pause: at most `attempts` times in all, each pause longer and partly random, so that
/// workers turned away together do not come back together (docs/transfers.md).
enum DroppedConnection {
    /// Whether `error` says the server closed the connection before its greeting: libssh2's words (libgit2's ssh) and
    /// OpenSSH's (git's ssh). An authentication or host-key failure comes later in the handshake and is never retried.
    static func isDropped(_ error: any Error) -> Bool {
        let text: String
        switch error {
        case let git as GitError: text = git.message
        case let modkit as ModKitError: text = modkit.message
        default: return false
        }
        return text.contains("Failed getting banner") || text.contains("kex_exchange_identification")
    }

    /// `body`, again after a pause of `pause` × the attempt × 1–2 when the server dropped its connection.
    static func retrying<T>(attempts: Int = 3, pause: TimeInterval = 0.25, _ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch let error where attempt < attempts && isDropped(error) {
                Thread.sleep(forTimeInterval: pause * Double(attempt) * Double.random(in: 1...2))
                attempt += 1
            }
        }
    }
}
