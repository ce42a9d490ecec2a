import Foundation
import Testing

/// What a release commits, writes in changelogs and publishes; and snapshots made with the former tag default.
@Suite struct ReleaseContentEndToEndTests {
    @Test func theReleaseCommitHoldsOnlyTheReleaseFilesAndATestThatDirtiesTrackedFilesStops() throws {
        let flag = "dirty-readme"
        let product = try SDKProduct(moduleLines: [
            "QCloudCore": ["test: mkdir -p .build && echo built > .build/output.o"],
            "COSXML": ["test: \"if [ -f ../../../\(flag) ]; then echo changed >> README.md; fi\""],
        ])
        let sandbox = product.sandbox
        try product.commitFixAndFeature()
        try sandbox.write("", to: flag)

        let failed = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(failed.status == 1)
        #expect(failed.err.contains("COSXML: `if [ -f ../../../\(flag) ]; then echo changed >> README.md; fi` changed tracked files: README.md"), "\(failed.err)")
        #expect(try sandbox.git("log", "-1", "--format=%s", in: "ws/Libs/COSXML") == "feat: multipart upload", "nothing committed")

        try FileManager.default.removeItem(at: sandbox.url(flag))
        try sandbox.git("checkout", "--", "README.md", in: "ws/Libs/COSXML")
        let resumed = try product.modkit(try SDKProduct.hintedArguments(failed.err))
        #expect(resumed.status == 0, "\(resumed.out)\n\(resumed.err)")
        let releaseFiles = ["CHANGELOG.md", "Generated/QCloudCoreVersion.h", "Generated/QCloudCoreVersion.swift", "QCloudCore.podspec"]
        #expect(try product.changedFiles("ws/Libs/QCloudCore") == releaseFiles)
        #expect(try product.changedFiles("ws/Libs/COSXML") == ["CHANGELOG.md", "COSXML.podspec", "Generated/COSXMLVersion.h", "Generated/COSXMLVersion.swift"])
        #expect(try product.changedFiles("ws", "HEAD~1") == ["Features/Beacon/Beacon.podspec", "Features/Beacon/CHANGELOG.md",
                                                           "Features/Beacon/Generated/BeaconVersion.h", "Features/Beacon/Generated/BeaconVersion.swift"])
        #expect(try product.changedFiles("ws") == [".modkit/snapshots/2024.6.yml"])
        #expect(try sandbox.read("ws/Libs/QCloudCore/.build/output.o") == "built\n", "build output stays, unstaged")
        #expect(try sandbox.git("ls-tree", "-r", "--name-only", "1.0.2", in: "ws/Libs/QCloudCore").split(separator: "\n").allSatisfy { !$0.hasPrefix(".build") })
    }

    @Test func changelogsStartAtEachModulesOwnLastVersionAndGroupByKind() throws {
        let product = try SDKProduct()
        let sandbox = product.sandbox
        try product.commit("feat!: drop iOS 12", in: "COSXML")
        try product.commit("fix(upload): retry on 503", in: "COSXML")
        try product.commit("Tidy the read-me", in: "COSXML")
        try product.commit("feat: beacon ranging", in: "Beacon")
        let result = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        #expect(result.out.contains("  COSXML  5.3.0    6.0.0  3 commits since 5.3.0: 1 breaking, 1 fix, 1 other\n"), "a breaking change is a major release:\n\(result.out)")
        #expect(result.out.contains("  Beacon  0.4.0    0.5.0  1 commit since Beacon/0.4.0: 1 feature\n"), "\(result.out)")

        let changelog = try sandbox.read("ws/Libs/COSXML/CHANGELOG.md")
        let section = try #require(changelog.components(separatedBy: "## 6.0.0 — ").dropFirst().first)
        let lines = section.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).map { String($0.prefix { $0 != "(" }) }
        #expect(lines == ["### Breaking changes", "", "- Drop iOS 12 ", "", "### Fixes", "", "- Retry on 503 ", "", "### Other", "", "- Tidy the read-me ", ""],
                "\(changelog)")
        #expect(!changelog.contains("before 5.3.0"), "nothing from before the module's last version")
        let beacon = try sandbox.read("ws/Features/Beacon/CHANGELOG.md")
        #expect(beacon.contains("## 0.5.0 — ") && beacon.contains("### Features\n\n- Beacon ranging ("), "\(beacon)")
        #expect(!beacon.contains("Beacon before") && !beacon.contains("sync") && !beacon.contains("Snapshot"), "path-limited, since Beacon/0.4.0:\n\(beacon)")

        // The next release starts after this one: its own commits are left out.
        try product.commit("fix: a leak", in: "COSXML")
        let next = try sandbox.modkit("release", "2024.7", "--yes", in: "ws")
        #expect(next.status == 0, "\(next.out)\n\(next.err)")
        let later = try sandbox.read("ws/Libs/COSXML/CHANGELOG.md")
        let newest = try #require(later.components(separatedBy: "## 6.0.1 — ").dropFirst().first?.components(separatedBy: "## 6.0.0").first)
        #expect(newest.contains("### Fixes\n\n- A leak (") && !newest.contains("Release") && !newest.contains("Drop iOS 12"), "\(newest)")
        #expect(next.out.contains("  Beacon  0.5.0    0.5.1  depends on COSXML\n"), "\(next.out)")
        #expect(try sandbox.read("ws/Features/Beacon/CHANGELOG.md").contains("## 0.5.1 — \(today())\n\n- Dependencies updated: COSXML 6.0.1\n"))
    }

    @Test func aFailedPublishIsRetriedForThatModuleOnly() throws {
        let log = "publish.log"
        let flag = "publish-fails"
        let command = "echo $MODKIT_MODULE $MODKIT_VERSION >> ../../../\(log); test $MODKIT_MODULE != COSXML -o ! -f ../../../\(flag)"
        let product = try SDKProduct(moduleLines: ["QCloudCore": ["test: true", "publish: \"\(command)\""],
                                                   "COSXML": ["test: true", "publish: \"\(command)\""],
                                                   "FaceInUI": ["test: true", "publish: \"\(command)\""]])
        let sandbox = product.sandbox
        try product.commitFixAndFeature()
        try sandbox.write("", to: flag)

        let failed = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(failed.status == 1)
        #expect(failed.out.contains("✓ push") && failed.out.contains("✗ publish"), "\(failed.out)")
        #expect(failed.err.contains("COSXML: `\(command)` exited 1"), "\(failed.err)")
        #expect(try sandbox.read(log) == "QCloudCore 1.0.2\nCOSXML 5.4.0\n")

        try FileManager.default.removeItem(at: sandbox.url(flag))
        let resumed = try product.modkit(try SDKProduct.hintedArguments(failed.err))
        #expect(resumed.status == 0, "\(resumed.out)\n\(resumed.err)")
        #expect(resumed.out.contains("- push skipped (done in an earlier run)"))
        #expect(resumed.out.contains("QCloudCore: published in an earlier run"), "\(resumed.out)")
        #expect(try sandbox.read(log) == "QCloudCore 1.0.2\nCOSXML 5.4.0\nCOSXML 5.4.0\n", "only COSXML again")
    }

    @Test func snapshotsTaggedWithTheFormerDefaultStillListDiffAndCheckOut() throws {
        let product = try SDKProduct(tagFormat: "{snapshot}")
        let sandbox = product.sandbox
        let recorded = try product.heads()
        for module in SDKProduct.repositories {
            #expect(sandbox.tagCommit("2024.5", in: "ws/Libs/\(module.name)") == recorded[module.name], "the former default")
        }
        // The workspace moves to the new default, then changes and takes a new snapshot.
        let manifest = try sandbox.read("ws/modkit.yml").replacingOccurrences(of: "  tag-format: \"{snapshot}\"\n", with: "")
        try sandbox.write(manifest, to: "ws/modkit.yml")
        try sandbox.git("commit", "-qam", "chore: the new tag default", in: "ws")
        try sandbox.git("push", "-q", "origin", "main", in: "ws")
        // Re-tagging the old snapshot changes nothing: it keeps the tag names it was made with.
        let again = try sandbox.modkit("tag", "2024.5", in: "ws")
        #expect(again.status == 0, "\(again.err)")
        #expect(sandbox.tagCommit("Product/2024.5", in: "ws/Libs/QCloudCore") == nil, "no tag in the new format for an old snapshot")

        try product.commit("fix: handle a nil region", in: "QCloudCore")
        #expect(try sandbox.modkit("tag", "2024.6", "--push", in: "ws").status == 0)
        #expect(sandbox.tagCommit("Product/2024.6", in: "ws/Libs/QCloudCore") != nil)

        let list = try sandbox.modkit("snapshots", "--json", in: "ws")
        let names = try #require((try sandbox.json(list) as? [String: Any])?["snapshots"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names == ["2024.5", "2024.6"], "\(list.out)")
        let diff = try sandbox.modkit("diff", "2024.5", "2024.6", "--json", in: "ws")
        let modules = try #require((try sandbox.json(diff) as? [String: Any])?["modules"] as? [[String: Any]], "\(diff.out)\(diff.err)")
        let core = try #require(modules.first { $0["name"] as? String == "QCloudCore" })
        #expect((core["commits"] as? [[String: Any]])?.compactMap { $0["summary"] as? String } == ["fix: handle a nil region"])

        // Upstream rewrites QCloudCore: checkout falls back to the old-format tag, moved onto the new commit.
        try sandbox.git("commit", "-q", "--amend", "-m", "rewritten", in: "src/QCloudCore")
        let rewritten = try sandbox.git("rev-parse", "HEAD", in: "src/QCloudCore")
        try sandbox.git("tag", "-f", "-a", "2024.5", "-m", "moved", in: "src/QCloudCore")
        let remote = sandbox.url("remotes/QCloudCore.git").path
        try sandbox.git("push", "-q", "-f", remote, "HEAD:refs/heads/main", "refs/tags/2024.5", in: "src/QCloudCore")
        try sandbox.git("--git-dir", remote, "tag", "-d", "Product/2024.6")
        try sandbox.git("--git-dir", remote, "tag", "-d", "1.0.1")
        try sandbox.git("--git-dir", remote, "gc", "-q", "--prune=now")
        try FileManager.default.removeItem(at: sandbox.url("ws/Libs/QCloudCore"))
        let checkout = try sandbox.modkit("checkout", "2024.5", in: "ws")
        #expect(checkout.status == 0, "\(checkout.out)\n\(checkout.err)")
        #expect(checkout.err.contains("used tag 2024.5"), "\(checkout.err)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/QCloudCore") == rewritten)
        for module in ["COSXML", "FaceInUI"] {
            #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/\(module)") == recorded[module])
        }
    }

    func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}
