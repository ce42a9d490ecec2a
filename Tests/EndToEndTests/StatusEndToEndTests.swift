import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `modkit status` and `modkit list` run as a binary against real repositories.
@Suite struct StatusEndToEndTests {
    /// Three module repositories: Alpha with a modified file, Beta with one local commit, Gamma not cloned.
    func makeWorkspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        for (name, version) in [("Alpha", "1.0.0"), ("Beta", "2.1.0"), ("Gamma", "0.3.0")] {
            try sandbox.makeRemote(name, version: version)
        }
        try sandbox.write("""
        version: 1
        workspace: Demo
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
        modules:
          - name: Alpha
            url: Alpha.git
            path: Libs/Alpha
            groups: [core]
          - name: Beta
            url: Beta.git
            path: Libs/Beta
          - name: Gamma
            url: Gamma.git
            path: Libs/Gamma
        """, to: "ws/modkit.yml")
        try sandbox.git("clone", "-q", sandbox.url("remotes/Alpha.git").path, "ws/Libs/Alpha")
        try sandbox.git("clone", "-q", sandbox.url("remotes/Beta.git").path, "ws/Libs/Beta")
        try sandbox.write("public enum Alpha { static let edited = true }\n", to: "ws/Libs/Alpha/Sources/Alpha/Alpha.swift")
        try sandbox.write("local\n", to: "ws/Libs/Beta/NOTES.md")
        try sandbox.git("add", "NOTES.md", in: "ws/Libs/Beta")
        try sandbox.git("commit", "-qm", "Local note", in: "ws/Libs/Beta")
        return sandbox
    }

    @Test func jsonReportsModifiedAheadAndNotCloned() throws {
        let sandbox = try makeWorkspace()
        let result = try sandbox.modkit("status", "--json", in: "ws/Libs/Alpha/Sources")
        #expect(result.status == 0, "\(result.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(report["schema"] as? Int == 1)
        let modules = try #require(report["modules"] as? [[String: Any]])
        #expect(modules.map { $0["name"] as? String } == ["Alpha", "Beta", "Gamma"])

        let alpha = modules[0]
        #expect(alpha["outcome"] as? String == "changed")
        #expect(alpha["branch"] as? String == "main")
        #expect(alpha["upstream"] as? String == "origin/main")
        #expect(alpha["modified"] as? Int == 1)
        #expect(alpha["staged"] as? Int == 0)
        #expect(alpha["untracked"] as? Int == 0)
        #expect(alpha["ahead"] as? Int == 0)
        #expect(alpha["behind"] as? Int == 0)
        #expect(alpha["version"] as? String == "1.0.0")
        #expect(alpha["commit"] as? String == (try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/Alpha")))

        let beta = modules[1]
        #expect(beta["outcome"] as? String == "changed")
        #expect(beta["ahead"] as? Int == 1)
        #expect(beta["behind"] as? Int == 0)
        #expect(beta["modified"] as? Int == 0)
        #expect(beta["version"] as? String == "2.1.0")
        #expect(beta["commit"] as? String == (try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/Beta")))

        let gamma = modules[2]
        #expect(gamma["outcome"] as? String == "notCloned")
        #expect(gamma["commit"] == nil)
    }

    @Test func textIsReadableAndFoldsCleanModules() throws {
        let sandbox = try makeWorkspace()
        let result = try sandbox.modkit("status", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "Demo: 3 modules")
        let alpha = try #require(lines.first { $0.contains("Alpha") })
        #expect(alpha.contains("Libs/Alpha") && alpha.contains("main → origin/main") && alpha.contains("1 modified") && alpha.contains("1.0.0"))
        let beta = try #require(lines.first { $0.contains("Beta") })
        #expect(beta.contains("ahead 1") && !beta.contains("modified"))
        let gamma = try #require(lines.first { $0.contains("Gamma") })
        #expect(gamma.contains("not cloned") && gamma.contains("modkit sync"))

        // Once Alpha's edit is undone it is clean and folded unless -v.
        try sandbox.git("checkout", "--", ".", in: "ws/Libs/Alpha")
        let folded = try sandbox.modkit("status", in: "ws")
        #expect(!folded.out.contains("Libs/Alpha"))
        #expect(folded.out.contains("1 clean module not shown (-v lists them)"))
        let verbose = try sandbox.modkit("status", "-v", in: "ws")
        #expect(verbose.out.contains("Libs/Alpha"))
    }

    @Test func listShowsResolvedURLsAndSelectsByGroupAndName() throws {
        let sandbox = try makeWorkspace()
        let result = try sandbox.modkit("list", "--json", "-g", "core", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(report["schema"] as? Int == 1)
        let modules = try #require(report["modules"] as? [[String: Any]])
        #expect(modules.count == 1)
        #expect(modules.first?["name"] as? String == "Alpha")
        #expect(modules.first?["url"] as? String == "file://\(sandbox.url("remotes").path)/Alpha.git")
        #expect(modules.first?["version"] as? String == "1.0.0")

        let text = try sandbox.modkit("list", "Beta", "Gamma", in: "ws")
        #expect(text.status == 0)
        #expect(text.out.split(separator: "\n").count == 3)
        #expect(text.out.contains("Libs/Gamma") && !text.out.contains("Libs/Alpha"))

        let unknown = try sandbox.modkit("list", "Betta", in: "ws")
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("Betta"))
    }

    @Test func noManifestIsAUsageErrorWithAHint() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.modkit("status", in: "empty")
        #expect(result.status == 2)
        #expect(result.err.contains("modkit: error: no modkit.yml found in"))
        #expect(result.err.contains("modkit init"))
    }
}

@Suite struct InterruptEndToEndTests {
    @Test func ctrlCExitsWith130AndTheNextSyncCompletes() throws {
        let sandbox = try Sandbox()
        let names = Sandbox.moduleNames(30)
        try sandbox.makeHeavyRemotes(names, lines: 3000)
        try sandbox.writeManifest(names.map { ($0, nil) })
        let process = try sandbox.spawnModkit(["sync", "-j", "2"], in: "ws")
        let lock = sandbox.url("ws/.modkit/lock").path
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: lock) { usleep(1_000) }
        usleep(50_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "exit \(process.terminationStatus)")
        #expect(process.terminationReason == .exit)

        let again = try sandbox.modkit("sync", in: "ws")
        #expect(again.status == 0, "\(again.err)")
        for name in names { #expect(try sandbox.head(of: name) == sandbox.remoteHead(name)) }
        #expect(try sandbox.strayEntries(expected: names).isEmpty)
    }
}
