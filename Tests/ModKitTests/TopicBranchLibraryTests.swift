import Foundation
import Testing
@testable import ModKit

/// `TopicBranch` and `TopicBranches` called directly, as start, branches, push, abandon and prune call them, on a
/// `LibraryWorkspace`: what a branch holds decides whether it may be deleted.
@Suite struct TopicBranchLibraryTests {
    @Test func startPushAbandonAndPruneKeepEveryUnpushedCommit() throws {
        let fixture = try LibraryWorkspace()
        let workspace = try fixture.load()
        let modules = workspace.manifest.modules
        let core = "\(fixture.workspace)/Modules/Core", net = "\(fixture.workspace)/Modules/Net"

        let started = TopicBranch.start("feature/login", in: modules, workspace: workspace, jobs: 2)
        #expect(started.map(\.outcome) == [.created, .created], "\(started)")
        #expect(try runGit(["rev-parse", "--abbrev-ref", "HEAD"], in: core) == "feature/login")
        #expect(TopicBranch.start("feature/login", in: modules, workspace: workspace, jobs: 2).map(\.outcome) == [.upToDate, .upToDate])

        // Core gets a commit on the branch; Net's branch stays at the manifest revision.
        let work = try fixture.commit("Core", "login\n")
        let listed = TopicBranches.list(modules, workspace: workspace, jobs: 2)
        let coreBranch = try #require(listed.first { $0.module == "Core" }?.branches.first { $0.branch == "feature/login" })
        #expect(coreBranch.current && coreBranch.ahead == 1 && coreBranch.unpushed == 1 && !coreBranch.merged, "\(coreBranch)")

        // Abandon keeps the branch that holds a commit pushed nowhere, and deletes the empty one (leaving it first).
        let abandoned = Dictionary(uniqueKeysWithValues: TopicBranches.abandon("feature/login", modules: modules, workspace: workspace, jobs: 2)
            .map { ($0.name ?? ".", $0) })
        #expect(abandoned["Core"]?.outcome == .kept, "\(String(describing: abandoned["Core"]))")
        #expect(abandoned["Net"]?.outcome == .deleted, "\(String(describing: abandoned["Net"]))")
        #expect(try runGit(["rev-parse", "feature/login"], in: core) == work)
        #expect(try runGit(["branch", "--list", "feature/login"], in: net).isEmpty)
        #expect(try runGit(["rev-parse", "--abbrev-ref", "HEAD"], in: net) == "main")

        // Pushed, the branch is no longer the only copy of its commit.
        let pushed = TopicBranches.push("feature/login", modules: modules, workspace: workspace, jobs: 2)
        #expect(pushed.first { $0.name == "Core" }?.outcome == .pushed, "\(pushed)")
        #expect(try runGit(["rev-parse", "feature/login"], in: "\(fixture.root)/remotes/Core.git") == work)

        // Merged into the manifest revision and left, prune deletes it.
        try runGit(["checkout", "-q", "main"], in: core)
        try runGit(["merge", "-q", "--ff-only", "feature/login"], in: core)
        try runGit(["push", "-q", "origin", "main"], in: core)
        try runGit(["fetch", "-q", "origin"], in: core)
        let pruned = TopicBranches.prune(modules, workspace: workspace, jobs: 2)
        #expect(pruned.map(\.outcome) == [.deleted], "\(pruned)")
        #expect(try runGit(["branch", "--list", "feature/login"], in: core).isEmpty)
        #expect(try fixture.head("Core") == work)
    }
}
