import Foundation
import GitKit
@testable import ModKit
import Testing

/// How many transfers run at once against one server, and how far apart their connections start.
struct TransferGatesTests {
    @Test func eachTransportHasItsOwnCapPerServerNeverAboveTheWorkers() {
        let limits = TransferLimits.forSync(jobs: TransferLimits.defaultJobs, local: 4, environment: [:])
        #expect(limits.perHost(for: "https://github.com/acme/Net.git") == 48)
        #expect(limits.perHost(for: "HTTP://git.example.com/Net.git") == 48)
        #expect(limits.perHost(for: "git://git.example.com/Net.git") == 64)
        #expect(limits.perHost(for: "ssh://git@git.example.com/Net.git") == 8)
        // What holds git daemon's process through a whole conversation stays under its 32; elsewhere the same cap.
        #expect(limits.holdingPerHost(for: "git://git.example.com/Net.git") == 16)
        #expect(limits.holdingPerHost(for: "https://github.com/acme/Net.git") == 48)
        #expect(limits.holdingPerHost(for: "git@github.com:acme/Net.git") == 8)
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
        #expect(limits.holdingPerHost(for: "git://git.example.com/Net.git") == 12)
        #expect(limits.spacing(for: "git://git.example.com/Net.git") == .microseconds(500))
        let defaults = TransferLimits.forSync(jobs: 48, local: 4, environment: [
            "MODKIT_CONNECTIONS_PER_HOST": "none", "MODKIT_CONNECTION_SPACING_MS": "nan",
        ])
        #expect(defaults.perHost(for: "git://git.example.com/Net.git") == 48, "never above the workers")
        #expect(defaults.spacing(for: "git://git.example.com/Net.git") == .milliseconds(2))
        #expect(defaults.spacing(for: "https://git.example.com/Net.git") == .milliseconds(1))
    }

    /// Records when each transfer started and how many ran at once.
    final class Starts: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var times: [ContinuousClock.Instant] = []
        /// What started, in the order it did.
        private(set) var names: [String] = []
        private var running = 0
        private(set) var mostAtOnce = 0
        func begin(_ name: String = "") {
            lock.withLock { times.append(.now); names.append(name); running += 1; mostAtOnce = max(mostAtOnce, running) }
        }
        func end() { lock.withLock { running -= 1 } }
    }

    /// Connections to one server open spaced, where they open: a transfer holding the server's process waits for
    /// its turn when its connection opens (`ConnectionTurn.take()`, which libgit2's connections and git processes
    /// call), and a listing of modkit's own paces right before its connection; at most the cap at once.
    @Test(arguments: [false, true])
    func connectionsToOneServerStartSpacedAndAtMostTheCapAtOnce(holding: Bool) {
        let gates = TransferGates(TransferLimits(jobs: 16, perHostOverride: 3, spacingOverride: 15, local: 2))
        let starts = Starts()
        let before = ContinuousClock.now
        _ = Parallel.map(Array(0..<8), jobs: 8) { index in
            let url = "git://git.example.com/Mod\(index).git"
            gates.transfer(from: url) {
                let connect = {
                    starts.begin()
                    Thread.sleep(forTimeInterval: 0.03)
                    starts.end()
                }
                if holding {
                    gates.holdingServer(of: url) {
                        ConnectionTurn.take()
                        connect()
                    }
                } else {
                    gates.paceConnection(to: url)
                    connect()
                }
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

    /// A connection that holds the server's process takes the next turn before the listings that asked earlier, and
    /// each kind keeps the order it asked in.
    @Test func whatHoldsTheServersProcessOpensBeforeTheListingsWaitingAlready() {
        let turns = ConnectionTurns(spacing: .milliseconds(300))
        let starts = Starts()
        let group = DispatchGroup()
        func arrive(_ name: String, holding: Bool) {
            group.enter()
            Thread.detachNewThread {
                turns.wait(holdingServer: holding)
                starts.begin(name)
                group.leave()
            }
        }
        let before = ContinuousClock.now
        arrive("first", holding: false)  // the first turn comes at once
        while starts.names.isEmpty { usleep(200) }
        // each of the others arrives once the one before waits in line
        for (index, (name, holding)) in [("listing 1", false), ("listing 2", false), ("holding 1", true), ("holding 2", true)].enumerated() {
            arrive(name, holding: holding)
            while turns.waiting < index + 1 { usleep(200) }
        }
        group.wait()
        #expect(starts.names == ["first", "holding 1", "holding 2", "listing 1", "listing 2"])
        // The n-th may start n turns after the first could: load only makes it later.
        for (index, time) in starts.times.sorted().enumerated() { #expect(time - before >= .milliseconds(300) * index) }
    }

    /// Within the transfers' slots, the parts that hold a server's process have fewer slots of their own, per server.
    @Test func whatHoldsTheServersProcessHasFewerSlotsWithinTheTransfers() {
        let gates = TransferGates(TransferLimits(jobs: 48, spacingOverride: 0, local: 2))
        let transfers = Starts(), holding = Starts(), other = Starts()
        _ = Parallel.map(Array(0..<96), jobs: 96) { index in
            let url = index % 2 == 0 ? "git://git.example.com/Mod\(index).git" : "git://other.example.com/Mod\(index).git"
            gates.transfer(from: url) {
                transfers.begin()
                defer { transfers.end() }
                gates.holdingServer(of: url) {
                    (index % 2 == 0 ? holding : other).begin()
                    Thread.sleep(forTimeInterval: 0.02)
                    (index % 2 == 0 ? holding : other).end()
                }
            }
        }
        #expect(holding.times.count == 48 && other.times.count == 48)
        #expect(holding.mostAtOnce <= 16 && other.mostAtOnce <= 16)
        #expect(transfers.mostAtOnce > 16, "the transfers' slots are not the holding ones")
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
