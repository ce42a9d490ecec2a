import Foundation
@testable import ModKit
import Testing

/// The worker pool: results in input order, whatever order the items ran in.
struct ParallelTests {
    /// Records the order in which items started.
    final class Starts: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var names: [String] = []
        func add(_ name: String) { lock.withLock { names.append(name) } }
    }

    @Test func heaviestItemsStartFirstAndResultsKeepTheInputOrder() {
        let items = ["small", "huge", "none", "big", "tie-a", "tie-b"]
        let weights: [String: UInt64] = ["small": 10, "huge": 900, "none": 0, "big": 500, "tie-a": 50, "tie-b": 50]
        let starts = Starts()
        let results = Parallel.map(items, jobs: 1, heaviestFirst: { weights[$0] ?? 0 }) { item -> String in
            starts.add(item)
            return item.uppercased()
        }
        #expect(results == ["SMALL", "HUGE", "NONE", "BIG", "TIE-A", "TIE-B"])
        #expect(starts.names == ["huge", "big", "tie-a", "tie-b", "small", "none"])
    }

    @Test func withoutWeightsItemsStartInInputOrder() {
        let starts = Starts()
        let results = Parallel.map(Array(0..<20), jobs: 1) { item -> Int in
            starts.add(String(item))
            return item * 2
        }
        #expect(results == (0..<20).map { $0 * 2 })
        #expect(starts.names == (0..<20).map(String.init))
    }

    @Test func manyWorkersStillReturnEveryResultInPlace() {
        let results = Parallel.map(Array(0..<500), jobs: 8, heaviestFirst: { UInt64($0 % 7) }) { $0 + 1 }
        #expect(results == (1...500).map { $0 })
    }
}
