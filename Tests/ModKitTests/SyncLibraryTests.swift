import Foundation
import Testing
@testable import ModKit

/// `Syncer.sync` called directly, as `modkit sync` calls it: the module moves (`ModuleSyncer`) on real repositories.
@Suite struct SyncLibraryTests {
    func sync(_ fixture: LibraryWorkspace) throws -> [String: ModuleResult<SyncFacts>] {
        let workspace = try fixture.load()
        let results = Syncer.sync(workspace.manifest.modules, in: workspace, jobs: 2)
        return Dictionary(uniqueKeysWithValues: results.map { ($0.label, $0) })
    }

    @Test func clonesTheMissingFastForwardsTheBehindAndThenHasNothingToDo() throws {
        let fixture = try LibraryWorkspace()
        try FileManager.default.removeItem(atPath: "\(fixture.workspace)/Modules/Net")
        let published = try fixture.publish("Core", file: "API.md", "v2\n")

        let first = try sync(fixture)
        #expect(first["Net"]?.outcome == .cloned, "\(String(describing: first["Net"]))")
        #expect(first["Core"]?.outcome == .updated, "\(String(describing: first["Core"]))")
        #expect(try fixture.head("Core") == published)
        #expect(try String(contentsOfFile: "\(fixture.workspace)/Modules/Core/API.md", encoding: .utf8) == "v2\n")
        #expect(try runGit(["status", "--porcelain"], in: "\(fixture.workspace)/Modules/Core").isEmpty, "git agrees it is clean")
        #expect(try runGit(["rev-parse", "--abbrev-ref", "HEAD"], in: "\(fixture.workspace)/Modules/Net") == "main")

        let second = try sync(fixture)
        #expect(second.values.allSatisfy { $0.outcome == .upToDate }, "\(second)")
    }

    @Test func localChangesToAFileTheUpdateTouchesAreKept() throws {
        let fixture = try LibraryWorkspace()
        let before = try fixture.head("Core")
        _ = try fixture.publish("Core", file: "Core.podspec", "Pod::Spec.new do |s|\n  s.name = 'Core'\n  s.version = '1.1.0'\nend\n")
        try "mine\n".write(toFile: "\(fixture.workspace)/Modules/Core/Core.podspec", atomically: true, encoding: .utf8)

        let results = try sync(fixture)
        #expect(results["Core"]?.outcome == .kept, "\(String(describing: results["Core"]))")
        #expect(results["Core"]?.needsAttention == true)
        #expect(try fixture.head("Core") == before)
        #expect(try String(contentsOfFile: "\(fixture.workspace)/Modules/Core/Core.podspec", encoding: .utf8) == "mine\n")
        #expect(results["Net"]?.outcome == .upToDate)
    }

    @Test func aCommitOnADetachedHeadIsSavedBeforeItIsLeft() throws {
        let fixture = try LibraryWorkspace()
        let net = "\(fixture.workspace)/Modules/Net"
        try runGit(["checkout", "-q", "--detach"], in: net)
        let orphan = try fixture.commit("Net", "work on a detached HEAD\n")

        let results = try sync(fixture)
        let backup = try #require(results["Net"]?.backup, "\(String(describing: results["Net"]))")
        #expect(backup.hasPrefix("refs/modkit/backup/"))
        #expect(try runGit(["rev-parse", backup], in: net) == orphan)
        #expect(try fixture.head("Net") != orphan)
    }
}
