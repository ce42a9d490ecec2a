import Foundation
import Testing
@testable import ModKit

@Suite struct GuardRunTests {
    func workspace(_ root: URL, core: String) -> [GuardModule] {
        [
            GuardModule(name: "Feature", directory: root.appendingPathComponent("Feature"), version: version("2.0.0"), dependencies: ["Core", "Alamofire"]),
            GuardModule(name: "Core", directory: root.appendingPathComponent("Core"), version: version(core)),
            GuardModule(name: "Legacy", directory: root.appendingPathComponent("Legacy"), version: version("0.9.0"), languages: [.c], dependencies: ["Core"]),
        ]
    }

    func modificationDates(_ root: URL) throws -> [String: Date] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".h") || $0.hasSuffix(".swift") }
        return try Dictionary(uniqueKeysWithValues: paths.map { path in
            (path, try #require(FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.modificationDate] as? Date))
        })
    }

    @Test func checkFailsAfterABumpUntilGuardRunsAndASecondRunWritesNothing() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }

        let first = GuardRun.run(workspace(root, core: "1.0.1"), generatedDir: "Generated", mode: .write)
        #expect(first.map(\.written.count) == [2, 2, 1])
        #expect(first.allSatisfy { $0.outcome != .failed })
        #expect(GuardRun.run(workspace(root, core: "1.0.1"), generatedDir: "Generated", mode: .check).allSatisfy { $0.outcome == .upToDate })

        // Core moves to 1.0.2: Core's files and every dependent's are stale; checking writes nothing.
        let before = try modificationDates(root)
        let check = GuardRun.run(workspace(root, core: "1.0.2"), generatedDir: "Generated", mode: .check)
        #expect(check.map(\.outcome) == [.updated, .updated, .updated])
        #expect(check.flatMap { $0.plan?.changes.map(\.url.lastPathComponent) ?? [] }
                == ["FeatureVersion.h", "FeatureVersion.swift", "CoreVersion.h", "CoreVersion.swift", "LegacyVersion.h"])
        let after = try modificationDates(root)
        #expect(after == before)

        let rewrite = GuardRun.run(workspace(root, core: "1.0.2"), generatedDir: "Generated", mode: .write)
        #expect(rewrite.map(\.written.count) == [2, 2, 1])
        #expect(GuardRun.run(workspace(root, core: "1.0.2"), generatedDir: "Generated", mode: .check).allSatisfy { $0.outcome == .upToDate })

        // Back-date everything; a second run must leave every file as it is.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for path in try modificationDates(root).keys {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root.appendingPathComponent(path).path)
        }
        let again = GuardRun.run(workspace(root, core: "1.0.2"), generatedDir: "Generated", mode: .write)
        #expect(again.allSatisfy { $0.written.isEmpty && $0.outcome != .failed })
        let dates = try modificationDates(root)
        #expect(!dates.isEmpty && dates.values.allSatisfy { $0 == old })
    }

    /// The wait into the next second comes once, after the last Swift guard of the run, however many units it wrote;
    /// never when only C headers, or nothing, changed, and never for a check.
    @Test func aRunThatWritesSwiftGuardsSettlesOnceAfterTheLastOne() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var settled: [Int] = []
        func run(core: String, mode: GuardMode, modules: [GuardModule]? = nil) -> [ModuleResult<GuardFacts>] {
            GuardRun.run(modules ?? workspace(root, core: core), generatedDir: "Generated", mode: mode, root: root) {
                // Every file of the run is on disk when it waits.
                settled.append((try? FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix("Version.swift") }.count) ?? -1)
            }
        }
        #expect(run(core: "1.0.1", mode: .write).map(\.written.count) == [2, 2, 1])
        #expect(settled == [2])
        #expect(run(core: "1.0.2", mode: .check).allSatisfy { $0.outcome == .updated })
        #expect(run(core: "1.0.1", mode: .write).allSatisfy { $0.written.isEmpty })
        #expect(settled == [2], "a check, or a run with nothing to write, waited")
        // Only Legacy's C header changes: no Swift guard, no wait.
        var modules = workspace(root, core: "1.0.1")
        modules[2].version = version("0.9.1")
        #expect(run(core: "1.0.1", mode: .write, modules: modules).map(\.written.count) == [0, 0, 1])
        #expect(settled == [2])
        #expect(run(core: "1.0.2", mode: .write).map(\.written.count) == [2, 2, 1])
        #expect(settled == [2, 2])
    }

    @Test func specsRequireCurrentWorkspaceVersionsAndReportUnknownOnes() throws {
        let root = URL(fileURLWithPath: "/w")
        var modules = workspace(root, core: "1.0.1")
        let feature = try GuardRun.spec(for: modules[0], in: modules).get()
        #expect(feature.dependencies == [GuardDependency(name: "Core", version: version("1.0.1"))])
        let legacy = try GuardRun.spec(for: modules[2], in: modules).get()
        #expect(legacy.dependencies.map(\.name) == ["Core"])

        modules[1].version = nil
        let outcomes = GuardRun.run(modules, selected: ["Feature", "Core"], generatedDir: "Generated", mode: .check)
        #expect(outcomes.map(\.name) == ["Feature", "Core"])
        #expect(outcomes.map(\.detail) == ["Feature depends on Core, whose version is not known", "no version known for Core"])
        #expect(outcomes.allSatisfy { $0.needsAttention })
    }
}
