import Foundation
import Testing

extension Sandbox {
    /// Names Mod01…ModNN for a fixture of `count` module repositories.
    static func moduleNames(_ count: Int) -> [String] {
        (1...count).map { String(format: "Mod%02d", $0) }
    }

    /// Remotes whose clones take long enough to be interrupted mid-way: each gets a `lines`-line payload commit.
    func makeHeavyRemotes(_ names: [String], lines: Int) throws {
        let fixture = try FixtureCache.directory(for: ["heavy", String(lines)] + names) { built in
            for name in names {
                try built.makeRemote(name)
                try built.write(String(repeating: "\(name) payload line\n", count: lines), to: "src/\(name)/Payload.txt")
                try built.pushNewCommit(name, file: "Payload.txt", text: "end\n")
            }
        }
        try copyFixture(fixture)
    }

    /// Writes `ws/modkit.yml` listing the modules (name, revision) under `Libs/`, urls relative to `urlBase`.
    func writeManifest(_ modules: [(name: String, revision: String?)], urlBase: String? = nil) throws {
        let base = urlBase ?? "file://\(url("remotes").path)"
        var text = "version: 1\nworkspace: Fixture\ndefaults:\n  url-base: \(base)\n  revision: main\nmodules:\n"
        for module in modules {
            text += "  - name: \(module.name)\n    url: \(module.name).git\n    path: Libs/\(module.name)\n"
            if let revision = module.revision { text += "    revision: \(revision)\n" }
        }
        try write(text, to: "ws/modkit.yml")
    }

    /// Adds a commit to a module's source repository and pushes it to its bare remote; returns the new commit.
    @discardableResult
    func pushNewCommit(_ name: String, file: String = "CHANGES.md", text: String = "more\n") throws -> String {
        let work = "src/\(name)"
        let path = url("\(work)/\(file)")
        let old = (try? String(contentsOf: path, encoding: .utf8)) ?? ""
        try write(old + text, to: "\(work)/\(file)")
        try git("add", "-A", in: work)
        try git("commit", "-qm", "Change \(file)", in: work)
        try git("push", "-q", url("remotes/\(name).git").path, "HEAD", in: work)
        return try git("rev-parse", "HEAD", in: work)
    }

    func head(of module: String) throws -> String { try git("rev-parse", "HEAD", in: "ws/Libs/\(module)") }

    func remoteHead(_ module: String, _ ref: String = "main") throws -> String {
        try git("--git-dir", url("remotes/\(module).git").path, "rev-parse", "\(ref)^{commit}")
    }

    /// Decodes `modkit sync --json`.
    func syncJSON(_ result: ProcessResult) throws -> (modules: [[String: Any]], summary: [String: Int]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out)\n\(result.err)")
        let modules = try #require(object["modules"] as? [[String: Any]])
        let summary = try #require(object["summary"] as? [String: Int])
        return (modules, summary)
    }

    /// Entries in `ws/Libs` that are not module directories (staging leftovers and the like).
    func strayEntries(expected: [String]) throws -> [String] {
        let entries = try FileManager.default.contentsOfDirectory(atPath: url("ws/Libs").path)
        return entries.filter { !expected.contains($0) }.sorted()
    }
}
