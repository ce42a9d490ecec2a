import Foundation
import Testing
@testable import ModKit

/// `ReleasePlan` and `ReleaseRunner` called directly, as `modkit release` calls them, on a `LibraryWorkspace` where Core
/// has a pushed `feat:` commit since its 1.0.0 tag and Net has none.
@Suite struct ReleaseRunnerTests {
    func prepared() throws -> (LibraryWorkspace, ReleasePlan) {
        let fixture = try LibraryWorkspace()
        _ = try fixture.commit("Core", "feat: a new API\n")
        try runGit(["push", "-q", "origin", "main"], in: "\(fixture.workspace)/Modules/Core")
        let plan = try ReleasePlan.make(name: "2024.1", request: ReleasePlan.Request(), workspace: try fixture.load())
        return (fixture, plan)
    }

    @Test func thePlanReleasesOnlyTheChangedModuleWithTheBumpItsCommitsAsk() throws {
        let (_, plan) = try prepared()
        #expect(plan.released.map(\.name) == ["Core"])
        #expect(plan.released.first?.current == "1.0.0" && plan.released.first?.next == "1.1.0")
    }

    @Test func aDryRunPassesEveryStepAndChangesNothing() throws {
        let (fixture, plan) = try prepared()
        let core = "\(fixture.workspace)/Modules/Core"
        let head = try fixture.head("Core")
        var steps: [StepOutcome] = []
        let passed = try ReleaseRunner.run(plan, state: ReleaseState(plan: plan, request: ReleasePlan.Request()), options: .init(dryRun: true),
                                           workspace: try fixture.load()) { steps.append($0) }
        #expect(passed, "\(steps.map { "\($0.step.name) \($0.outcome): \($0.lines) \($0.diagnostics)" })")
        #expect(steps.map(\.step.name) == plan.steps.map(\.name))
        #expect(try fixture.head("Core") == head)
        #expect(try runGit(["status", "--porcelain"], in: core).isEmpty)
        #expect(try runGit(["tag", "--list"], in: core) == "1.0.0")
        #expect(try String(contentsOfFile: "\(core)/Core.podspec", encoding: .utf8).contains("'1.0.0'"))
    }

    @Test func aRunBumpsCommitsTagsAndPushes() throws {
        let (fixture, plan) = try prepared()
        let core = "\(fixture.workspace)/Modules/Core"
        var steps: [StepOutcome] = []
        let passed = try ReleaseRunner.run(plan, state: ReleaseState(plan: plan, request: ReleasePlan.Request()), options: .init(),
                                           workspace: try fixture.load()) { steps.append($0) }
        #expect(passed, "\(steps.map { "\($0.step.name) \($0.outcome): \($0.lines) \($0.diagnostics)" })")
        #expect(try String(contentsOfFile: "\(core)/Core.podspec", encoding: .utf8).contains("'1.1.0'"))
        let head = try fixture.head("Core")
        #expect(try runGit(["rev-parse", "1.1.0^{commit}"], in: core) == head)
        #expect(try runGit(["rev-parse", "1.1.0^{commit}"], in: "\(fixture.root)/remotes/Core.git") == head, "the tag was pushed")
        #expect(try runGit(["rev-parse", "main"], in: "\(fixture.root)/remotes/Core.git") == head, "the release commit was pushed")
        #expect(try runGit(["status", "--porcelain"], in: core).isEmpty)
        #expect(try runGit(["tag", "--list", "2024.1"], in: fixture.workspace) == "2024.1", "the snapshot tag")
        #expect(try String(contentsOfFile: "\(fixture.workspace)/Modules/Net/Net.podspec", encoding: .utf8).contains("'1.0.0'"), "Net is not released")
        #expect(try runGit(["tag", "--list", "1.*"], in: "\(fixture.workspace)/Modules/Net") == "1.0.0")
    }
}
