import Foundation
import Testing

/// Migration into and out of modkit: `modkit init --import` from submodules, repo, west and vcstool, and `modkit export`.
///
/// Imported manifests are proven by `modkit sync` in a fresh workspace that holds only the imported modkit.yml.
@Suite struct MigrationEndToEndTests {
    /// The golden folder shared with ModKitTests (inputs with `{{REMOTES}}`, expected manifests with `/srv/git`).
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ModKitTests/ImportGolden")

    // MARK: Must show 1 — submodules at their recorded commits

    @Test func submodulesImportAtTheirRecordedCommits() throws {
        let sandbox = try Sandbox()
        for name in ["Core", "Net", "UI", "Deep", "super"] { try publish(sandbox, "remotes/\(name).git") }
        try sandbox.git("clone", "-q", sandbox.url("remotes/super.git").path, "ws")
        try sandbox.git("submodule", "add", "-q", "../Core.git", "Libs/Core", in: "ws")                                  // relative url
        try sandbox.git("submodule", "add", "-q", "-b", "develop", sandbox.url("remotes/Net.git").path, "Libs/Net", in: "ws") // branch =
        try sandbox.git("submodule", "add", "-q", "file://" + sandbox.url("remotes/UI.git").path, "UI", in: "ws")
        try sandbox.git("submodule", "add", "-q", sandbox.url("remotes/Deep.git").path, "Vendor/Third/Deep", in: "ws")       // nested path
        try sandbox.git("-C", "Libs/Core", "checkout", "-q", "v1.0", in: "ws")
        try sandbox.git("add", "Libs/Core", in: "ws")
        try sandbox.git("config", "-f", ".gitmodules", "submodule.UI.update", "merge", in: "ws")
        try sandbox.git("commit", "-qam", "Add submodules", in: "ws")
        // The branch moves on after the superproject recorded its commit: --exact must not follow it.
        try advance(sandbox, "remotes/Net.git", branch: "develop")

        let recorded = try Dictionary(uniqueKeysWithValues: ["Libs/Core", "Libs/Net", "UI", "Vendor/Third/Deep"].map { path in
            (path, try sandbox.git("rev-parse", "HEAD:\(path)", in: "ws"))
        })
        let result = try sandbox.modkit("init", "--import", ".gitmodules", "--exact", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains(".gitmodules:11:2: warning: submodule 'UI': 'update = merge' is not carried over"), "\(result.err)")
        #expect(result.out.contains("git rm -q --cached Libs/Core Libs/Net UI Vendor/Third/Deep"), "next steps are printed")
        let manifest = try sandbox.read("ws/modkit.yml")
        for commit in recorded.values { #expect(manifest.contains("revision: \(commit)")) }
        #expect(manifest.contains("# branch = develop in .gitmodules"))

        let modules = try listModules(sandbox, in: "ws")
        #expect(Set(modules.map(\.path)) == Set(recorded.keys))
        #expect(modules.first { $0.path == "Libs/Core" }?.url == sandbox.url("remotes/Core.git").path, "relative url resolved against the superproject's remote")
        let cloned = try cloneAsListed(sandbox, modules, into: "fresh")
        #expect(cloned == recorded)

        // Without --exact, `branch =` becomes the revision and the recorded commit is kept as a comment.
        try FileManager.default.removeItem(at: sandbox.url("ws/modkit.yml"))
        let loose = try sandbox.modkit("init", "--import", ".gitmodules", in: "ws")
        #expect(loose.status == 0, "\(loose.err)")
        let looseManifest = try sandbox.read("ws/modkit.yml")
        #expect(looseManifest.contains("    path: Libs/Net\n    revision: develop\n    # recorded commit \(recorded["Libs/Net"]!)"), "\(looseManifest)")
    }

    @Test func plainInitInASuperprojectSuggestsTheImport() throws {
        let sandbox = try Sandbox()
        try publish(sandbox, "remotes/Core.git")
        try sandbox.git("init", "-q", "ws")
        try sandbox.git("submodule", "add", "-q", sandbox.url("remotes/Core.git").path, "Core", in: "ws")
        let result = try sandbox.modkit("init", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("--import .gitmodules"), "\(result.err)")
    }

    // MARK: Must show 2 and 4 — repo, west, vcstool against golden manifests, cloned from local bare remotes

    @Test(arguments: [
        ("repo", "default.xml", ["aosp/platform/build/soong", "aosp/platform/frameworks/base", "github/tools/lint", "github/device/sample", "github/tools/soong"]),
        ("west", "west.yml", ["zephyr/hal-nordic", "zephyr/mbedtls", "vendor/sdk-tools"]),
        ("vcstool", "product.repos", ["vcs/core.git", "vcs/net-utils.git", "vcs/ui.git"]),
    ])
    func manifestImportsToGoldenAndClones(folder: String, file: String, remotes: [String]) throws {
        let sandbox = try Sandbox()
        for remote in remotes { try publish(sandbox, "remotes/\(remote)") }
        try instantiate(folder, remotes: sandbox.url("remotes").path, into: sandbox.url("ws/\(folder)"))

        let result = try sandbox.modkit("init", "--import", "\(folder)/\(file)", "--name", "Golden", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let written = try sandbox.read("ws/modkit.yml").replacingOccurrences(of: sandbox.url("remotes").path, with: "/srv/git")
        #expect(written == (try String(contentsOf: Self.golden.appendingPathComponent("\(folder).modkit.yml"), encoding: .utf8)))
        // Every warning of the golden list is printed as path:line:col: warning: …
        let warnings = try String(contentsOf: Self.golden.appendingPathComponent("\(folder).warnings.txt"), encoding: .utf8)
        for line in warnings.split(separator: "\n") { #expect(result.err.contains(line), "missing '\(line)' in\n\(result.err)") }
        #expect(!warnings.isEmpty, "each golden input has something that cannot be carried over")

        let listed = try listModules(sandbox, in: "ws")
        #expect(listed.count == remotes.count)
        // A plain sync leaves out repo's `notdefault` projects, as repo does (the import writes `defaults: groups`).
        let modules = listed.filter { !$0.groups.contains("notdefault") }
        let cloned = try cloneAsListed(sandbox, modules, into: "fresh")
        for module in listed where !modules.contains(where: { $0.path == module.path }) {
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("fresh/\(module.path)").path), "\(module.name) is not synced by default")
        }
        for module in modules {
            let expected = try sandbox.git("--git-dir", module.url, "rev-parse", "\(module.revision ?? "HEAD")^{commit}")
            #expect(cloned[module.path] == expected, "\(module.name) at \(module.revision ?? "default branch")")
        }
    }

    @Test func malformedInputFailsWithExitTwoAndWritesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.write(try String(contentsOf: Self.golden.appendingPathComponent("broken/bad.xml"), encoding: .utf8), to: "ws/bad.xml")
        try sandbox.write(try String(contentsOf: Self.golden.appendingPathComponent("broken/bad.repos"), encoding: .utf8), to: "ws/bad.repos")
        let xml = try sandbox.modkit("init", "--import", "bad.xml", in: "ws")
        #expect(xml.status == 2)
        #expect(xml.err.contains("bad.xml:") && xml.err.contains(": error: invalid XML"), "\(xml.err)")
        let yaml = try sandbox.modkit("init", "--import", "bad.repos", in: "ws")
        #expect(yaml.status == 2)
        #expect(yaml.err.hasPrefix("bad.repos:5:1: error: invalid YAML"), "\(yaml.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/modkit.yml").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit").path))

        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        try instantiate("vcstool", remotes: "/srv/git", into: sandbox.url("ws/vcstool"))
        let again = try sandbox.modkit("init", "--import", "vcstool/product.repos", in: "ws")
        #expect(again.status == 2)
        #expect(try sandbox.read("ws/modkit.yml") == "version: 1\nmodules: []\n")
    }

