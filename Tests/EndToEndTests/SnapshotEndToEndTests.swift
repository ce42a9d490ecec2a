import Foundation
import Testing

/// `modkit tag`, `checkout`, `snapshots` and `diff` with the built binary against real repositories and bare remotes.
@Suite struct SnapshotEndToEndTests {
    @Test func tagRecordsAndTagsEveryModule() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct()
        let before = try sandbox.git("rev-parse", "HEAD", in: "ws")

        let result = try sandbox.modkit("tag", "v1.0.0", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty, "\(result.err)")
        let file = try sandbox.snapshotFile("v1.0.0")
        #expect(file.contains("manifest: { commit: \(before), branch: main }"), "\(file)")
        for name in names {
            let fields = try sandbox.snapshotFields(file, module: name)
            let head = try sandbox.head(of: name)
            #expect(fields["commit"] == head)
            #expect(fields["version"] == "1.0.0")
            #expect(fields["path"] == "Libs/\(name)")
            #expect(fields["branch"] == "main")
            #expect(fields["url"] == "file://\(sandbox.url("remotes/\(name).git").path)")
            #expect(sandbox.tagCommit("Product/v1.0.0", in: "ws/Libs/\(name)") == head)
            #expect(try sandbox.git("cat-file", "-t", "refs/tags/Product/v1.0.0", in: "ws/Libs/\(name)") == "tag")
        }
        let snapshotCommit = try sandbox.git("rev-parse", "HEAD", in: "ws")
        #expect(try sandbox.git("rev-parse", "HEAD~1", in: "ws") == before)
        #expect(sandbox.tagCommit("v1.0.0", in: "ws") == snapshotCommit)
        for module in Sandbox.directoryModules {
            let fields = try sandbox.snapshotFields(file, module: module.name)
            #expect(fields == ["path": module.path, "version": module.version, "tag": "\(module.name)/\(module.version)"])
            #expect(sandbox.tagCommit("\(module.name)/\(module.version)", in: "ws") == snapshotCommit)
        }
        #expect(file.split(separator: "\n").filter { $0.hasPrefix("  ") }.count == 10)
        #expect(try sandbox.git("status", "--porcelain", in: "ws") == "")

        // The same command again changes nothing.
        let again = try sandbox.modkit("tag", "v1.0.0", "--json", in: "ws")
        #expect(again.status == 0, "\(again.err)")
        let report = try #require(try sandbox.json(again) as? [String: Any])
        #expect(report["unchanged"] as? Bool == true)
        let rows = (report["modules"] as? [[String: Any]] ?? []) + [report["manifest"] as? [String: Any] ?? [:]]
        let outcomes = rows.compactMap { $0["outcome"] as? String }
        #expect(outcomes.count == 11 && outcomes.allSatisfy { $0 == "upToDate" }, "\(outcomes)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == snapshotCommit)

