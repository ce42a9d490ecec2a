import Foundation
import Testing

@Suite struct ManifestErrorEndToEndTests {
    @Test func sixMistakesAreReportedTogetherWithExitTwo() throws {
        let sandbox = try Sandbox()
        try sandbox.write("""
        version: 1
        workspace: Broken
        modules:
          - name: Core
            url: Core.git
            path: Libs/Core
            revison: develop
          - name: Core
            url: Other.git
            path: Libs/Other
          - name: Escape
            url: Escape.git
            path: ../outside
          - name: 9/Lives
            url: Lives.git
            path: Libs/Lives
          - name: NoPath
            url: NoPath.git
          - name: Dup
            url: Dup.git
            url: Dup2.git
            path: Libs/Dup
        """, to: "ws/modkit.yml")
        let result = try sandbox.modkit("list", in: "ws")
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        let errors = result.err.split(separator: "\n").filter { $0.hasPrefix("modkit.yml:") && $0.contains(": error: ") }
        #expect(errors.count == 6, "\(result.err)")
        #expect(result.err.contains("modkit.yml:7:5: error: unknown key 'revison' in module 'Core' (did you mean 'revision'?)"))
        #expect(result.err.contains("modkit.yml:8:11: error:"))
        #expect(result.err.contains("modkit.yml:13:11: error:"))
        #expect(result.err.contains("modkit.yml:14:11: error:"))
        #expect(result.err.contains("modkit.yml:21:5: error: duplicate key"))
        #expect(errors.contains { $0.hasPrefix("modkit.yml:17:") }, "\(result.err)")
    }

    @Test func yamlSyntaxErrorHasLineAndColumn() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules:\n  - name: [Core\n    path: Libs/Core\n", to: "ws/modkit.yml")
        let result = try sandbox.modkit("status", in: "ws")
        #expect(result.status == 2)
        let errors = result.err.split(separator: "\n").filter { $0.hasPrefix("modkit.yml:") }
        #expect(errors.count == 1, "\(result.err)")
    }
}

@Suite struct InitEndToEndTests {
    @Test func initRecordsRepositoriesWithURLsAndBranchesThenRefusesToOverwrite() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.makeRemote("Network", branch: "develop")
        try sandbox.git("init", "-q", "ws")
        try sandbox.git("clone", "-q", sandbox.url("remotes/Core.git").path, "ws/Libs/Core")
        try sandbox.git("clone", "-q", sandbox.url("remotes/Network.git").path, "ws/Libs/Network")
        try sandbox.git("checkout", "-q", "-b", "feature/retry", in: "ws/Libs/Network")

        let result = try sandbox.modkit("init", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let manifest = try sandbox.read("ws/modkit.yml")
        #expect(manifest.contains("version: 1"))
        #expect(manifest.contains("  url-base: \(sandbox.url("remotes").path)"))
        #expect(manifest.contains("  - name: Core\n    url: Core.git\n    path: Libs/Core\n"))
        #expect(manifest.contains("  - name: Network\n    url: Network.git\n    path: Libs/Network\n    revision: feature/retry\n")
                || manifest.contains("  - name: Core\n    url: Core.git\n    path: Libs/Core\n    revision: main\n"))
        #expect(manifest.contains("# "), "the manifest is commented")
        let ignore = try sandbox.read("ws/.gitignore")
        #expect(ignore.contains("/Libs/Core/\n") && ignore.contains("/Libs/Network/\n"))

        let list = try sandbox.modkit("list", "--json", in: "ws")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let modules = try #require(report["modules"] as? [[String: Any]])
        #expect(modules.compactMap { $0["name"] as? String } == ["Core", "Network"])
        #expect(modules.compactMap { $0["url"] as? String } == [
            sandbox.url("remotes/Core.git").path, sandbox.url("remotes/Network.git").path,
        ])

        let before = try sandbox.read("ws/modkit.yml")
        let again = try sandbox.modkit("init", in: "ws")
        #expect(again.status == 2)
        #expect(again.err.contains("already exists"))
        #expect(try sandbox.read("ws/modkit.yml") == before)
    }
}
