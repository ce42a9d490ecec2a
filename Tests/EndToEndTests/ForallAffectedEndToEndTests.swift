import Foundation
import Testing

/// `modkit forall` streaming, stdin, `--topo` and `--affected`, and `modkit affected`, run as the binary.
@Suite struct ForallAffectedEndToEndTests {
    /// Core ← Net ← UI (Core and Net repository modules, UI a directory module), Logger ← Analytics, Standalone.
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        for (name, dependencies) in [("Core", [String]()), ("Net", ["Core"])] {
            try podspec(sandbox, name, dependencies, to: "src/\(name)/\(name).podspec")
            try sandbox.git("init", "-q", "-b", "main", in: "src/\(name)")
            try sandbox.git("add", "-A", in: "src/\(name)")
            try sandbox.git("commit", "-qm", "\(name) 1.0.0", in: "src/\(name)")
            try sandbox.git("clone", "-q", "--bare", "src/\(name)", "remotes/\(name).git")
        }
        for (name, dependencies) in [("UI", ["Net"]), ("Logger", []), ("Analytics", ["Logger"]), ("Standalone", [])] {
            try podspec(sandbox, name, dependencies, to: "ws/Modules/\(name)/\(name).podspec")
        }
        try sandbox.write("""
        version: 1
        workspace: Flow
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
          revision: main
        modules:
          - { name: Core, url: Core.git, path: Libs/Core }
          - { name: Net, url: Net.git, path: Libs/Net }
          - { name: UI, path: Modules/UI }
          - { name: Logger, path: Modules/Logger }
          - { name: Analytics, path: Modules/Analytics }
          - { name: Standalone, path: Modules/Standalone }
        """, to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.status == 0, "\(sync.err)")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "workspace", in: "ws")
        let tag = try sandbox.modkit("tag", "v1", in: "ws")
        #expect(tag.status == 0, "\(tag.err)")
        return sandbox
    }

    private func podspec(_ sandbox: Sandbox, _ name: String, _ dependencies: [String], to path: String) throws {
        let lines = dependencies.map { "  s.dependency '\($0)'\n" }.joined()
        try sandbox.write("Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '1.0.0'\n\(lines)end\n", to: path)
    }

    /// A root module (Core) and a leaf (Analytics) change after the snapshot v1.
    private func changeRootAndLeaf(_ sandbox: Sandbox) throws {
        try sandbox.write("// changed\n", to: "ws/Libs/Core/Change.swift")
        try sandbox.git("add", "-A", in: "ws/Libs/Core")
        try sandbox.git("commit", "-qm", "fix: core", in: "ws/Libs/Core")
        try sandbox.write("// changed\n", to: "ws/Modules/Analytics/Change.swift")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "feat: analytics", in: "ws")
    }

    private struct AffectedJSON: Decodable {
        struct Entry: Decodable { var module: String; var path: String; var reason: String }
        var schema: Int
        var since: String
        var modules: [String]
        var include: [Entry]
    }

    @Test func affectedListsChangedModulesAndTheirDependentsInDependencyOrder() throws {
        let sandbox = try workspace()
        let before = try sandbox.modkit("affected", "--since", "v1", "-q", in: "ws")
        #expect(before.status == 0, "\(before.err)")
        #expect(before.out == "")
        try changeRootAndLeaf(sandbox)

        for since in ["v1", "origin/main"] {
            // origin/main: the module repositories' remote branch (no new commit pushed) and, in the manifest
            // repository, a branch that stays at the snapshot.
            if since == "origin/main" {
                try sandbox.git("update-ref", "refs/remotes/origin/main", "v1^", in: "ws")
            }
            let result = try sandbox.modkit("affected", "--since", since, "--json", in: "ws")
            #expect(result.status == 0, "\(result.err)")
            #expect(result.out.split(separator: "\n").count == 1, "--json must be one line for $GITHUB_OUTPUT")
            let report = try JSONDecoder().decode(AffectedJSON.self, from: Data(result.out.utf8))
            #expect(report.schema == 1)
            #expect(report.since == since)
            #expect(report.modules == ["Core", "Net", "Analytics", "UI"])
            #expect(report.include.map(\.reason) == ["changed", "dependency", "changed", "dependency"])
            #expect(report.include.map(\.path) == ["Libs/Core", "Libs/Net", "Modules/Analytics", "Modules/UI"])
        }
        // Without --since: the newest snapshot.
        #expect(try sandbox.modkit("affected", "-q", in: "ws").out == "Core\nNet\nAnalytics\nUI\n")

        let forall = try sandbox.modkit("forall", "--affected", "v1", "--topo", "-c", "echo ran", in: "ws")
        #expect(forall.status == 0, "\(forall.err)")
        let ran = forall.out.split(separator: "\n").compactMap { line in line.hasSuffix("ran") ? line.split(separator: ":").first.map(String.init) : nil }
        #expect(Set(ran) == ["Core", "Net", "Analytics", "UI"] && ran.count == 4, "\(forall.out)")
        let position = { (name: String) in ran.firstIndex(of: name) ?? -1 }
        #expect(position("Core") < position("Net") && position("Net") < position("UI"), "\(ran)")
    }

    @Test func topoRunsDependenciesFirstAndAFailureStopsOnlyItsDependents() throws {
        let sandbox = try workspace()
        let log = sandbox.url("order.log").path
        let command = "echo start $MODKIT_MODULE >> \(log); sleep 0.1; echo end $MODKIT_MODULE >> \(log)"
        let result = try sandbox.modkit("forall", "--topo", "-j", "4", "-c", command, in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 12)
        for (dependent, dependency) in [("Net", "Core"), ("UI", "Net"), ("Analytics", "Logger")] {
            let end = try #require(lines.firstIndex(of: "end \(dependency)"))
            let start = try #require(lines.firstIndex(of: "start \(dependent)"))
            #expect(end < start, "\(dependent) started before \(dependency) ended: \(lines)")
        }

        let failing = try sandbox.modkit("forall", "--topo", "-c", "[ \"$MODKIT_MODULE\" != Net ] || exit 3; echo ok", in: "ws")
        #expect(failing.status == 1)
        let ok = Set(failing.out.split(separator: "\n").filter { $0.hasSuffix("ok") }.compactMap { $0.split(separator: ":").first.map(String.init) })
        #expect(ok == ["Core", "Logger", "Analytics", "Standalone"])
        #expect(failing.err.contains("Net: the command exited with 3"))
        #expect(failing.err.contains("UI: not run: its dependency Net did not succeed"))
    }

    @Test func oneJobReadsStandardInput() throws {
        let sandbox = try workspace()
        let process = Process()
        process.executableURL = Sandbox.modkitBinary
        process.arguments = ["forall", "-j", "1", "-c", "read x; echo got $x", "Core", "Net"]
        process.currentDirectoryURL = sandbox.url("ws")
        process.environment = sandbox.environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("first\nsecond\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text == "== Core (Libs/Core)\ngot first\n== Net (Libs/Net)\ngot second\n", "\(text)")
    }

    @Test func linesStreamWithAPrefixWhileACommandIsStillRunning() throws {
        let sandbox = try workspace()
        let gate = sandbox.url("gate").path
        // Core prints a line, then waits (at most 20 s) until the test opens the gate; the others finish at once.
        let command = "echo first; if [ \"$MODKIT_MODULE\" = Core ]; then i=0; while [ ! -f \(gate) ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; fi; echo second"
        let process = Process()
        process.executableURL = Sandbox.modkitBinary
        process.arguments = ["forall", "-j", "4", "-c", command]
        process.currentDirectoryURL = sandbox.url("ws")
        process.environment = sandbox.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()

        var seen = ""
        let reader = output.fileHandleForReading
        while !seen.contains("Core:       first\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        #expect(seen.contains("Core:       first\n"), "\(seen)")
        #expect(process.isRunning, "the first line arrived only after modkit finished")
        #expect(!seen.contains("Core:       second"))
        FileManager.default.createFile(atPath: gate, contents: nil)
        seen += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(seen.contains("Core:       second\n"))
        #expect(seen.contains("Standalone: first\nStandalone: second\n") || seen.contains("Standalone: second\n"))

        let grouped = try sandbox.modkit("forall", "--group-output", "-c", "echo one; echo two", "Core", in: "ws")
        #expect(grouped.out == "== Core (Libs/Core)\none\ntwo\n")
    }
}
