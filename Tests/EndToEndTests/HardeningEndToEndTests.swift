import Foundation
import Testing

/// Inputs that once crashed, hung or escaped the workspace (issue 20), run against the built binary: each ends with exit 0, 1 or 2
/// and, for bad input, a message with file:line:col.
@Suite struct HardeningEndToEndTests {
    static let commit = String(repeating: "ab", count: 20)

    /// The column (1-based, in characters) where `needle` starts on line `line` of `text`.
    func column(of needle: String, in text: String, line: Int) throws -> Int {
        let lineText = String(text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1])
        let range = try #require(lineText.range(of: needle))
        return lineText.distance(from: lineText.startIndex, to: range.lowerBound) + 1
    }

    @Test func oneCharacterPathsInNewDoNotTrap() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules:\n  - name: A\n    path: A\n", to: "a/modkit.yml")
        let nextToA = try sandbox.modkit("new", "Q", "--dir", in: "a")
        #expect(nextToA.status == 0, "\(nextToA.err)")
        #expect(try sandbox.read("a/modkit.yml").hasSuffix("  - name: Q\n    path: Q\n"))

        try sandbox.write("version: 1\nmodules: []\n", to: "b/modkit.yml")
        let empty = try sandbox.modkit("new", "Q", "--dir", in: "b")
        #expect(empty.status == 0, "\(empty.err)")
        let explicit = try sandbox.modkit("new", "Zed", "--path", "Z", in: "b")
        #expect(explicit.status == 0, "\(explicit.err)")
        #expect(try sandbox.read("b/modkit.yml") == "version: 1\nmodules:\n  - name: Q\n    path: Q\n  - name: Zed\n    path: Z\n")
        #expect(FileManager.default.fileExists(atPath: sandbox.url("b/Z/Sources/Zed/Zed.swift").path))
    }

    /// A manifest repository with one directory module and a snapshot tag `v9` whose file is `snapshot`.
    func workspaceWithSnapshot(_ snapshot: String, in sandbox: Sandbox) throws {
        try sandbox.write("version: 1\nmodules:\n  - name: Core\n    path: Libs/Core\n", to: "ws/modkit.yml")
        try sandbox.write("1.0.0\n", to: "ws/Libs/Core/VERSION")
        try sandbox.git("init", "-q", "-b", "main", "ws")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "Product", in: "ws")
        try sandbox.commitSnapshot(snapshot)
    }

    @Test func aSnapshotPathOutsideTheWorkspaceIsAnErrorAndNothingIsCloned() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        let text = """
        snapshot: v9
        created: "2026-11-30T12:00:00Z"
        modules:
          Core: { url: "file://\(sandbox.url("remotes/Core.git").path)", path: ../escaped/Core, commit: \(Self.commit) }

        """
        try workspaceWithSnapshot(text, in: sandbox)
        let result = try sandbox.modkit("checkout", "v9", in: "ws")
        #expect(result.status == 2, "\(result.out)\(result.err)")
        let place = "v9:.modkit/snapshots/v9.yml:4:\(try column(of: "../escaped", in: text, line: 4))"
        #expect(result.err.contains("\(place): error: module path '../escaped/Core' escapes the workspace"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("escaped").path))

        for (path, message) in [("/tmp/Core", "is absolute"), (".git/Core", "private directory"), ("Libs/../..", "escapes")] {
            let other = text.replacingOccurrences(of: "../escaped/Core", with: path)
            try sandbox.write(other, to: "ws/.modkit/snapshots/v9.yml")
            try sandbox.git("commit", "-qam", "Snapshot v9 again", in: "ws")
            try sandbox.git("tag", "-f", "v9", in: "ws")
            let again = try sandbox.modkit("checkout", "v9", in: "ws")
            #expect(again.status == 2 && again.err.contains("v9:.modkit/snapshots/v9.yml:4:") && again.err.contains(message), "\(path): \(again.err)")
        }
    }

    @Test func snapshotsReportsATagWhoseSnapshotFileIsInvalid() throws {
        let sandbox = try Sandbox()
        try workspaceWithSnapshot("snapshot: v9\nmodules:\n  Core: { path: Libs/Core, comit: x }\n", in: sandbox)
        let result = try sandbox.modkit("snapshots", in: "ws")
        #expect(result.status == 2, "\(result.out)\(result.err)")
        #expect(result.err.contains("tag v9"), "\(result.err)")
        #expect(result.err.contains("v9:.modkit/snapshots/v9.yml:3:28: error: unknown key 'comit' in module 'Core' (did you mean 'commit'?)"), "\(result.err)")
    }

    @Test func aOneLineSnapshotOfManyModulesReadsQuickly() throws {
        let sandbox = try Sandbox()
        let modules = (0..<2_000).map { "M\($0): {path: Libs/M\($0), version: 1.0.\($0)}" }
        try workspaceWithSnapshot("snapshot: v9\ncreated: \"2026-11-30T12:00:00Z\"\nmodules: {" + modules.joined(separator: ", ") + "}\n", in: sandbox)
        let start = Date()
        let result = try sandbox.modkit("snapshots", "--json", in: "ws")
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == 0 && result.out.contains("\"modules\" : 2000"), "\(result.out)\(result.err)")
        print("benchmark: modkit snapshots with a 2,000-module one-line snapshot: \(String(format: "%.3f", seconds)) s")
    }

    @Test func aOneLineManifestOfManyModulesReadsQuickly() throws {
        let sandbox = try Sandbox()
        let modules = (0..<2_000).map { "{name: M\($0), path: Libs/M\($0)}" }
        try sandbox.write("version: 1\nmodules: [" + modules.joined(separator: ", ") + "]\n", to: "ws/modkit.yml")
        let start = Date()
        let result = try sandbox.modkit("list", "--json", in: "ws")
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == 0 && result.out.contains("\"M1999\""), "\(result.err)")
        print("benchmark: modkit list with a 2,000-module flow-style modkit.yml: \(String(format: "%.3f", seconds)) s")
    }

    @Test func invalidUTF8IsReportedWhereItIs() throws {
        let sandbox = try Sandbox()
        try sandbox.write("", to: "ws/modkit.yml")
        let bytes = Array("version: 1\nmodules:\n  - name: Core\n    path: Libs/Core\n    revision: m".utf8) + [0xFF] + Array("in\n".utf8)
        try Data(bytes).write(to: sandbox.url("ws/modkit.yml"))
        let result = try sandbox.modkit("list", in: "ws")
        #expect(result.status == 2)
        #expect(result.err.contains("modkit.yml:5:16: error: modkit.yml is not valid UTF-8 text"), "\(result.err)")
    }

    @Test func templateErrorsExitTwoWithTheErrorPrefixOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        try sandbox.write("description: broken\nvariabels: {}\nmodules:\n  - name: X\n    folder: ../../etc\n", to: "ws/tpl/template.yml")
        let result = try sandbox.modkit("new", "Pay", "--template", "./tpl", in: "ws")
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("tpl/template.yml:2:1: error: unknown key 'variabels' in template.yml (did you mean 'variables'?)"), "\(result.err)")
        #expect(result.err.contains("tpl/template.yml:5:13: error: module folder '../../etc' must be a path inside the template"), "\(result.err)")
        for line in result.err.split(separator: "\n") {
            #expect(line.components(separatedBy: "error:").count <= 2, "\(line)")
        }
        try sandbox.write("description: [broken\n", to: "ws/tpl/template.yml")
        let syntax = try sandbox.modkit("new", "Pay", "--template", "./tpl", in: "ws")
        #expect(syntax.status == 2 && syntax.err.contains("tpl/template.yml:2:1: error: invalid YAML"), "\(syntax.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Pay").path))
    }

    @Test func emptyArgumentsAndBadJobCountsAreUsageErrors() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        for arguments in [["checkout", ""], ["start", ""], ["list", "-j", "0"], ["list", "-j", "-1"], ["status", "-j", "12345678901234567890"],
                          ["sync", "--jobs=0"], ["new", ""]] {
            let result = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
            #expect(result.status == 2, "\(arguments): \(result.err)")
            #expect(result.err.contains("usage: modkit"), "\(arguments): \(result.err)")
        }
    }

    @Test func keywordsAreNotModuleNames() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        for name in ["Self", "class", "id", "Protocol"] {
            let result = try sandbox.modkit("new", name, in: "ws")
            #expect(result.status == 2 && result.err.contains("module name '\(name)' is a"), "\(name): \(result.err)")
        }
        #expect(try sandbox.read("ws/modkit.yml") == "version: 1\nmodules: []\n")
    }

    @Test func aPodspecWithAQuoteInEveryValueIsValidRubyAndKeepsTheValues() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nworkspace: O'Shop\nmodules: []\n", to: "ws/modkit.yml")
        let values = ["summary": "Tencent's COS SDK \"fast\" #{boom} \\", "homepage": "https://example.com/o'brien", "license": "MIT's",
                      "author": "O'Brien \"OB\""]
        let result = try sandbox.modkit("new", "Cos", "--template", "pod", "--dir", "--var", "summary=\(values["summary"]!)", "--var", "homepage=\(values["homepage"]!)",
                                        "--var", "license=\(values["license"]!)", "--var", "author=\(values["author"]!)", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let podspec = sandbox.url("ws/Cos/Cos.podspec").path
        let check = try sandbox.run("/usr/bin/env", ["ruby", "-c", podspec], in: sandbox.root)
        let generated = try sandbox.read("ws/Cos/Cos.podspec")
        #expect(check.status == 0 && check.out.contains("Syntax OK"), "\(check.out)\(check.err)\n\(generated)")
        // Evaluated with a stand-in for Pod::Spec, every value reads back exactly.
        let script = """
        require 'json'
        module Pod; class Spec
          attr_reader :values
          def initialize; @values = {}; yield self; end
          def method_missing(name, *args); @values[name.to_s.chomp('=')] = args.first unless args.empty?; self; end
          def respond_to_missing?(*) = true
        end; end
        puts JSON.generate(eval(File.read(ARGV[0])).values)
        """
        try sandbox.write(script, to: "eval.rb")
        let evaluated = try sandbox.run("/usr/bin/env", ["ruby", sandbox.url("eval.rb").path, podspec], in: sandbox.root)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(evaluated.out.utf8)) as? [String: Any], "\(evaluated.err)")
        #expect(fields["summary"] as? String == values["summary"])
        #expect(fields["homepage"] as? String == values["homepage"])
        #expect((fields["license"] as? [String: String])?["type"] == values["license"])
        #expect((fields["author"] as? [String: String])?.keys.first == values["author"])
        #expect((fields["source"] as? [String: Any])?["git"] as? String == values["homepage"]! + ".git")
    }

    @Test func remoteFillsThePodSourceAndIsWrittenRelativeToTheURLBase() throws {
        let sandbox = try Sandbox()
        let base = "file://" + sandbox.url("remotes").path
        try sandbox.git("init", "-q", "ws")
        try sandbox.write("version: 1\ndefaults:\n  url-base: \(base)\nmodules: []\n", to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "--bare", "remotes/Wallet.git")
        let result = try sandbox.modkit("new", "Wallet", "--template", "pod", "--remote", base + "/Wallet.git", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(try sandbox.read("ws/modkit.yml").hasSuffix("  - name: Wallet\n    path: Wallet\n    url: Wallet.git\n"))
        #expect(try sandbox.read("ws/Wallet/Wallet.podspec").contains("s.source           = { :git => '\(base)/Wallet.git', :tag => s.version.to_s }"))
        #expect(try sandbox.git("remote", "get-url", "origin", in: "ws/Wallet") == base + "/Wallet.git")

        let noRemote = try sandbox.modkit("new", "Cards", "--template", "pod", "--repo", in: "ws")
        #expect(noRemote.status == 0, "\(noRemote.err)")
        #expect(try sandbox.read("ws/Cards/Cards.podspec").contains(":git => '\(base)/Cards.git'"))
    }

    @Test func builtInTemplatesShipAGitignore() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        for (name, template, path) in [("Pay", "swift-package", "Pay"), ("Pod", "pod", "Pod"), ("Card", "interface", "CardInterface")] {
            let result = try sandbox.modkit("new", name, "--template", template, in: "ws")
            #expect(result.status == 0, "\(result.err)")
            let ignore = try sandbox.read("ws/\(path)/.gitignore")
            #expect(ignore.contains("/.build/") && ignore.contains("/.swiftpm/") && ignore.contains("DerivedData/"), "\(path)")
        }
        #expect(FileManager.default.fileExists(atPath: sandbox.url("ws/Card/.gitignore").path))
    }

    /// `new` killed at random moments leaves nothing or a complete, registered module, and `new` afterwards works.
    @Test func killedNewLeavesNothingOrACompleteRegisteredModule() throws {
        let sandbox = try Sandbox()
        let manifest = "version: 1\nmodules: []\n"
        try sandbox.write(manifest, to: "ws/modkit.yml")
        let files = ["Package.swift", "Sources/Pay/Pay.swift", "Tests/PayTests/PayTests.swift", ".gitignore", "VERSION", "Generated/PayVersion.swift"]
        func state() throws -> (registered: Bool, present: Bool, complete: Bool, pending: Bool) {
            let text = try sandbox.read("ws/modkit.yml")
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.url("ws/.modkit/new").path)) ?? []
            return (text.contains("name: Pay"), FileManager.default.fileExists(atPath: sandbox.url("ws/Pay").path),
                    files.allSatisfy { FileManager.default.fileExists(atPath: sandbox.url("ws/Pay/\($0)").path) },
                    leftovers.contains { $0.hasSuffix(".journal") })
        }
        let start = Date()
        let first = try sandbox.modkit("new", "Pay", "--dir", in: "ws")
        let duration = Date().timeIntervalSince(start)
        #expect(first.status == 0, "\(first.err)")
        var outcomes: [String: Int] = [:]
        for _ in 0..<10 {
            try? FileManager.default.removeItem(at: sandbox.url("ws/Pay"))
            try sandbox.write(manifest, to: "ws/modkit.yml")
            let process = try sandbox.spawnModkit(["new", "Pay", "--dir"], in: "ws")
            usleep(UInt32.random(in: 0...UInt32(duration * 1_000_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            var now = try state()
            if now.pending {
                outcomes["finished by the next new", default: 0] += 1
                let next = try sandbox.modkit("new", "Pay", "--dir", in: "ws")
                #expect(next.err.contains("finished the interrupted 'modkit new Pay'"), "\(next.err)")
                now = try state()
                #expect(now.registered && now.complete && !now.pending)
                continue
            }
            #expect(now.registered == now.present && now.present == now.complete, "\(now)")
            let stray = try FileManager.default.contentsOfDirectory(atPath: sandbox.url("ws").path).filter { ![".modkit", "modkit.yml", "Pay"].contains($0) }
            #expect(stray.isEmpty, "\(stray)")
            if now.registered {
                outcomes["complete", default: 0] += 1
                let again = try sandbox.modkit("new", "Pay", "--dir", in: "ws")
                #expect(again.status == 2 && again.err.contains("already has a module named 'Pay'"), "\(again.err)")
            } else {
                outcomes["nothing", default: 0] += 1
                let again = try sandbox.modkit("new", "Pay", "--dir", in: "ws")
                #expect(again.status == 0, "\(again.err)")
                #expect(try state().complete)
            }
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.url("ws/.modkit/new").path)) ?? []
            #expect(leftovers.allSatisfy { $0 == ".gitignore" }, "\(leftovers)")
        }
        print("killed new: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) (run takes \(String(format: "%.2f", duration)) s)")
    }
}
