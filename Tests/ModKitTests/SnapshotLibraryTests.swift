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

    /// A tag run cut short (its journal left) is settled by the next snapshot command, one step a line that names its
    /// repository: the tags it created removed, those it moved put back, then the manifest repository.
    @Test func aStoppedTagRunIsSettledStepByStepByTheNextTag() throws {
        let fixture = try LibraryWorkspace()
        let core = "\(fixture.workspace)/Modules/Core", net = "\(fixture.workspace)/Modules/Net"
        let netBefore = try fixture.head("Net")
        let netMoved = try fixture.commit("Net", "moved\n")
        _ = try runGit(["tag", "made", "HEAD"], in: core)
        _ = try runGit(["tag", "moved", netBefore], in: net)
        let previous = try runGit(["rev-parse", "refs/tags/moved"], in: net)
        _ = try runGit(["tag", "-f", "moved", netMoved], in: net)
        let head = try runGit(["rev-parse", "HEAD"], in: fixture.workspace)
        let root = URL(fileURLWithPath: fixture.workspace)
        let journal = TagJournal(snapshot: "v9", file: "snapshots/v9.yml", head: head, commit: try fixture.head("Core"), blob: netBefore, previousBlob: nil,
                                 tags: [TagJournal.Tag(path: "Modules/Core", label: "Core", name: "made", commit: try fixture.head("Core"), previous: nil),
                                        TagJournal.Tag(path: "Modules/Net", label: "Net", name: "moved", commit: netMoved, previous: previous)])
        try journal.write(in: root, gitDir: root.appendingPathComponent(".git").path)

        let report = try SnapshotTagger.tag("v2", workspace: try fixture.load(), options: TagOptions(allowDirty: true), jobs: 2)
        #expect(Array(report.warnings.prefix(3).map(\.messageNamingModule)) == ["removed the 1 tag this run had created", "Net: tag moved put back where it was",
                                                     "manifest repository: no snapshot commit left on the branch (HEAD at \(head.prefix(7)))"],
                "\(report.warnings)")
        #expect(report.warnings.prefix(3).allSatisfy { $0.severity == .warning })
        #expect(try runGit(["tag", "--list", "made"], in: core) == "")
        #expect(try runGit(["rev-parse", "moved^{commit}"], in: net) == netBefore)
        #expect(!FileManager.default.fileExists(atPath: TagJournal.file(in: root).path))
    }
}
