import Foundation
@testable import ModKit
import Testing

/// How many transfers run at once against one server, and how far apart their connections start.
struct TransferGatesTests {
    @Test func eachTransportHasItsOwnCapPerServerNeverAboveTheWorkers() {
        let limits = TransferLimits.forSync(jobs: 48, local: 4, environment: [:])
        #expect(limits.perHost(for: "https://github.com/acme/Net.git") == 48)
        #expect(limits.perHost(for: "HTTP://git.example.com/Net.git") == 48)
        #expect(limits.perHost(for: "git://git.example.com/Net.git") == 24)
        #expect(limits.perHost(for: "ssh://git@git.example.com/Net.git") == 8)
        #expect(limits.perHost(for: "git@github.com:acme/Net.git") == 8)
        let few = TransferLimits.forSync(jobs: 6, local: 4, environment: [:])
        #expect(few.perHost(for: "https://github.com/acme/Net.git") == 6)
        #expect(few.perHost(for: "git@github.com:acme/Net.git") == 6)
    }

    @Test func theEnvironmentOverridesTheCapAndTheSpacingOfEveryTransport() {
        let limits = TransferLimits.forSync(jobs: 48, local: 4, environment: [
            "MODKIT_CONNECTIONS_PER_HOST": "12", "MODKIT_CONNECTION_SPACING_MS": "0.5",
        ])
        #expect(limits.perHost(for: "https://github.com/acme/Net.git") == 12)
        #expect(limits.perHost(for: "git://git.example.com/Net.git") == 12)
        #expect(limits.spacing(for: "git://git.example.com/Net.git") == .microseconds(500))
        let defaults = TransferLimits.forSync(jobs: 48, local: 4, environment: [
            "MODKIT_CONNECTIONS_PER_HOST": "none", "MODKIT_CONNECTION_SPACING_MS": "nan",
        ])
        #expect(defaults.perHost(for: "git://git.example.com/Net.git") == 24)
        #expect(defaults.spacing(for: "git://git.example.com/Net.git") == .milliseconds(4))
        #expect(defaults.spacing(for: "https://git.example.com/Net.git") == .milliseconds(1))
    }

    /// Records when each transfer started and how many ran at once.
    final class Starts: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var times: [ContinuousClock.Instant] = []
        private var running = 0
        private(set) var mostAtOnce = 0
        func begin() { lock.withLock { times.append(.now); running += 1; mostAtOnce = max(mostAtOnce, running) } }
        func end() { lock.withLock { running -= 1 } }
    }

    @Test func transfersToOneServerStartSpacedAndAtMostTheCapAtOnce() {
        let gates = TransferGates(TransferLimits(jobs: 16, perHostOverride: 3, spacingOverride: 15, local: 2))
        let starts = Starts()
        let before = ContinuousClock.now
        _ = Parallel.map(Array(0..<8), jobs: 8) { index in
            gates.transfer(from: "git://git.example.com/Mod\(index).git") {
                starts.begin()
                Thread.sleep(forTimeInterval: 0.03)
                starts.end()
            }
        }
        let times = starts.times.sorted()
        #expect(times.count == 8)
        // The n-th connection may start n spacings after the first could: load only makes it later.
        for (index, time) in times.enumerated() {
            #expect(time - before >= .milliseconds(15) * index)
        }
        #expect(starts.mostAtOnce <= 3)
    }

    @Test func workOnThisMachineIsNotSpacedButBoundedByTheLocalSlots() {
        let gates = TransferGates(TransferLimits(jobs: 16, perHostOverride: 3, spacingOverride: 1_000, local: 2))
        let starts = Starts()
        _ = Parallel.map(Array(0..<6), jobs: 6) { index in
            gates.transfer(from: "file:///srv/git/Mod\(index).git") {
                starts.begin()
                Thread.sleep(forTimeInterval: 0.01)
                starts.end()
            }
        }
        #expect(starts.mostAtOnce <= 2)
        // Spaced, each start would come a second after the one before.
        let times = starts.times.sorted()
        #expect(times.count == 6 && times[5] - times[0] < .seconds(5))
    }

    @Test func theServerKeyHoldsTransportHostAndPort() {
        #expect(TransferGates.host(of: "https://user@GitHub.com/acme/Net.git") == "github.com")
        #expect(TransferGates.host(of: "git://git.example.com:9419/Net.git") == "git.example.com:9419")
        #expect(TransferGates.host(of: "git@github.com:acme/Net.git") == "github.com")
        #expect(TransferGates.host(of: "file:///srv/git/Net.git") == nil)
        #expect(TransferGates.host(of: "/srv/git/Net.git") == nil)
    }
}