        let list = try sandbox.modkit("snapshots", "--json", in: "ws")
        let snapshots = try #require((try sandbox.json(list) as? [String: Any])?["snapshots"] as? [[String: Any]])
        #expect(snapshots.count == 1 && snapshots[0]["name"] as? String == "v1.0.0" && snapshots[0]["modules"] as? Int == 10)
    }

    @Test func aConflictingTagLeavesEveryRepositoryUntouched() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct()
        // Mod06 already has a v2.0.0 tag, on an older commit.
        try sandbox.pushNewCommit("Mod06")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        try sandbox.git("tag", "-a", "Product/v2.0.0", "-m", "old", "HEAD~1", in: "ws/Libs/Mod06")
        let before = try sandbox.git("rev-parse", "HEAD", in: "ws")
        let tagsBefore = try sandbox.git("tag", in: "ws")

        let result = try sandbox.modkit("tag", "v2.0.0", in: "ws")
        #expect(result.status == 1)
        #expect(result.err.contains("Mod06: tag Product/v2.0.0 already exists"), "\(result.err)")
        for name in names where name != "Mod06" {
            #expect(sandbox.tagCommit("Product/v2.0.0", in: "ws/Libs/\(name)") == nil, "\(name)")
        }
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == before)
        #expect(try sandbox.git("tag", in: "ws") == tagsBefore)
        #expect(try sandbox.git("status", "--porcelain", in: "ws") == "")
    }

    @Test func aFailureAfterTheFirstTagRollsEverythingBack() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct()
        let before = try sandbox.git("rev-parse", "HEAD", in: "ws")
        // A stale ref lock makes creating Mod06's tag fail after the snapshot commit and five tags exist.
        try sandbox.write("", to: "ws/Libs/Mod06/.git/refs/tags/Product/v3.0.0.lock")

        let result = try sandbox.modkit("tag", "v3.0.0", in: "ws")
        #expect(result.status == 1)
        #expect(result.err.contains("Mod06: could not create tag Product/v3.0.0"), "\(result.err)")
        #expect(result.err.contains("removed the"), "\(result.err)")
        for name in names {
            #expect(sandbox.tagCommit("Product/v3.0.0", in: "ws/Libs/\(name)") == nil, "\(name)")
        }
        #expect(try sandbox.git("tag", in: "ws") == "")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == before)
        #expect(try sandbox.git("status", "--porcelain", in: "ws") == "")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/snapshots/v3.0.0.yml").path))
    }

    @Test func checkoutBringsEveryRepositoryBack() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct()
        #expect(try sandbox.modkit("tag", "v1.0.0", in: "ws").status == 0)
        let file = try sandbox.snapshotFile("v1.0.0")
        var recorded: [String: String] = [:]
        for name in names { recorded[name] = try sandbox.snapshotFields(file, module: name)["commit"] }

        // New commits everywhere; the manifest repository moves on and deletes the snapshot file.
        for name in names { try sandbox.pushNewCommit(name) }
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        try sandbox.write("1.3.0\n", to: "ws/Features/Payments/VERSION")
        try sandbox.git("rm", "-q", ".modkit/snapshots/v1.0.0.yml", in: "ws")
        try sandbox.git("commit", "-qam", "Payments 1.3.0, snapshot file gone", in: "ws")

        // One dirty repository: nothing moves.
        try sandbox.write("unsaved\n", to: "ws/Libs/Mod03/Mod03.podspec")
        var heads: [String: String] = [:]
        for name in names { heads[name] = try sandbox.head(of: name) }
        let manifestHead = try sandbox.git("rev-parse", "HEAD", in: "ws")
        let refused = try sandbox.modkit("checkout", "v1.0.0", in: "ws")
        #expect(refused.status == 1)
        #expect(refused.err.contains("Mod03: local changes"), "\(refused.err)")
        for name in names { #expect(try sandbox.head(of: name) == heads[name]) }
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == manifestHead)
        #expect(try sandbox.read("ws/Libs/Mod03/Mod03.podspec") == "unsaved\n")

        try sandbox.git("checkout", "--", "Mod03.podspec", in: "ws/Libs/Mod03")
        let result = try sandbox.modkit("checkout", "v1.0.0", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        for name in names { #expect(try sandbox.head(of: name) == recorded[name]) }
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == sandbox.tagCommit("v1.0.0", in: "ws"))
        #expect(try sandbox.read("ws/Features/Payments/VERSION") == "1.2.0\n")

        let status = try sandbox.modkit("status", "--json", in: "ws")
        let report = try #require(try sandbox.json(status) as? [String: Any])
        let modules = try #require(report["modules"] as? [[String: Any]])
        for module in modules where module["kind"] as? String == "repository" {
            let name = try #require(module["name"] as? String)
            #expect(module["commit"] as? String == recorded[name], "\(name)")
            #expect(module["detached"] as? Bool == true)
        }
        #expect(modules.count == 10)
    }

    @Test func checkoutOnANewBranchEverywhere() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct(3)
        #expect(try sandbox.modkit("tag", "v1.0.0", in: "ws").status == 0)
        for name in names { try sandbox.pushNewCommit(name) }
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        let result = try sandbox.modkit("checkout", "v1.0.0", "--branch", "hotfix/1.0.1", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        for name in names {
            #expect(try sandbox.git("rev-parse", "--abbrev-ref", "HEAD", in: "ws/Libs/\(name)") == "hotfix/1.0.1")
            #expect(try sandbox.head(of: name) == sandbox.tagCommit("Product/v1.0.0", in: "ws/Libs/\(name)"))
        }
        #expect(try sandbox.git("rev-parse", "--abbrev-ref", "HEAD", in: "ws") == "hotfix/1.0.1")
    }

    @Test func diffListsExactlyTheCommitsBetweenSnapshots() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct()
        #expect(try sandbox.modkit("tag", "v1.0.0", in: "ws").status == 0)
        try sandbox.pushNewCommit("Mod01", text: "one\n")
        try sandbox.pushNewCommit("Mod01", file: "OTHER.md", text: "two\n")
        try sandbox.pushNewCommit("Mod04")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        try sandbox.write("1.3.0\n", to: "ws/Features/Payments/VERSION")
        try sandbox.git("commit", "-qam", "Payments 1.3.0", in: "ws")
        #expect(try sandbox.modkit("tag", "v1.1.0", in: "ws").status == 0)

        let result = try sandbox.modkit("diff", "v1.0.0", "v1.1.0", "--json", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try sandbox.json(result) as? [String: Any])
        let modules = try #require(object["modules"] as? [[String: Any]])
        #expect(modules.count == 10)
        for module in modules {
            let name = try #require(module["name"] as? String)
            let commits = (module["commits"] as? [[String: Any]] ?? []).compactMap { $0["commit"] as? String }
            let expected: String
            if names.contains(name) {
                expected = try sandbox.git("rev-list", "Product/v1.0.0..Product/v1.1.0", in: "ws/Libs/\(name)")
            } else {
                let path = Sandbox.directoryModules.first { $0.name == name }!.path
                expected = try sandbox.git("rev-list", "v1.0.0..v1.1.0", "--", path, in: "ws")
            }
            #expect(commits == expected.split(separator: "\n").map(String.init), "\(name)")
            #expect(module["change"] as? String == (commits.isEmpty ? "unchanged" : "changed"), "\(name)")
        }
        #expect(modules.first { $0["name"] as? String == "Mod01" }.flatMap { ($0["commits"] as? [Any])?.count } == 2)

        let text = try sandbox.modkit("diff", "v1.0.0", "v1.1.0", in: "ws")
        #expect(text.out.contains("Change OTHER.md") && text.out.contains("Payments 1.3.0"), "\(text.out)")
        let markdown = try sandbox.modkit("diff", "v1.0.0", "v1.1.0", "--markdown", in: "ws")
        #expect(markdown.out.contains("### Payments 1.2.0 → 1.3.0"), "\(markdown.out)")
    }

    @Test func pushSendsEveryTagAndTheSecondPushIsANoOp() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct()
        let result = try sandbox.modkit("tag", "v1.0.0", "--push", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        for name in names {
            let remote = sandbox.url("remotes/\(name).git").path
            #expect(try sandbox.git("--git-dir", remote, "rev-parse", "Product/v1.0.0^{commit}") == sandbox.head(of: name))
        }
        let product = sandbox.url("remotes/Product.git").path
        let snapshotCommit = try sandbox.git("rev-parse", "HEAD", in: "ws")
        #expect(try sandbox.git("--git-dir", product, "rev-parse", "v1.0.0^{commit}") == snapshotCommit)
        #expect(try sandbox.git("--git-dir", product, "rev-parse", "main") == snapshotCommit)
        #expect(try sandbox.git("--git-dir", product, "rev-parse", "Payments/1.2.0^{commit}") == snapshotCommit)

        let again = try sandbox.modkit("tag", "v1.0.0", "--push", in: "ws")
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.contains("Nothing to push"), "\(again.out)")

        // A remote that lost its tag gets it back from the next --push; the others are left alone.
        try sandbox.git("--git-dir", sandbox.url("remotes/Mod03.git").path, "tag", "-d", "Product/v1.0.0")
        let repair = try sandbox.modkit("tag", "v1.0.0", "--push", "--json", in: "ws")
        #expect(repair.status == 0, "\(repair.err)")
        let pushes = try #require((try sandbox.json(repair) as? [String: Any])?["pushes"] as? [[String: Any]])
        let pushed = pushes.filter { !(($0["pushed"] as? [String]) ?? []).isEmpty }.compactMap { $0["name"] as? String }
        #expect(pushed == ["Mod03"])
        #expect(try sandbox.git("--git-dir", sandbox.url("remotes/Mod03.git").path, "rev-parse", "Product/v1.0.0^{commit}") == sandbox.head(of: "Mod03"))
    }

    @Test func unpushedCommitsWarnAndRequirePushedRefuses() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.makeProduct(2)
        try sandbox.write("local\n", to: "ws/Libs/Mod02/LOCAL.md")
        try sandbox.git("add", "-A", in: "ws/Libs/Mod02")
        try sandbox.git("commit", "-qm", "Local only", in: "ws/Libs/Mod02")
        let before = try sandbox.git("rev-parse", "HEAD", in: "ws")

        let refused = try sandbox.modkit("tag", "v1.0.0", "--require-pushed", in: "ws")
        #expect(refused.status == 1)
        #expect(refused.err.contains("Mod02: commit"), "\(refused.err)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == before)
        #expect(sandbox.tagCommit("Product/v1.0.0", in: "ws/Libs/Mod01") == nil)

        let warned = try sandbox.modkit("tag", "v1.0.0", in: "ws")
        #expect(warned.status == 0, "\(warned.err)")
        #expect(warned.err.contains("warning: Mod02: commit"), "\(warned.err)")
    }

    @Test func aVanishedCommitFallsBackToTheModulesTag() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.makeProduct(2)
        #expect(try sandbox.modkit("tag", "v1.0.0", "--push", in: "ws").status == 0)
        let recorded = try sandbox.head(of: "Mod02")
        // Upstream rewrites history: the recorded commit is replaced and the tag moved onto the new one.
        let remote = sandbox.url("remotes/Mod02.git").path
        try sandbox.git("commit", "-q", "--amend", "-m", "Mod02 1.0.0 (rewritten)", in: "src/Mod02")
        try sandbox.git("push", "-q", "-f", remote, "HEAD:main", in: "src/Mod02")
        try sandbox.git("tag", "-f", "-a", "Product/v1.0.0", "-m", "moved", in: "src/Mod02")
        try sandbox.git("push", "-q", "-f", remote, "refs/tags/Product/v1.0.0", in: "src/Mod02")
        let rewritten = try sandbox.git("rev-parse", "HEAD", in: "src/Mod02")
        try FileManager.default.removeItem(at: sandbox.url("ws/Libs/Mod02"))

        let result = try sandbox.modkit("checkout", "v1.0.0", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("Mod02: commit \(recorded.prefix(7)) has vanished from the remote; used tag Product/v1.0.0"), "\(result.err)")
        #expect(try sandbox.head(of: "Mod02") == rewritten)
    }

    @Test func tagOutsideAGitRepositoryIsAnInputError() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Mod01")
        try sandbox.writeManifest([("Mod01", nil)])
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        let result = try sandbox.modkit("tag", "v1.0.0", in: "ws")
        #expect(result.status == 2)
        #expect(result.err.contains("not a git repository"), "\(result.err)")
    }
}