    // MARK: Must show 3 — round trips

    @Test func vcstoolExportImportedByVcsGivesTheSameCommits() throws {
        let sandbox = try Sandbox()
        let remotes = ["vcs/core.git", "vcs/net-utils.git", "vcs/ui.git"]
        for remote in remotes { try publish(sandbox, "remotes/\(remote)") }
        try instantiate("vcstool", remotes: sandbox.url("remotes").path, into: sandbox.url("ws/vcstool"))
        #expect(try sandbox.modkit("init", "--import", "vcstool/product.repos", in: "ws").status == 0)
        let modules = try listModules(sandbox, in: "ws")
        _ = try cloneAsListed(sandbox, modules, into: "ws")
        // A module moved off its manifest revision: --exact must export what is checked out.
        try sandbox.git("checkout", "-q", "develop", in: "ws/src/core")
        let heads = try Dictionary(uniqueKeysWithValues: modules.map { ($0.path, try sandbox.git("rev-parse", "HEAD", in: "ws/\($0.path)")) })

        // --exact on a non-submodule import records what the clones in the workspace have checked out.
        try FileManager.default.removeItem(at: sandbox.url("ws/modkit.yml"))
        let exactImport = try sandbox.modkit("init", "--import", "vcstool/product.repos", "--exact", in: "ws")
        #expect(exactImport.status == 0, "\(exactImport.err)")
        #expect(try listModules(sandbox, in: "ws").map { $0.revision ?? "" } == modules.map { heads[$0.path]! })

        let export = try sandbox.modkit("export", "--format", "vcstool", "--exact", "-o", "../product-exact.repos", in: "ws")
        #expect(export.status == 0, "\(export.err)")
        guard let vcs = try installVcstool(sandbox) else { return }
        let imported = try sandbox.run("/bin/sh", ["-c", "\"\(vcs)\" import --input ../product-exact.repos . < /dev/null"], in: sandbox.url("other"))
        #expect(imported.status == 0, "\(imported.out)\(imported.err)")
        for (path, commit) in heads {
            #expect(try sandbox.git("rev-parse", "HEAD", in: "other/\(path)") == commit, "\(path)")
        }
    }

