import Foundation
import Testing

/// `modkit sync` fast-forwards the manifest repository first and syncs what the new modkit.yml lists.
@Suite struct ManifestUpdateEndToEndTests {
    /// A manifest repository pushed to `remotes/manifest.git` with one module, cloned as `ws` and as `teammate`.
    private func workspaces() throws -> Sandbox {
        let sandbox = try Sandbox()
        for name in ["Alpha", "Beta"] { try sandbox.makeRemote(name) }
        try sandbox.write("""
        version: 1
        workspace: Team
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
          revision: main
        modules:
          - { name: Alpha, url: Alpha.git, path: Alpha }

        """, to: "seed/modkit.yml")
        try sandbox.write("/Alpha/\n/Beta/\n", to: "seed/.gitignore")
        try sandbox.git("init", "-q", "-b", "main", in: "seed")
        try sandbox.git("add", "-A", in: "seed")
        try sandbox.git("commit", "-qm", "manifest", in: "seed")
        try sandbox.git("clone", "-q", "--bare", "seed", "remotes/manifest.git")
        try sandbox.git("clone", "-q", sandbox.url("remotes/manifest.git").path, "ws")
        try sandbox.git("clone", "-q", sandbox.url("remotes/manifest.git").path, "teammate")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        return sandbox
    }

    private func teammateAddsBeta(_ sandbox: Sandbox) throws {
        let manifest = try sandbox.read("teammate/modkit.yml") + "  - { name: Beta, url: Beta.git, path: Beta }\n"
        try sandbox.write(manifest, to: "teammate/modkit.yml")
        try sandbox.git("commit", "-qam", "Add Beta", in: "teammate")
        try sandbox.git("push", "-q", "origin", "main", in: "teammate")
    }

    @Test func syncPicksUpAModkitYmlChangePushedByAnotherClone() throws {
        let sandbox = try workspaces()
        try teammateAddsBeta(sandbox)
        let sync = try sandbox.modkit("sync", "--json", in: "ws")
        #expect(sync.status == 0, "\(sync.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(sync.out.utf8)) as? [String: Any])
        let manifest = try #require(report["manifest"] as? [String: Any])
        #expect(manifest["outcome"] as? String == "updated")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == (try sandbox.git("rev-parse", "HEAD", in: "teammate")))
        #expect(try sandbox.read("ws/modkit.yml") == (try sandbox.read("teammate/modkit.yml")))
        #expect(FileManager.default.fileExists(atPath: sandbox.url("ws/Beta/Beta.podspec").path))
        let modules = try #require(report["modules"] as? [[String: Any]])
        #expect(modules.compactMap { $0["name"] as? String }.sorted() == ["Alpha", "Beta"])
    }

    @Test func localEditsOfTheManifestAreNeverOverwritten() throws {
        let sandbox = try workspaces()
        try teammateAddsBeta(sandbox)
        let before = try sandbox.git("rev-parse", "HEAD", in: "ws")
        let edited = try sandbox.read("ws/modkit.yml") + "# my local note\n"
        try sandbox.write(edited, to: "ws/modkit.yml")
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.err.contains("manifest repository: local changes to files the update changes"), "\(sync.err)")
        #expect(try sandbox.read("ws/modkit.yml") == edited)
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == before)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Beta").path))

        // --no-manifest-update leaves it alone without a word.
        try sandbox.git("checkout", "--", "modkit.yml", in: "ws")
        let skipped = try sandbox.modkit("sync", "--no-manifest-update", in: "ws")
        #expect(skipped.status == 0 && !skipped.err.contains("manifest repository"), "\(skipped.err)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == before)
    }
}
