@testable import ModKit
import Testing

@Suite struct PathNestingTests {
    /// The definition, pair by pair: what the fast search must agree with.
    private func bruteForce(_ paths: [String]) -> [Int?] {
        paths.indices.map { later in
            paths.indices.first { earlier in
                earlier < later && (RelativePath.isInside(paths[later], paths[earlier]) || RelativePath.isInside(paths[earlier], paths[later]))
            }
        }
    }

    @Test func namedCases() {
        let paths = ["Libs/Core", "Libs/Network", "Libs/Core/Sub", "Apps", "Libs", "LibsExtra", "Libs/Network", "Apps/A"]
        #expect(PathNesting.earliestCollisions(paths) == [nil, nil, 0, nil, 0, nil, 1, 3])
        #expect(PathNesting.earliestCollisions(["A", "", "B"]) == [nil, 0, 1], "the workspace root contains every module")
        #expect(PathNesting.earliestCollisions([]) == [])
    }

    @Test func agreesWithEveryPairCompared() {
        var generator = SeededGenerator(seed: 7)
        let parts = ["a", "b", "ab", "a.b", "é", "c-d"]
        for _ in 0..<300 {
            let count = Int.random(in: 0...30, using: &generator)
            let paths = (0..<count).map { _ -> String in
                if Int.random(in: 0..<40, using: &generator) == 0 { return "" }
                return (0..<Int.random(in: 1...3, using: &generator)).map { _ in parts.randomElement(using: &generator)! }
                    .joined(separator: "/")
            }
            #expect(PathNesting.earliestCollisions(paths) == bruteForce(paths), "\(paths)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failure is reproducible.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