    @Test func westExportReimportsToAnEquivalentManifest() throws {
        let sandbox = try Sandbox()
        let remotes = ["aosp/platform/build/soong", "aosp/platform/frameworks/base", "github/tools/lint", "github/device/sample", "github/tools/soong"]
        for remote in remotes { try publish(sandbox, "remotes/\(remote)") }
        try instantiate("repo", remotes: sandbox.url("remotes").path, into: sandbox.url("ws/repo"))
        #expect(try sandbox.modkit("init", "--import", "repo/default.xml", in: "ws").status == 0)

        let export = try sandbox.modkit("export", "--format", "west", in: "ws")
        #expect(export.status == 0, "\(export.err)")
        try sandbox.write(export.out, to: "back/west.yml")
        let reimport = try sandbox.modkit("init", "--import", "west.yml", in: "back")
        #expect(reimport.status == 0, "\(reimport.err)")
        #expect(try listModules(sandbox, in: "back") == listModules(sandbox, in: "ws"))

        // The repo export reads back too, tags as refs/tags/….
        let repo = try sandbox.modkit("export", "--format", "repo", in: "ws")
        #expect(repo.out.contains("revision=\"v1.0\"") || repo.out.contains("revision=\"refs/tags/v1.0\""))
        try sandbox.write(repo.out, to: "back-repo/default.xml")
        #expect(try sandbox.modkit("init", "--import", "default.xml", in: "back-repo").status == 0)
        #expect(try listModules(sandbox, in: "back-repo") == listModules(sandbox, in: "ws"))
    }

    // MARK: Helpers

    struct Listed: Equatable {
        var name: String
        var url: String
        var path: String
        var revision: String?
        var groups: [String]
    }

