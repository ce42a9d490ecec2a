import Foundation
import Testing

/// `modkit release NAME` releasing each module at its own version, against 3 repository modules, a directory module
/// and bare remotes: the plan, the tags on every remote, resume and preflight.
@Suite struct ReleaseVersionsEndToEndTests {
    @Test func releasesOnlyChangedModulesEachAtItsOwnVersionWithTruthfulTags() throws {
        let product = try SDKProduct()
        let sandbox = product.sandbox
        try product.commitFixAndFeature()
        let faceHead = try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/FaceInUI")
        let faceTagsBefore = try product.remoteTags("FaceInUI")

        let plan = try sandbox.modkit("release", "2024.6", "--plan", in: "ws")
        #expect(plan.status == 0, "\(plan.err)")
        let rows = plan.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.prefix(3) == ["QCloudCore", "1.0.1", "1.0.2"] }, "\(plan.out)")
        #expect(rows.contains { $0.prefix(3) == ["COSXML", "5.3.0", "5.4.0"] }, "\(plan.out)")
        #expect(rows.contains { $0.prefix(3) == ["Beacon", "0.4.0", "0.4.1"] && $0.joined(separator: " ").contains("depends on COSXML") })
        #expect(!plan.out.contains("FaceInUI 2.3"), "\(plan.out)")
        for tag in ["1.0.2 in Libs/QCloudCore", "5.4.0 in Libs/COSXML", "Beacon/0.4.1 in the manifest repository",
                    "2024.6 in the manifest repository", "Product/2024.6 in Libs/FaceInUI"] {
            #expect(plan.out.contains("  \(tag)\n"), "\(tag) in\n\(plan.out)")
        }
        let dryRun = try sandbox.modkit("release", "2024.6", "--dry-run", in: "ws")
        #expect(dryRun.status == 0, "\(dryRun.out)\n\(dryRun.err)")
        #expect(dryRun.out.hasPrefix(plan.out), "the dry run starts with the plan:\n\(dryRun.out)")

        let result = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(result.status == 0, "\(result.out)\n\(result.err)")

        // Each remote holds exactly the expected tags, each on the commit whose spec carries that version.
        let core = try product.remoteTags("QCloudCore")
        #expect(Set(core.keys) == ["1.0.1", "1.0.2", "Product/2024.5", "Product/2024.6"], "\(core)")
        #expect(try product.remoteFile("QCloudCore", "1.0.2", "QCloudCore.podspec").contains("s.version = '1.0.2'"))
        #expect(core["Product/2024.6"] == core["1.0.2"])
        let cosxml = try product.remoteTags("COSXML")
        #expect(Set(cosxml.keys) == ["5.3.0", "5.4.0", "Product/2024.5", "Product/2024.6"], "\(cosxml)")
        let cosxmlSpec = try product.remoteFile("COSXML", "5.4.0", "COSXML.podspec")
        #expect(cosxmlSpec.contains("s.version = '5.4.0'") && cosxmlSpec.contains("s.dependency 'QCloudCore', '1.0.2'"), "\(cosxmlSpec)")
        let face = try product.remoteTags("FaceInUI")
        #expect(Set(face.keys) == Set(faceTagsBefore.keys).union(["Product/2024.6"]), "\(face)")
        #expect(face["Product/2024.6"] == faceHead)
        let manifestTags = try product.remoteTags("Product")
        #expect(Set(manifestTags.keys) == ["Beacon/0.4.0", "Beacon/0.4.1", "2024.5", "2024.6"], "\(manifestTags)")
        let beaconSpec = try product.remoteFile("Product", "Beacon/0.4.1", "Features/Beacon/Beacon.podspec")
        #expect(beaconSpec.contains("s.version = '0.4.1'") && beaconSpec.contains("s.dependency 'COSXML', '5.4.0'"), "\(beaconSpec)")
        // No repository holds a version tag of a version it was not released at.
        for module in SDKProduct.repositories {
            let versions = try sandbox.git("tag", "-l", in: "ws/Libs/\(module.name)").split(separator: "\n").filter { !$0.contains("/") }
            let expected: Set<String> = ["QCloudCore": ["1.0.1", "1.0.2"], "COSXML": ["5.3.0", "5.4.0"], "FaceInUI": ["2.3.0"]][module.name]!
            #expect(Set(versions.map(String.init)) == expected, "\(module.name): \(versions)")
        }

        // FaceInUI is untouched: no commit, no changelog; every repository is clean and pushed.
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/FaceInUI") == faceHead)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/FaceInUI/CHANGELOG.md").path))
        for directory in ["ws"] + SDKProduct.repositories.map({ "ws/Libs/\($0.name)" }) {
            #expect(try sandbox.git("status", "--porcelain", "--untracked-files=all", in: directory) == "", "\(directory) is clean")
        }
        #expect(try sandbox.git("--git-dir", sandbox.url("remotes/Product.git").path, "rev-parse", "main") == sandbox.git("rev-parse", "HEAD", in: "ws"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/release/2024.6.state").path), "a finished release keeps no state")
        let changelog = try sandbox.read("ws/Libs/QCloudCore/CHANGELOG.md")
        #expect(changelog.contains("## 1.0.2 — ") && changelog.contains("### Fixes\n\n- Handle a nil region ("), "\(changelog)")
        #expect(try sandbox.read("ws/Features/Beacon/CHANGELOG.md").contains("## 0.4.1 — "))
    }

    @Test func resumeRunAsPrintedFinishesTheSamePlanAndNothingElse() throws {
        let product = try SDKProduct(moduleLines: ["COSXML": ["test: sh check.sh"]])
        let sandbox = product.sandbox
        try sandbox.write("exit 1\n", to: "ws/Libs/COSXML/check.sh")
        try sandbox.git("add", "check.sh", in: "ws/Libs/COSXML")
        try sandbox.git("commit", "-qm", "test: a check that fails", in: "ws/Libs/COSXML")
        try sandbox.git("push", "-q", "origin", "main", in: "ws/Libs/COSXML")
        try product.commit("fix: handle a nil region", in: "QCloudCore")
        let heads = try product.heads()

        let failed = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(failed.status == 1)
        #expect(failed.out.contains("✗ test") && failed.err.contains("COSXML: `sh check.sh` exited 1"), "\(failed.out)\n\(failed.err)")
        #expect(try product.heads() == heads, "nothing committed before the test passed")
        let hint = try SDKProduct.hintedArguments(failed.err)
        #expect(hint == ["release", "2024.6", "--resume", "--yes"], "\(failed.err)")

        // A plain rerun, or a resume with other arguments, refuses and changes nothing.
        let rerun = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(rerun.status == 2 && rerun.err.contains("'modkit release 2024.6 --resume --yes'"), "\(rerun.err)")
        let conflicting = try sandbox.modkit("release", "2024.6", "--resume", "--yes", "COSXML=6.0.0", in: "ws")
        #expect(conflicting.status == 2 && conflicting.err.contains("planned with other arguments"), "\(conflicting.err)")

        // The fix is committed; in the meantime FaceInUI got a change, which the saved plan does not release.
        try sandbox.write("exit 0\n", to: "ws/Libs/COSXML/check.sh")
        try sandbox.git("commit", "-qm", "fix: the check passes", "check.sh", in: "ws/Libs/COSXML")
        try product.commit("feat: face detection", in: "FaceInUI")
        let faceHead = try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/FaceInUI")
        let resumed = try product.modkit(hint)
        #expect(resumed.status == 0, "\(resumed.out)\n\(resumed.err)")
        #expect(resumed.out.contains("- bump skipped (done in an earlier run)"))
        #expect(resumed.out.contains("QCloudCore  1.0.1    1.0.2") || resumed.out.contains("QCloudCore  1.0.1"), "\(resumed.out)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/FaceInUI") == faceHead, "FaceInUI is not in the plan")
        #expect(Set(try product.remoteTags("FaceInUI").keys) == ["2.3.0", "Product/2024.5", "Product/2024.6"])
        #expect(Set(try product.remoteTags("QCloudCore").keys) == ["1.0.1", "1.0.2", "Product/2024.5", "Product/2024.6"])
        #expect(Set(try product.remoteTags("COSXML").keys) == ["5.3.0", "5.3.1", "Product/2024.5", "Product/2024.6"])
        #expect(try product.remoteFile("COSXML", "5.3.1", "COSXML.podspec").contains("s.version = '5.3.1'"))
        #expect(try product.remoteFile("COSXML", "5.3.1", "check.sh") == "exit 0")
        #expect(Set(try product.remoteTags("Product").keys) == ["Beacon/0.4.0", "Beacon/0.4.1", "2024.5", "2024.6"])
        let changelog = try sandbox.read("ws/Libs/COSXML/CHANGELOG.md")
        #expect(changelog.components(separatedBy: "## 5.3.1").count == 2, "\(changelog)")
    }

    @Test func anExistingTagStopsPreflightAndDryRunBeforeAnyCommit() throws {
        let product = try SDKProduct()
        let sandbox = product.sandbox
        try product.commitFixAndFeature()
        // Someone pushed COSXML 5.4.0 from elsewhere; FaceInUI has a local tag of the snapshot's name.
        try sandbox.git("--git-dir", sandbox.url("remotes/COSXML.git").path, "tag", "5.4.0", "main")
        try sandbox.git("tag", "Product/2024.6", in: "ws/Libs/FaceInUI")
        let heads = try product.heads()

        for arguments in [["release", "2024.6", "--dry-run"], ["release", "2024.6", "--yes"]] {
            let result = try product.modkit(arguments)
            #expect(result.status == 1, "\(arguments): \(result.out)")
            #expect(result.out.contains("✗ preflight"), "\(result.out)")
            #expect(result.err.contains("tag 5.4.0 already exists on the remote 'origin' of Libs/COSXML"), "\(result.err)")
            #expect(result.err.contains("tag Product/2024.6 already exists in Libs/FaceInUI"), "\(result.err)")
            #expect(!result.out.contains("✓ commit") && !result.out.contains("✗ tag"))
            #expect(result.err.contains("nothing was changed"), "\(result.err)")
        }
        #expect(try product.heads() == heads, "no commit anywhere")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/Libs/QCloudCore") == "")
        #expect(sandbox.tagCommit("1.0.2", in: "ws/Libs/QCloudCore") == nil)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/release/2024.6.state").path), "nothing to resume")
        // With the conflict resolved by choosing another version, the release goes through.
        let result = try sandbox.modkit("release", "2024.6", "COSXML=5.5.0", "--yes", in: "ws")
        #expect(result.status == 1, "FaceInUI's local tag still conflicts")
        try sandbox.git("tag", "-d", "Product/2024.6", in: "ws/Libs/FaceInUI")
        let passed = try sandbox.modkit("release", "2024.6", "COSXML=5.5.0", "--yes", in: "ws")
        #expect(passed.status == 0, "\(passed.out)\n\(passed.err)")
        #expect(try product.remoteFile("COSXML", "5.5.0", "COSXML.podspec").contains("s.version = '5.5.0'"))
    }

    @Test func aReleaseBranchCarriesTheReleaseInEveryReleasedRepository() throws {
        let product = try SDKProduct(releaseLines: ["branch: \"release/{snapshot}\""])
        let sandbox = product.sandbox
        try product.commit("fix: handle a nil region", in: "QCloudCore")
        let mains = try product.heads()
        let result = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        #expect(result.out.hasPrefix("Release 2024.6 on branch release/2024.6:\n"), "\(result.out)")
        for (directory, remote, tag) in [("ws/Libs/QCloudCore", "QCloudCore", "1.0.2"), ("ws/Libs/COSXML", "COSXML", "5.3.1"), ("ws", "Product", "2024.6")] {
            #expect(try sandbox.git("symbolic-ref", "--short", "HEAD", in: directory) == "release/2024.6", "\(directory)")
            let head = try sandbox.git("rev-parse", "HEAD", in: directory)
            let bare = sandbox.url("remotes/\(remote).git").path
            #expect(try sandbox.git("--git-dir", bare, "rev-parse", "release/2024.6") == head, "\(remote)")
            #expect(try sandbox.git("--git-dir", bare, "rev-parse", "\(tag)^{commit}") == head, "\(remote) \(tag)")
            #expect(try sandbox.git("--git-dir", bare, "rev-parse", "main") == mains[remote == "Product" ? "ws" : remote], "\(remote) main untouched")
            #expect(try sandbox.git("rev-parse", "--abbrev-ref", "release/2024.6@{upstream}", in: directory) == "origin/release/2024.6")
        }
        #expect(try sandbox.git("symbolic-ref", "--short", "HEAD", in: "ws/Libs/FaceInUI") == "main", "FaceInUI is not released")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/FaceInUI") == mains["FaceInUI"])
    }

    @Test func abandonDiscardsTheSavedPlanSoANewOneCanBeMade() throws {
        let product = try SDKProduct(moduleLines: ["QCloudCore": ["test: \"false\""]])
        let sandbox = product.sandbox
        try product.commit("fix: handle a nil region", in: "QCloudCore")
        let failed = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        #expect(failed.status == 1 && failed.out.contains("✗ test"), "\(failed.out)")
        let refused = try sandbox.modkit("release", "2024.6", "QCloudCore=2.0.0", "--yes", in: "ws")
        #expect(refused.status == 2 && refused.err.contains("'modkit release 2024.6 --abandon'"), "\(refused.err)")
        let abandoned = try product.modkit(try SDKProduct.hintedArguments(String(refused.err[refused.err.range(of: "discard it with ")!.upperBound...])))
        #expect(abandoned.status == 0 && abandoned.err.contains("abandoned release 2024.6 (steps done: preflight, bump, changelog, pin, guard)"), "\(abandoned.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/release/2024.6.state").path))
        #expect(abandoned.err.contains("Libs/QCloudCore/QCloudCore.podspec"), "\(abandoned.err)")
        #expect(try sandbox.modkit("release", "2024.6", "--resume", "--yes", in: "ws").status == 2, "nothing to resume any more")
        for directory in ["ws"] + SDKProduct.repositories.map({ "ws/Libs/\($0.name)" }) {
            try sandbox.git("checkout", "-q", "--", ".", in: directory)
            try sandbox.git("clean", "-qfd", in: directory)
        }
        let plan = try sandbox.modkit("release", "2024.6", "QCloudCore=2.0.0", "--plan", in: "ws")
        #expect(plan.status == 0 && plan.out.contains("  QCloudCore  1.0.1    2.0.0"), "\(plan.out)")
    }

    /// Kills land anywhere from preflight to the end of the test step (each test takes 0.4 s, so a kill within 1.1 s
    /// never reaches the commit): bump, changelog, pin and guard are cut off mid-write. Killing the snapshot commit
    /// and libgit2's ref locks is left to the tests of `modkit tag`.
    @Test func aReleaseKilledAtRandomMomentsFinishesExactlyOnceWithResume() throws {
        let product = try SDKProduct(moduleLines: Dictionary(uniqueKeysWithValues: SDKProduct.repositories.map { ($0.name, ["test: sleep 0.4"]) }))
        let sandbox = product.sandbox
        try product.commitFixAndFeature()
        let state = sandbox.url("ws/.modkit/release/2024.6.state").path
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for round in 0..<8 {
            let resume = FileManager.default.fileExists(atPath: state)
            let process = try sandbox.spawnModkit(["release", "2024.6", "--yes"] + (resume ? ["--resume"] : []), in: "ws")
            if round == 0 {
                // Aimed at the saved plan, then up to a second into the steps: on a loaded machine a random sleep can
                // wake after the whole release has finished, and then no run is ever killed.
                sandbox.kill(process, whenExists: "ws/.modkit/release/2024.6.state", extra: 1.0)
            } else {
                usleep(UInt32.random(in: 20_000...1_100_000, using: &generator))
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            if process.terminationReason == .exit && process.terminationStatus == 0 { break }
        }
        #expect(kills > 0, "the test killed no run")
        if FileManager.default.fileExists(atPath: state) || sandbox.tagCommit("1.0.2", in: "ws/Libs/QCloudCore") == nil {
            let last = try sandbox.modkit("release", "2024.6", "--yes", FileManager.default.fileExists(atPath: state) ? "--resume" : "--dry-run", in: "ws")
            #expect(last.status == 0, "after \(kills) kills: \(last.out.components(separatedBy: "✗").last ?? "")\n\(last.err)")
        }
        for (remote, version) in [("QCloudCore", "1.0.2"), ("COSXML", "5.4.0")] {
            let tags = try product.remoteTags(remote)
            #expect(tags["Product/2024.6"] == tags[version] && tags[version] != nil, "\(remote): \(tags) after \(kills) kills")
            #expect(try product.remoteFile(remote, version, "\(remote).podspec").contains("s.version = '\(version)'"))
            let directory = "ws/Libs/\(remote)"
            #expect(try sandbox.git("log", "--format=%s", "\(version)~1..\(version)", in: directory) == "Release \(remote) \(version)", "one release commit")
            let files = try product.changedFiles(directory, "\(version)^{commit}")
            #expect(files == ["CHANGELOG.md", "Generated/\(remote)Version.h", "Generated/\(remote)Version.swift", "\(remote).podspec"].sorted(),
                    "\(files) after \(kills) kills")
            let status = try sandbox.git("status", "--porcelain", in: directory)
            #expect(status == "", "\(status)")
        }
        #expect(try product.remoteFile("Product", "Beacon/0.4.1", "Features/Beacon/Beacon.podspec").contains("s.version = '0.4.1'"))
        #expect(Set(try product.remoteTags("FaceInUI").keys) == ["2.3.0", "Product/2024.5", "Product/2024.6"])
        let status = try sandbox.git("status", "--porcelain", in: "ws")
        #expect(status == "", "\(status)")
    }
}
