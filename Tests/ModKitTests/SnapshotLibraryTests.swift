import Foundation
import Testing
@testable import ModKit

/// `SnapshotTagger` and `SnapshotCheckout` called directly, as the CLI calls them, on a `LibraryWorkspace`.
@Suite struct SnapshotLibraryTests {
    @Test func tagRecordsEveryHeadAndCheckoutBringsThemBack() throws {
        let fixture = try LibraryWorkspace()
        let core = try fixture.head("Core"), net = try fixture.head("Net")

        let report = try SnapshotTagger.tag("v1.0.0", workspace: try fixture.load(), options: TagOptions(), jobs: 2)
        #expect(!report.unchanged)
        #expect(Dictionary(uniqueKeysWithValues: report.modules.map { ($0.name, $0.commit) }) == ["Core": core, "Net": net])
        for (module, commit) in [("Core", core), ("Net", net)] {
            let tag = try #require(report.tags.first { $0.name == module })
            #expect(tag.commit == commit)
            #expect(try runGit(["rev-parse", "\(tag.tag)^{commit}"], in: "\(fixture.workspace)/Modules/\(module)") == commit, "\(module)'s tag")
        }
        let manifestTag = try #require(report.tags.first { $0.name == nil })
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
        #expect(checkout.results.first { $0.name == "Core" }?.previousCommit == coreLater)
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.workspace)/Modules/Core/CHANGES.md"))
    }

    @Test func checkoutMovesNothingWhenOneModuleHasLocalChanges() throws {
        let fixture = try LibraryWorkspace()
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
            #expect(failure.problems.contains { $0.module == "Net" }, "\(failure.problems)")
        }
        #expect(try fixture.head("Core") == coreLater, "Core must not move while Net cannot")
        #expect(try fixture.head("Net") == netLater)
        #expect(try String(contentsOfFile: "\(fixture.workspace)/Modules/Net/CHANGES.md", encoding: .utf8) == "mine\n")
    }

    @Test func tagRefusesUncommittedChangesUnlessAllowedAndRecordsHEAD() throws {
        let fixture = try LibraryWorkspace()
        let core = try fixture.head("Core")
        try "edit\n".write(toFile: "\(fixture.workspace)/Modules/Core/Core.podspec", atomically: true, encoding: .utf8)
        #expect(throws: SnapshotFailure.self) {
            try SnapshotTagger.tag("v2", workspace: try fixture.load(), options: TagOptions(), jobs: 2)
        }
        #expect(try runGit(["tag", "--list"], in: "\(fixture.workspace)/Modules/Net") == "1.0.0", "no new tag anywhere")
        #expect(try runGit(["tag", "--list"], in: "\(fixture.workspace)/Modules/Core") == "1.0.0", "no new tag anywhere")
        let report = try SnapshotTagger.tag("v2", workspace: try fixture.load(), options: TagOptions(allowDirty: true), jobs: 2)
        #expect(report.modules.first { $0.name == "Core" }?.commit == core)
    }
}
