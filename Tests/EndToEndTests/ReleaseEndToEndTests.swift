import Foundation
import Testing

/// `modkit release` against real repositories: 5 repository modules and 2 directory modules in a dependency chain.
@Suite struct ReleaseEndToEndTests {
    static let repositoryModules: [(name: String, deps: [String])] = [
        ("Core", []), ("Net", ["Core"]), ("Storage", ["Core"]), ("SyncKit", ["Net", "Storage"]), ("Screens", ["SyncKit"]),
    ]
    static let directoryModules: [(name: String, path: String, deps: [String])] = [
        ("Payments", "Features/Payments", ["SyncKit"]), ("Analytics", "Features/Analytics", ["Core"]),
    ]

    static func podspec(_ name: String, _ version: String, _ deps: [String]) -> String {
        var text = "Pod::Spec.new do |s|\n  s.name    = '\(name)'\n  s.version = '\(version)'\n  s.swift_version = '5.0'\n"
        for dep in deps { text += "  s.dependency '\(dep)', '~> 1.0'\n" }
        return text + "end\n"
    }

    static let changelog = "# Changelog\n\n## 1.0.0 — 2026-01-01\n\n- First release.\n"

    /// The product at 1.0.0 (snapshot `1.0.0` taken), then two commits in every module, pushed.
    func makeProduct(testCommand: String = "test -f CHANGELOG.md") throws -> Sandbox {
        let sandbox = try Sandbox()
        for module in Self.repositoryModules {
            let work = "src/\(module.name)"
            try sandbox.write(Self.podspec(module.name, "1.0.0", module.deps), to: "\(work)/\(module.name).podspec")
            try sandbox.write(Self.changelog, to: "\(work)/CHANGELOG.md")
            try sandbox.git("init", "-q", "-b", "main", in: work)
            try sandbox.git("add", "-A", in: work)
            try sandbox.git("commit", "-qm", "\(module.name) 1.0.0", in: work)
            try sandbox.git("clone", "-q", "--bare", work, "remotes/\(module.name).git")
        }
        var manifest = "version: 1\nworkspace: Product\ndefaults:\n  url-base: file://\(sandbox.url("remotes").path)\n  revision: main\nmodules:\n"
        for module in Self.repositoryModules {
            manifest += "  - name: \(module.name)\n    url: \(module.name).git\n    path: Libs/\(module.name)\n    test: \(testCommand)\n"
        }
        for module in Self.directoryModules {
            manifest += "  - name: \(module.name)\n    path: \(module.path)\n"
            try sandbox.write(Self.podspec(module.name, "1.0.0", module.deps), to: "ws/\(module.path)/\(module.name).podspec")
            try sandbox.write(Self.changelog, to: "ws/\(module.path)/CHANGELOG.md")
        }
        try sandbox.write(manifest, to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        let sync = try sandbox.modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("sync: \(sync.err)") }
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "Product 1.0.0", in: "ws")
        try sandbox.git("init", "-q", "--bare", "remotes/Product.git")
        try sandbox.git("remote", "add", "origin", sandbox.url("remotes/Product.git").path, in: "ws")
        try sandbox.git("push", "-q", "-u", "origin", "main", in: "ws")
        let tag = try sandbox.modkit("tag", "1.0.0", "--push", in: "ws")
        guard tag.status == 0 else { throw SandboxError("tag: \(tag.err)") }
        // Each module repository's own version tag, as a release would have made it.
        for module in Self.repositoryModules {
            try sandbox.git("tag", "-a", "1.0.0", "-m", "\(module.name) 1.0.0", in: "ws/Libs/\(module.name)")
            try sandbox.git("push", "-q", "origin", "1.0.0", in: "ws/Libs/\(module.name)")
        }