    func listModules(_ sandbox: Sandbox, in directory: String) throws -> [Listed] {
        let result = try sandbox.modkit("list", "--json", in: directory)
        guard result.status == 0 else { throw SandboxError("modkit list failed: \(result.err)") }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let entries = try #require(report["modules"] as? [[String: Any]])
        return entries.map {
            Listed(name: $0["name"] as? String ?? "", url: $0["url"] as? String ?? "", path: $0["path"] as? String ?? "",
                   revision: $0["revision"] as? String, groups: $0["groups"] as? [String] ?? [])
        }
    }

    /// Runs `modkit sync` with the imported manifest in `directory` (a fresh workspace holding only a copy of
    /// `ws/modkit.yml`, or `ws` itself) and returns path → HEAD commit of every listed module.
    func cloneAsListed(_ sandbox: Sandbox, _ modules: [Listed], into directory: String) throws -> [String: String] {
        if directory != "ws" {
            try sandbox.write(try sandbox.read("ws/modkit.yml"), to: "\(directory)/modkit.yml")
        }
        let sync = try sandbox.modkit("sync", in: directory)
        guard sync.status == 0 else { throw SandboxError("modkit sync failed (\(sync.status)): \(sync.err)") }
        var heads: [String: String] = [:]
        for module in modules {
            heads[module.path] = try sandbox.git("rev-parse", "HEAD", in: "\(directory)/\(module.path)")
        }
        return heads
    }

    /// A bare repository at `path` with `main` (two commits, tag `v1.0` on the first) and `develop` branching off the tag.
    func publish(_ sandbox: Sandbox, _ path: String) throws {
        let work = "src/\(path)"
        try sandbox.write("first\n", to: "\(work)/README")
        try sandbox.git("init", "-q", "-b", "main", in: work)
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "first", in: work)
        try sandbox.git("tag", "-a", "v1.0", "-m", "v1.0", in: work)
        try sandbox.write("second\n", to: "\(work)/README")
        try sandbox.git("commit", "-qam", "second", in: work)
        try sandbox.git("checkout", "-q", "-b", "develop", "v1.0", in: work)
        try sandbox.write("develop\n", to: "\(work)/DEVELOP")
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "develop", in: work)
        try sandbox.git("checkout", "-q", "main", in: work)
        try FileManager.default.createDirectory(at: sandbox.url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try sandbox.git("clone", "-q", "--bare", work, path)
    }

    /// Pushes one more commit onto `branch` of the bare repository at `path`.
    func advance(_ sandbox: Sandbox, _ path: String, branch: String) throws {
        let work = "src/\(path)"
        try sandbox.git("checkout", "-q", branch, in: work)
        try sandbox.write("later\n", to: "\(work)/LATER")
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "later", in: work)
        try sandbox.git("push", "-q", sandbox.url(path).path, branch, in: work)
    }

    func instantiate(_ folder: String, remotes: String, into destination: URL) throws {
        let source = Self.golden.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            let text = try String(contentsOf: source.appendingPathComponent(file), encoding: .utf8)
            try text.replacingOccurrences(of: "{{REMOTES}}", with: remotes)
                .write(to: destination.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
    }

    /// `vcs` from a fresh venv with vcstool pip-installed; nil (with the reason printed) where python or PyPI is unavailable.
    func installVcstool(_ sandbox: Sandbox) throws -> String? {
        let venv = sandbox.url("venv").path
        let create = try sandbox.run("/usr/bin/env", ["python3", "-m", "venv", venv], in: sandbox.root)
        guard create.status == 0 else {
            print("skipping the vcs import round trip: python3 -m venv failed: \(create.err)")
            return nil
        }
        let install = try sandbox.run("\(venv)/bin/pip", ["install", "-q", "--disable-pip-version-check", "vcstool"], in: sandbox.root)
        guard install.status == 0 else {
            print("skipping the vcs import round trip: pip install vcstool failed: \(install.err)")
            return nil
        }
        return "\(venv)/bin/vcs"
    }
}
