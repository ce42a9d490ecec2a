import Foundation
import Testing

/// Every command's `--json` against docs/json.md, on a workspace of three repository modules with bare remotes and
/// one directory module: Alpha ← Beta ← Gamma ← Tools (Tools lives in the manifest repository).
@Suite struct JSONContractEndToEndTests {
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        for (name, dependency) in [("Alpha", nil), ("Beta", "Alpha"), ("Gamma", "Beta")] as [(String, String?)] {
            try podspec(sandbox, name, dependency, to: "src/\(name)/\(name).podspec")
            try sandbox.git("init", "-q", "-b", "main", in: "src/\(name)")
            try sandbox.git("add", "-A", in: "src/\(name)")
            try sandbox.git("commit", "-qm", "feat: \(name) 1.0.0", in: "src/\(name)")
            try sandbox.git("clone", "-q", "--bare", "src/\(name)", "remotes/\(name).git")
        }
        try podspec(sandbox, "Tools", "Gamma", to: "ws/Modules/Tools/Tools.podspec")
        try sandbox.write("""
        version: 1
        workspace: Contract
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
          revision: main
        modules:
          - { name: Alpha, url: Alpha.git, path: Libs/Alpha, groups: [core] }
          - { name: Beta, url: Beta.git, path: Libs/Beta, groups: [core] }
          - { name: Gamma, url: Gamma.git, path: Libs/Gamma }
          - { name: Tools, path: Modules/Tools }
        """, to: "ws/modkit.yml")
        try sandbox.write("Libs/\n", to: "ws/.gitignore")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "Contract", in: "ws")
        try sandbox.git("clone", "-q", "--bare", "ws", "remotes/Contract.git")
        try sandbox.git("remote", "add", "origin", sandbox.url("remotes/Contract.git").path, in: "ws")
        try sandbox.git("fetch", "-q", "origin", in: "ws")
        try sandbox.git("branch", "-q", "-u", "origin/main", in: "ws")
        return sandbox
    }

    private func podspec(_ sandbox: Sandbox, _ name: String, _ dependency: String?, to path: String) throws {
        let line = dependency.map { "  s.dependency '\($0)', '~> 1.0'\n" } ?? ""
        try sandbox.write("Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '1.0.0'\n\(line)end\n", to: path)
    }

    /// Runs one command with --json, checks its output against the contract, and returns the parsed object.
    private final class Runner {
        let sandbox: Sandbox
        let contract: JSONContract
        var ran: Set<String> = []
        var problems: [String] = []

        init(_ sandbox: Sandbox, _ contract: JSONContract) {
            self.sandbox = sandbox
            self.contract = contract
        }

        @discardableResult
        func run(_ arguments: [String], in directory: String = "ws", status: Int32 = 0) throws -> [String: Any] {
            let result = try sandbox.run(Sandbox.modkitBinary.path, arguments + ["--json"], in: sandbox.url(directory))
            let line = "modkit \(arguments.joined(separator: " ")) --json"
            if result.status != status { problems.append("\(line): exit \(result.status), expected \(status): \(result.err)\(result.out.prefix(3000))") }
            guard let object = try? JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] else {
                problems.append("\(line): stdout is not one JSON object: \(result.out)\(result.err)")
                return [:]
            }
            let command = arguments[0]
            ran.insert(command)
            problems += contract.violations(of: object, command: command).map { "\(line): \($0)" }
            return object
        }
    }

    private func rows(_ object: [String: Any], _ key: String = "modules") -> [String: [String: Any]] {
        Dictionary(((object[key] as? [[String: Any]]) ?? []).map { ($0["name"] as? String ?? ".", $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func outcomes(_ object: [String: Any], _ key: String = "modules") -> [String: String] {
        rows(object, key).compactMapValues { $0["outcome"] as? String }
    }

    @Test func everyCommandPrintsWhatDocsJSONSays() throws {
        let contract = JSONContract(text: try String(contentsOf: JSONContract.file, encoding: .utf8))
        #expect(contract.outcomes.count >= 10 && contract.outcomes.contains("upToDate"))
        let sandbox = try workspace()
        let modkit = Runner(sandbox, contract)

        let sync = try modkit.run(["sync"])
        #expect(outcomes(sync) == ["Alpha": "cloned", "Beta": "cloned", "Gamma": "cloned", "Tools": "skipped"], "\(sync)")
        #expect((sync["summary"] as? [String: Int])?["cloned"] == 3)
        #expect((sync["manifest"] as? [String: Any])?["outcome"] as? String == "upToDate")
        let list = try modkit.run(["list"])
        #expect(rows(list)["Beta"]?["path"] as? String == "Libs/Beta")
        var status = try modkit.run(["status"])
        #expect(outcomes(status) == ["Alpha": "clean", "Beta": "clean", "Gamma": "clean", "Tools": "clean"], "\(status)")
        try modkit.run(["graph"])
        try modkit.run(["doctor"])
        try modkit.run(["snapshots"])
        let guardCheck = try modkit.run(["guard", "--check"], status: 1)
        #expect(guardCheck["dryRun"] as? Bool == true && outcomes(guardCheck)["Alpha"] == "updated", "\(guardCheck)")
        let pinCheck = try modkit.run(["pin", "--check"], status: 1)
        let pinned = ((pinCheck["files"] as? [[String: Any]]) ?? []).filter { $0["outcome"] as? String == "updated" }.compactMap { $0["path"] as? String }
        #expect(pinned.contains("Libs/Beta/Beta.podspec") && pinned.contains("Modules/Tools/Tools.podspec"), "\(pinCheck)")
        try modkit.run(["pin", "--dry-run"])

        let start = try modkit.run(["start", "topic", "Alpha", "Beta"])
        #expect(outcomes(start) == ["Alpha": "created", "Beta": "created"] && start["branch"] as? String == "topic", "\(start)")
        try sandbox.write("one\n", to: "ws/Libs/Alpha/one.txt")
        try sandbox.git("add", "-A", in: "ws/Libs/Alpha")
        try sandbox.git("commit", "-qm", "fix: one", in: "ws/Libs/Alpha")
        status = try modkit.run(["status"])
        #expect(rows(status)["Alpha"]?["outcome"] as? String == "changed" && rows(status)["Alpha"]?["unpushed"] as? Int == 1, "\(status)")
        let branches = try modkit.run(["branches"])
        #expect((rows(branches)["Alpha"]?["branches"] as? [[String: Any]])?.first?["unpushed"] as? Int == 1, "\(branches)")
        let push = try modkit.run(["push"])
        #expect(outcomes(push)["Alpha"] == "pushed" && outcomes(push)["Beta"] == "skipped", "\(push)")

        let tag = try modkit.run(["tag", "v1", "--push"])
        #expect(Set(outcomes(tag).values) == ["created"] && (tag["manifest"] as? [String: Any])?["outcome"] as? String == "created", "\(tag)")
        #expect(((tag["pushes"] as? [[String: Any]]) ?? []).allSatisfy { $0["outcome"] as? String == "pushed" }, "\(tag)")
        let again = try modkit.run(["tag", "v1"])
        #expect(Set(outcomes(again).values) == ["upToDate"], "\(again)")
        try modkit.run(["snapshots"])
        try modkit.run(["diff", "v1"])
        let affected = try modkit.run(["affected", "--since", "v1"])
        #expect(affected["modules"] as? [String] == [], "\(affected)")
        let forall = try modkit.run(["forall", "-c", "echo hi"])
        #expect(outcomes(forall) == ["Alpha": "ok", "Beta": "ok", "Gamma": "ok", "Tools": "ok"], "\(forall)")
        let checkout = try modkit.run(["checkout", "v1"])
        #expect(Set(outcomes(checkout).values).isSubset(of: ["updated", "upToDate"]), "\(checkout)")
        try sandbox.git("checkout", "-q", "main", in: "ws")
        let abandon = try modkit.run(["abandon", "topic"])
        #expect(outcomes(abandon)["Alpha"] == "deleted" && outcomes(abandon)["Beta"] == "deleted", "\(abandon)")
        try modkit.run(["prune"])
        let rebase = try modkit.run(["sync", "--rebase"])
        #expect(outcomes(rebase).values.allSatisfy { ["updated", "upToDate", "skipped"].contains($0) }, "\(rebase)")
        try modkit.run(["release", "2024.1", "--plan"])
        let api = try modkit.run(["api"])
        #expect((api["modules"] as? [Any])?.isEmpty == true, "no interface module here: \(api)")
        let release = try modkit.run(["release", "2024.1", "--dry-run"])
        #expect(release["dryRun"] as? Bool == true && !((release["steps"] as? [[String: Any]]) ?? []).isEmpty, "\(release)")
        let written = try modkit.run(["guard"])
        #expect(outcomes(written)["Alpha"] == "updated", "\(written)")
        try modkit.run(["new", "--list-templates"])
        try modkit.run(["new", "Payments", "--dir", "--dry-run"])
        let develop = try modkit.run(["develop", "Alpha"])
        #expect((develop["overrides"] as? [[String: Any]])?.first?["module"] as? String == "Alpha", "\(develop)")
        try modkit.run(["develop", "--off"])

        try sandbox.git("clone", "-q", sandbox.url("remotes/Alpha.git").path, "fresh/Alpha")
        let initialized = try modkit.run(["init"], in: "fresh")
        #expect(rows(initialized)["Alpha"]?["path"] as? String == "Alpha", "\(initialized)")

        // Errors: one shape, with the file position when there is one.
        let unknown = try modkit.run(["status", "Nope"], status: 2)
        #expect(((unknown["errors"] as? [[String: Any]])?.first?["message"] as? String)?.contains("Nope") == true, "\(unknown)")
        try sandbox.write("version: 1\nworkspace: Broken\nmodules:\n  - { name: A, path: A, url: }\n", to: "broken/modkit.yml")
        let broken = try modkit.run(["list"], in: "broken", status: 2)
        let first = (broken["errors"] as? [[String: Any]])?.first
        #expect(first?["file"] as? String == "modkit.yml" && (first?["line"] as? Int ?? 0) > 0 && (first?["column"] as? Int ?? 0) > 0, "\(broken)")
        for command in ["export", "completion"] {
            let refused = try sandbox.modkit(command, "--json", in: "ws")
            #expect(refused.status == 2 && refused.err.hasPrefix("modkit: error:"), "\(command): \(refused.err)")
        }

        #expect(modkit.problems.isEmpty, "\(modkit.problems.joined(separator: "\n"))")
        let help = try sandbox.modkit("--help").out
        let listed = Set(help.split(separator: "\n").drop { !$0.hasPrefix("COMMANDS:") }.dropFirst().prefix { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(Set(contract.commands.keys) == listed.subtracting(["export", "completion", "help"]), "\(listed)")
        #expect(modkit.ran == Set(contract.commands.keys), "not run: \(Set(contract.commands.keys).subtracting(modkit.ran))")
    }
}

/// The checker itself: what it must refuse.
@Suite struct JSONContractCheckerTests {
    @Test func undocumentedKeysAbsolutePathsAndUnknownOutcomesAreCaught() throws {
        let contract = JSONContract(text: try String(contentsOf: JSONContract.file, encoding: .utf8))
        let printed: [String: Any] = [
            "schema": 1, "command": "sync", "summary": ["up to date": 1],
            "modules": [["name": "A", "path": "/abs/A", "outcome": "up to date", "detail": "", "Up To": 1, "extra": true]],
        ]
        let problems = contract.violations(of: printed, command: "sync").joined(separator: "\n")
        for expected in ["sync modules[]: 'path' is absolute", "sync modules[]: 'outcome' should be an outcome", "sync modules[]: key 'Up To' is not lowerCamelCase",
                         "sync modules[]: key 'extra' is not in docs/json.md", "'orphaned' is missing", "'summary.up to date' is not an outcome count"] {
            #expect(problems.contains(expected), "\(expected) not in:\n\(problems)")
        }
        #expect(contract.violations(of: ["schema": 2, "command": "sync", "modules": [], "orphaned": [], "summary": [:]], command: "sync")
            == ["sync: schema is not 1"])
    }
}