        for module in Self.repositoryModules {
            for change in ["Add \(module.name) feature", "Fix \(module.name) bug"] {
                try sandbox.write(change + "\n", to: "ws/Libs/\(module.name)/NOTES.md")
                try sandbox.git("add", "-A", in: "ws/Libs/\(module.name)")
                try sandbox.git("commit", "-qm", change, in: "ws/Libs/\(module.name)")
            }
            try sandbox.git("push", "-q", "origin", "main", in: "ws/Libs/\(module.name)")
        }
        for module in Self.directoryModules {
            try sandbox.write("notes\n", to: "ws/\(module.path)/NOTES.md")
            try sandbox.git("add", "-A", in: "ws")
            try sandbox.git("commit", "-qm", "Improve \(module.name)", in: "ws")
        }
        try sandbox.git("push", "-q", "origin", "main", in: "ws")
        return sandbox
    }

    @Test func releaseBumpsPinsGuardsCommitsTagsAndPushesEverything() throws {
        let sandbox = try makeProduct()
        let result = try sandbox.modkit("release", "1.1.0", "--bump", "minor", "--yes", in: "ws")
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        for step in ["preflight", "bump", "changelog", "pin", "guard", "test", "commit", "tag", "push", "publish"] {
            #expect(result.out.contains("✓ \(step)"), "step \(step) in\n\(result.out)")
        }

        for module in Self.repositoryModules {
            let directory = "ws/Libs/\(module.name)"
            let podspec = try sandbox.read("\(directory)/\(module.name).podspec")
            #expect(podspec.contains("s.version = '1.1.0'") && podspec.contains("s.swift_version = '5.0'"))
            for dep in module.deps { #expect(podspec.contains("s.dependency '\(dep)', '1.1.0'"), "\(podspec)") }
            let changelog = try sandbox.read("\(directory)/CHANGELOG.md")
            #expect(changelog.hasPrefix("# Changelog\n\n## 1.1.0 — "))
            #expect(changelog.contains("### Other\n\n- Fix \(module.name) bug ("), "\(changelog)")
            #expect(changelog.contains(")\n- Add \(module.name) feature (") && changelog.contains(")\n\n## 1.0.0"), "\(changelog)")
            #expect(!changelog.contains("Release ") && !changelog.contains("\(module.name) 1.0.0 ("), "only commits since 1.0.0:\n\(changelog)")
            #expect(try sandbox.read("\(directory)/Generated/\(module.name)Version.h").contains("\(module.name)ModuleVersionNumber 1001000"))
            #expect(try sandbox.git("log", "-1", "--format=%s", in: directory) == "Release \(module.name) 1.1.0")
            #expect(try sandbox.git("status", "--porcelain", in: directory).isEmpty)
            let head = try sandbox.git("rev-parse", "HEAD", in: directory)
            #expect(try sandbox.git("--git-dir", sandbox.url("remotes/\(module.name).git").path, "rev-parse", "main") == head)
            #expect(try sandbox.git("--git-dir", sandbox.url("remotes/\(module.name).git").path, "rev-parse", "1.1.0^{commit}") == head)
        }
        for module in Self.directoryModules {
            #expect(try sandbox.read("ws/\(module.path)/\(module.name).podspec").contains("s.version = '1.1.0'"))
            #expect(try sandbox.read("ws/\(module.path)/CHANGELOG.md").contains("## 1.1.0 — "))
            #expect(try sandbox.read("ws/\(module.path)/CHANGELOG.md").contains("- Improve \(module.name) ("))
            #expect(try sandbox.git("--git-dir", sandbox.url("remotes/Product.git").path, "rev-parse", "--verify", "-q", "\(module.name)/1.1.0^{commit}").count == 40)
        }
        #expect(try sandbox.read("ws/Features/Payments/Payments.podspec").contains("s.dependency 'SyncKit', '1.1.0'"))
        #expect(try sandbox.git("--git-dir", sandbox.url("remotes/Product.git").path, "rev-parse", "main") == sandbox.git("rev-parse", "HEAD", in: "ws"))
        #expect(try sandbox.modkit("pin", "--check", in: "ws").status == 0)
        #expect(try sandbox.modkit("guard", "--check", in: "ws").status == 0)

        // The release notes across repositories match the changelog sections (plus the release commits themselves).
        let diff = try sandbox.modkit("diff", "1.0.0", "1.1.0", "--json", in: "ws")
        #expect(diff.status == 0, "\(diff.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.out.utf8)) as? [String: Any])
        let modules = try #require(object["modules"] as? [[String: Any]], "\(diff.out)")
        for module in Self.repositoryModules {
            let entry = try #require(modules.first { $0["name"] as? String == module.name })
            let subjects = (entry["commits"] as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String }
            #expect(Set(subjects) == ["Add \(module.name) feature", "Fix \(module.name) bug", "Release \(module.name) 1.1.0"], "\(subjects)")
        }
    }

    @Test func dryRunLeavesEveryRepositoryByteIdentical() throws {
        let sandbox = try makeProduct()
        let before = try fingerprint(sandbox)
        let result = try sandbox.modkit("release", "1.1.0", "--bump", "minor", "--dry-run", "-v", in: "ws")
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        let concise = try sandbox.modkit("release", "1.1.0", "--bump", "minor", "--dry-run", in: "ws")
        #expect(concise.status == 0, "\(concise.out)\n\(concise.err)")
        #expect(!concise.out.contains("+++ ") && !concise.out.contains("would create tag"), "\(concise.out)")
        #expect(concise.out.contains("would commit") && concise.out.contains("would push the release branch of Libs/Core and tags 1.1.0"), "\(concise.out)")
        #expect(concise.out.split(separator: "\n").count * 4 < result.out.split(separator: "\n").count, "\(concise.out)")
        let after = try fingerprint(sandbox)
        let changed = zip(before.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }
        #expect(after == before, "changed: \(changed.prefix(5))")
        #expect(result.out.contains("-  s.version = '1.0.0'\n+  s.version = '1.1.0'"), "\(result.out)")
        #expect(result.out.contains("-  s.dependency 'Core', '~> 1.0'\n+  s.dependency 'Core', '1.1.0'"))
        #expect(result.out.contains("+## 1.1.0 — "))
        #expect(result.out.contains("+- Add Core feature"))
        #expect(result.out.contains("would create tag 1.1.0 in Libs/Core"))
        #expect(result.out.contains("would create tag Payments/1.1.0 in the manifest repository"))
        #expect(result.out.contains("would run `test -f CHANGELOG.md` in Libs/Core"))

        // Without --yes and with no terminal to ask on, the release is refused before it takes the lock or reads anything.
        let unasked = try sandbox.modkit("release", "1.1.0", "--bump", "minor", in: "ws")
        #expect(unasked.status == 2 && unasked.err.contains("add --yes to go ahead without a prompt"), "\(unasked.err)")
        #expect(try fingerprint(sandbox) == before)
    }

    @Test func aFailingTestStopsTheReleaseAndResumeFinishesItOnce() throws {
        let sandbox = try makeProduct(testCommand: "test -f \(FileManager.default.temporaryDirectory.path)/modkit-release-flag-$PPID-never")
        // Core's test fails until the flag exists: point every module's test at a flag inside the sandbox instead.
        let flag = sandbox.url("tests-pass").path
        var manifest = try sandbox.read("ws/modkit.yml")
        manifest = manifest.replacingOccurrences(of: #"test -f \#(FileManager.default.temporaryDirectory.path)/modkit-release-flag-$PPID-never"#, with: "test -f \(flag)")
        try sandbox.write(manifest, to: "ws/modkit.yml")
        try sandbox.git("commit", "-qam", "Tests need the flag", in: "ws")
        try sandbox.git("push", "-q", "origin", "main", in: "ws")
        let heads = try Dictionary(uniqueKeysWithValues: Self.repositoryModules.map { ($0.name, try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/\($0.name)")) })

        let failed = try sandbox.modkit("release", "1.1.0", "--bump", "minor", "--yes", in: "ws")
        #expect(failed.status == 1)
        #expect(failed.out.contains("✗ test"), "\(failed.out)")
        #expect(failed.err.contains("Core: `test -f \(flag)` exited 1"))
        #expect(failed.err.contains("--resume"))
        for module in Self.repositoryModules {
            #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/\(module.name)") == heads[module.name], "nothing committed")
            #expect(sandbox.tagCommit("1.1.0", in: "ws/Libs/\(module.name)") == nil, "nothing tagged")
        }
        #expect(sandbox.tagCommit("1.1.0", in: "ws") == nil)
        let state = try sandbox.read("ws/.modkit/release/1.1.0.state")
        #expect(state.contains("\"failed\" : \"test\""))
        #expect(try sandbox.modkit("release", "1.1.0", "--bump", "minor", "--yes", in: "ws").status == 2, "a plain rerun points at --resume")

        try sandbox.write("ok\n", to: "tests-pass")
        let resumed = try sandbox.modkit("release", "1.1.0", "--yes", "--resume", in: "ws")
        #expect(resumed.status == 0, "\(resumed.out)\n\(resumed.err)")
        #expect(resumed.out.contains("- bump skipped (done in an earlier run)"))
        #expect(resumed.out.contains("- changelog skipped (done in an earlier run)"))
        #expect(resumed.out.contains("✓ test") && resumed.out.contains("✓ push"))
        for module in Self.repositoryModules {
            let changelog = try sandbox.read("ws/Libs/\(module.name)/CHANGELOG.md")
            #expect(changelog.components(separatedBy: "## 1.1.0").count == 2, "exactly one 1.1.0 section:\n\(changelog)")
            #expect(sandbox.tagCommit("1.1.0", in: "ws/Libs/\(module.name)") == (try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/\(module.name)")))
        }
    }

    /// A requirement computed in code is a warning in release's pin step, as in `modkit pin`; only `--strict` stops there.
    @Test func aRequirementModkitCannotVerifyWarnsAndBlocksOnlyWithStrict() throws {
        let sandbox = try makeProduct()
        let podspec = "ws/Features/Analytics/Analytics.podspec"
        let computed = "firebase_version = ENV.fetch('FIREBASE_VERSION', '~> 12.0')\n" + Self.podspec("Analytics", "1.0.0", ["Core"])
            .replacingOccurrences(of: "end\n", with: "  s.dependency 'Firebase', firebase_version\nend\n")
        try sandbox.write(computed, to: podspec)
        try sandbox.git("commit", "-qam", "Analytics uses Firebase", in: "ws")
        try sandbox.git("push", "-q", "origin", "main", in: "ws")
        let warning = "Features/Analytics/Analytics.podspec:7: 'Firebase' cannot verify"

        let strict = try sandbox.modkit("release", "1.1.0", "--bump", "minor", "--yes", "--strict", in: "ws")
        #expect(strict.status == 1, "\(strict.out)\n\(strict.err)")
        #expect(strict.out.contains("✗ pin") && strict.err.contains("modkit: error: \(warning)"), "\(strict.out)\n\(strict.err)")
        #expect(!strict.out.contains("✓ guard") && sandbox.tagCommit("1.1.0", in: "ws") == nil, "nothing after pin ran:\n\(strict.out)")

        let resumed = try sandbox.modkit("release", "1.1.0", "--yes", "--resume", in: "ws")
        #expect(resumed.status == 0, "\(resumed.out)\n\(resumed.err)")
        #expect(resumed.out.contains("✓ pin") && resumed.err.contains("modkit: warning: \(warning)"), "\(resumed.out)\n\(resumed.err)")
        #expect(resumed.out.contains("✓ push"), "\(resumed.out)")
        let released = try sandbox.read(podspec)
        #expect(released.contains("  s.dependency 'Firebase', firebase_version\n"), "left as written:\n\(released)")
        #expect(released.contains("  s.dependency 'Core', '1.1.0'\n") && released.contains("s.version = '1.1.0'"), "\(released)")
        #expect(try sandbox.git("--git-dir", sandbox.url("remotes/Product.git").path, "rev-parse", "--verify", "-q", "Analytics/1.1.0^{commit}").count == 40)
    }

    @Test func markdownChecklist() throws {
        let sandbox = try makeProduct()
        let result = try sandbox.modkit("release", "1.1.0", "--markdown", "Core", "Net", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("## Release 1.1.0\n\n- Core 1.0.0 → 1.0.1 (2 commits since 1.0.0: 2 other)\n- Net 1.0.0 → 1.0.1 (2 commits since 1.0.0: 2 other)\n"), "\(result.out)")
        #expect(result.out.contains("- Storage 1.0.0 → 1.0.1 (depends on Core)\n"), "\(result.out)")
        #expect(result.out.contains("- [ ] **preflight** — ") && result.out.contains("- [ ] **push** — branches, then tags"))
    }

    /// Everything that could change: work-tree files, index, refs of every repository and remote.
    func fingerprint(_ sandbox: Sandbox) throws -> String {
        let script = """
        for repo in ws ws/Libs/*; do
          echo "== $repo"; (cd "$repo" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha1sum;
                            sha1sum .git/index; git for-each-ref; git rev-parse HEAD; git symbolic-ref -q HEAD || true)
        done
        for remote in remotes/*.git; do echo "== $remote"; git --git-dir "$remote" for-each-ref; done
        """
        let result = try sandbox.run("/bin/sh", ["-c", script], in: sandbox.root)
        guard result.status == 0 else { throw SandboxError("fingerprint: \(result.err)") }
        return result.out
    }
}
