import Foundation
import Testing
@testable import ModKit

/// `SnapshotTagger` and `SnapshotCheckout` called directly, as the CLI calls them, on real repositories: a workspace
/// (its manifest repository) with two module repositories cloned from bare remotes.
@Suite struct SnapshotLibraryTests {
    final class Fixture {
        let root: String
        var workspace: String { root + "/ws" }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-snapshot-\(UUID().uuidString)").resolvingSymlinksInPath().path
            for name in ["Core", "Net"] {
                try FileManager.default.createDirectory(atPath: "\(root)/src/\(name)", withIntermediateDirectories: true)
                try runGit(["init", "-q", "-b", "main", "src/\(name)"], in: root)
                try "Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '1.0.0'\nend\n"
                    .write(toFile: "\(root)/src/\(name)/\(name).podspec", atomically: true, encoding: .utf8)
                try runGit(["-C", "src/\(name)", "add", "-A"], in: root)
                try runGit(["-C", "src/\(name)", "commit", "-qm", "\(name) 1.0.0"], in: root)
                try runGit(["clone", "-q", "--bare", "src/\(name)", "remotes/\(name).git"], in: root)
                try runGit(["clone", "-q", "remotes/\(name).git", "ws/Modules/\(name)"], in: root)
            }
            let manifest = """
            version: 1
            workspace: Library
            modules:
              - name: Core
                path: Modules/Core
                url: \(root)/remotes/Core.git
              - name: Net
                path: Modules/Net
                url: \(root)/remotes/Net.git

            """
            try manifest.write(toFile: workspace + "/modkit.yml", atomically: true, encoding: .utf8)
            try "/Modules/\n".write(toFile: workspace + "/.gitignore", atomically: true, encoding: .utf8)
            try runGit(["init", "-q", "-b", "main", "."], in: workspace)
            try runGit(["add", "-A"], in: workspace)
            try runGit(["commit", "-qm", "Workspace"], in: workspace)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func head(_ module: String) throws -> String { try runGit(["rev-parse", "HEAD"], in: "\(workspace)/Modules/\(module)") }

        /// A new commit in the module's checkout; returns it.
        func commit(_ module: String, _ text: String) throws -> String {
            let directory = "\(workspace)/Modules/\(module)"
            try text.write(toFile: directory + "/CHANGES.md", atomically: true, encoding: .utf8)
            try runGit(["add", "CHANGES.md"], in: directory)
            try runGit(["commit", "-qm", text], in: directory)
            return try head(module)
        }

        func load() throws -> Workspace { try Workspace.load(manifestFile: URL(fileURLWithPath: workspace + "/modkit.yml")) }
    }

    @Test func tagRecordsEveryHeadAndCheckoutBringsThemBack() throws {
        let fixture = try Fixture()
        let core = try fixture.head("Core"), net = try fixture.head("Net")

        let report = try SnapshotTagger.tag("v1.0.0", workspace: try fixture.load(), options: TagOptions(), jobs: 2)
        #expect(!report.unchanged)
        #expect(Dictionary(uniqueKeysWithValues: report.modules.map { ($0.name, $0.commit) }) == ["Core": core, "Net": net])
        for (module, commit) in [("Core", core), ("Net", net)] {
            let tag = try #require(report.tags.first { $0.module == module })
            #expect(tag.commit == commit)
            #expect(try runGit(["rev-parse", "\(tag.tag)^{commit}"], in: "\(fixture.workspace)/Modules/\(module)") == commit, "\(module)'s tag")
        }
        let manifestTag = try #require(report.tags.first { $0.module == nil })
        let file = try String(contentsOfFile: fixture.workspace + "/" + report.file, encoding: .utf8)
        #expect(file.contains(core) && file.contains(net), "\(file)")
        #expect(try runGit(["rev-parse", "\(manifestTag.tag)^{commit}"], in: fixture.workspace) == report.snapshotCommit)
        // Tagging the same state again changes nothing.
        #expect(try SnapshotTagger.tag("v1.0.0", workspace: try fixture.load(), options: TagOptions(), jobs: 2).unchanged)

        let coreLater = try fixture.commit("Core", "later\n")
        _ = try fixture.commit("Net", "later\n")
        let checkout = try SnapshotCheckout.checkout("v1.0.0", workspace: try fixture.load(), options: CheckoutOptions(modulesOnly: true),
                                                     jobs: 2, networkJobs: 2)
        #expect(!checkout.failed, "\(checkout.results)")
        #expect(try fixture.head("Core") == core && fixture.head("Net") == net)
        #expect(checkout.results.first { $0.module == "Core" }?.previousCommit == coreLater)
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.workspace)/Modules/Core/CHANGES.md"))
    }

    @Test func checkoutMovesNothingWhenOneModuleHasLocalChanges() throws {
        let fixture = try Fixture()
        _ = try SnapshotTagger.tag("v1.0.0", workspace: try fixture.load(), options: TagOptions(), jobs: 2)
        let coreLater = try fixture.commit("Core", "later\n")
        let netLater = try fixture.commit("Net", "later\n")
        try "mine\n".write(toFile: "\(fixture.workspace)/Modules/Net/CHANGES.md", atomically: true, encoding: .utf8)

        #expect(throws: SnapshotFailure.self) {
            try SnapshotCheckout.checkout("v1.0.0", workspace: try fixture.load(), options: CheckoutOptions(modulesOnly: true), jobs: 2, networkJobs: 2)
        }
        do {
            _ = try SnapshotCheckout.checkout("v1.0.0", workspace: try fixture.load(), options: CheckoutOptions(modulesOnly: true), jobs: 2, networkJobs: 2)
        } catch let failure as SnapshotFailure {
            #expect(failure.problems.contains { $0.contains("Net") }, "\(failure.problems)")
        }
        #expect(try fixture.head("Core") == coreLater, "Core must not move while Net cannot")
        #expect(try fixture.head("Net") == netLater)
        #expect(try String(contentsOfFile: "\(fixture.workspace)/Modules/Net/CHANGES.md", encoding: .utf8) == "mine\n")
    }

    @Test func tagRefusesUncommittedChangesUnlessAllowedAndRecordsHEAD() throws {
        let fixture = try Fixture()
        let core = try fixture.head("Core")
        try "edit\n".write(toFile: "\(fixture.workspace)/Modules/Core/Core.podspec", atomically: true, encoding: .utf8)
        #expect(throws: SnapshotFailure.self) {
            try SnapshotTagger.tag("v2", workspace: try fixture.load(), options: TagOptions(), jobs: 2)
        }
        #expect(try runGit(["tag", "--list"], in: "\(fixture.workspace)/Modules/Net").isEmpty, "no tag anywhere")
        #expect(try runGit(["tag", "--list"], in: "\(fixture.workspace)/Modules/Core").isEmpty, "no tag anywhere")
        let report = try SnapshotTagger.tag("v2", workspace: try fixture.load(), options: TagOptions(allowDirty: true), jobs: 2)
        #expect(report.modules.first { $0.name == "Core" }?.commit == core)
    }
}
