import Foundation
import GitKit
@testable import ModKit
import Testing

/// A transfer sshd turned away before its banner is tried again; every other failure is not.
struct DroppedConnectionTests {
    final class Attempts: @unchecked Sendable { var count = 0 }

    /// The words libgit2 (libssh2) and git's ssh print when sshd closes a connection past `MaxStartups`, as seen
    /// through the latency proxy (docs/transfers.md).
    static let dropped: [any Error] = [
        GitError(code: .other(-1), errorClass: "ssh", message: "failed to start SSH session: Failed getting banner", function: "git_remote_fetch"),
        ModKitError("git fetch failed (exit 128): kex_exchange_identification: Connection closed by remote host\nfatal: Could not read from remote repository."),
    ]

    @Test(arguments: 0..<2)
    func aDroppedConnectionIsTriedAgainUntilItGetsThrough(_ index: Int) throws {
        let attempts = Attempts()
        let value = try DroppedConnection.retrying(attempts: 3, pause: 0.001) { () throws -> String in
            attempts.count += 1
            if attempts.count < 3 { throw Self.dropped[index] }
            return "fetched"
        }
        #expect(value == "fetched")
        #expect(attempts.count == 3)
    }

    @Test func afterTheLastAttemptTheDropIsReported() {
        let attempts = Attempts()
        #expect(throws: GitError.self) {
            try DroppedConnection.retrying(attempts: 3, pause: 0.001) { () throws -> Int in
                attempts.count += 1
                throw Self.dropped[0]
            }
        }
        #expect(attempts.count == 3)
    }

    @Test func authenticationAndOtherFailuresAreNotRetried() {
        let others: [any Error] = [
            GitError(code: .auth, errorClass: "ssh", message: "authentication failed for ssh://git@example.com/Net.git", function: "git_remote_fetch"),
            GitError(code: .other(-1), errorClass: "ssh", message: "remote rejected authentication: Failure", function: "git_remote_fetch"),
            ModKitError("git fetch failed (exit 128): git@example.com: Permission denied (publickey)."),
            GitError(code: .notFound, errorClass: "net", message: "repository not found", function: "git_remote_fetch"),
        ]
        for error in others {
            let attempts = Attempts()
            #expect(throws: (any Error).self) {
                try DroppedConnection.retrying(attempts: 3, pause: 0.001) { () throws -> Int in
                    attempts.count += 1
                    throw error
                }
            }
            #expect(attempts.count == 1, "\(error)")
        }
    }
}
