import Foundation
import Testing

/// `modkit new` end to end: generated packages built and tested with the real toolchain, repositories pushed, git and broken templates, the installed binary.
@Suite struct NewEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func swift(_ sandbox: Sandbox, _ arguments: String..., in directory: String) throws -> ProcessResult {
        try sandbox.run("/usr/bin/env", ["swift"] + arguments + ["--scratch-path", sandbox.url("scratch-\(directory.split(separator: "/").last!)").path],
                        in: sandbox.url(directory))
    }

    @Test(.timeLimit(.minutes(10)))
    func swiftPackageModuleBuildsTestsIsListedAndTheManifestOnlyGainsItsEntry() throws {
        let sandbox = try Sandbox()
        let original = try String(contentsOf: Self.packageRoot.appendingPathComponent("Tests/ModKitTests/ScaffoldGolden/commented.in.yml"), encoding: .utf8)
        try sandbox.write(original, to: "ws/modkit.yml")
        let result = try sandbox.modkit("new", "Payments", "--template", "swift-package", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        // A directory module goes next to the workspace's other directory modules (COSXML), not among the clones in Libs/.
        #expect(result.out.contains("Created Payments 0.1.0 (directory module) at BusinessComponents/Payments"))

        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let after = try #require(lines.firstIndex { $0.contains("# pinned by hand") })
        lines.insert(contentsOf: ["", "    -   name: Payments", "        path: BusinessComponents/Payments"], at: after + 1)
        #expect(try sandbox.read("ws/modkit.yml") == lines.joined(separator: "\n"))

        let list = try sandbox.modkit("list", "Payments", "--json", in: "ws")
        #expect(list.status == 0 && list.out.contains("\"version\" : \"0.1.0\""), "\(list.out)\(list.err)")
        #expect(FileManager.default.fileExists(atPath: sandbox.url("ws/BusinessComponents/Payments/Generated/PaymentsVersion.swift").path))

        let build = try swift(sandbox, "build", in: "ws/BusinessComponents/Payments")
        #expect(build.status == 0, "\(build.out)\(build.err)")
        let test = try swift(sandbox, "test", in: "ws/BusinessComponents/Payments")
        #expect(test.status == 0, "\(test.out)\(test.err)")
        #expect((test.out + test.err).contains("Executed 1 test, with 0 failures"))
    }

    /// A package name with a hyphen: guard symbols and template identifiers use the derived identifier, which is the
    /// module name SwiftPM gives the target (`swift-wallet` → `swift_wallet`), so the package builds.
    @Test(.timeLimit(.minutes(10)))
    func aHyphenatedPackageNameBuildsWithItsDerivedIdentifier() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nworkspace: W\nmodules:\n  - name: Core\n    path: Modules/Core\n", to: "ws/modkit.yml")
        let result = try sandbox.modkit("new", "swift-wallet", "--template", "swift-package", "--dir", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let root = "ws/Modules/swift-wallet"
        #expect(try sandbox.read(root + "/Generated/swift_walletVersion.swift").contains("public enum swift_walletModuleVersion"))
        #expect(try sandbox.read(root + "/Sources/swift-wallet/swift-wallet.swift").contains("swift_walletModuleVersion.string"))
        let build = try swift(sandbox, "build", in: root)
        #expect(build.status == 0, "\(build.out)\(build.err)")
    }

    @Test(.timeLimit(.minutes(10)))
    func interfaceTemplateCreatesBothModulesAndTheImplementationBuildsAgainstTheInterface() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules:\n  - name: Core\n    path: Modules/Core\n", to: "ws/modkit.yml")
        let result = try sandbox.modkit("new", "Payments", "--template", "interface", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(try sandbox.read("ws/modkit.yml").hasSuffix("  - name: PaymentsInterface\n    path: Modules/PaymentsInterface\n  - name: Payments\n    path: Modules/Payments\n    implements: PaymentsInterface\n"))
        let list = try sandbox.modkit("list", "--json", in: "ws")
        #expect(list.out.contains("\"implements\" : \"PaymentsInterface\"") || list.out.contains("\"implements\":\"PaymentsInterface\""), "\(list.out)")
        let graph = try sandbox.modkit("graph", in: "ws")
        #expect(graph.out.contains("implements PaymentsInterface"), "\(graph.out)")
        let graphJSON = try sandbox.modkit("graph", "--json", in: "ws")
        #expect(graphJSON.out.filter { !$0.isWhitespace }.contains("\"implements\":{\"Payments\":\"PaymentsInterface\"}"), "\(graphJSON.out)")
        let guardFile = try sandbox.read("ws/Modules/Payments/Generated/PaymentsVersion.swift")
        #expect(guardFile.contains("requires PaymentsInterface 0.1 (interface rule: 0.y with y >= 1)"), "\(guardFile)")
        #expect(try sandbox.read("ws/Modules/PaymentsInterface/VERSION") == "0.1\n", "an interface is versioned x.y")
        #expect(try sandbox.read("ws/Modules/Payments/VERSION") == "0.1.0\n")
        let check = try sandbox.modkit("guard", "--check", "Payments", "PaymentsInterface", in: "ws")
        #expect(check.status == 0, "the guard new wrote is the one guard writes:\n\(check.out)\(check.err)")
        #expect(try sandbox.read("ws/Modules/Payments/Package.swift").contains(".package(path: \"../PaymentsInterface\")"))
        let build = try swift(sandbox, "build", in: "ws/Modules/Payments")
        #expect(build.status == 0, "\(build.out)\(build.err)")
        #expect(build.out.contains("PaymentsInterface"), "the interface is built as a dependency:\n\(build.out)")
    }

    @Test func repositoryModuleIsCommittedPushedRegisteredAndIgnored() throws {
        let sandbox = try Sandbox()
        try sandbox.git("init", "-q", "ws")
        try sandbox.write("version: 1\nworkspace: Shop\nmodules: []\n", to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "--bare", "remotes/Wallet.git")
        let remote = "file://" + sandbox.url("remotes/Wallet.git").path
        let result = try sandbox.modkit("new", "Wallet", "--repo", "--remote", remote, in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(try sandbox.git("rev-list", "--count", "--all", in: "remotes/Wallet.git") == "1")
        #expect(try sandbox.git("log", "-1", "--format=%s", "main", in: "remotes/Wallet.git") == "Create Wallet from template swift-package")
        #expect(try sandbox.git("rev-parse", "--abbrev-ref", "@{u}", in: "ws/Wallet") == "origin/main")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/Wallet") == "")
        #expect(try sandbox.read("ws/modkit.yml") == "version: 1\nworkspace: Shop\nmodules:\n  - name: Wallet\n    path: Wallet\n    url: \(remote)\n")
        #expect(try sandbox.read("ws/.gitignore").contains("/Wallet/"))
        let list = try sandbox.modkit("list", in: "ws")
        #expect(list.out.contains("repository") && list.out.contains(remote), "\(list.out)")
    }

    @Test func gitTemplateAtARefWorksAndBrokenTemplatesCreateNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        try sandbox.write("description: from git\nvariables:\n  team:\n    default: Mobile\n", to: "src/feature/template.yml")
        try sandbox.write("{{team}} {{author}} {{name_kebab}}\n", to: "src/feature/{{name}}.txt")
        try sandbox.git("init", "-q", "src/feature")
        try sandbox.git("add", "-A", in: "src/feature")
        try sandbox.git("commit", "-qm", "v1", in: "src/feature")
        try sandbox.git("tag", "v1", in: "src/feature")
        try sandbox.write("changed after v1\n", to: "src/feature/{{name}}.txt")
        try sandbox.git("commit", "-qam", "v2", in: "src/feature")
        try sandbox.git("clone", "-q", "--bare", "src/feature", "remotes/feature.git")
        let url = "file://" + sandbox.url("remotes/feature.git").path + "#v1"
        let broken: [(String, [String: String], String)] = [
            ("missing", ["template.yml": "variables:\n  team:\n    description: owning team\n", "a.txt": "{{team}}\n"],
             "missing/template.yml:2:3: error: variable 'team' (owning team) has no value and no default"),
            ("unknown", ["template.yml": "description: x\n", "Sources/{{name}}.swift": "let a = 1\nlet b = \"{{nmae}}\"\n"],
             "unknown/Sources/{{name}}.swift:2:10: error: unknown placeholder '{{nmae}}' (did you mean '{{name}}'?)"),
            ("escape", ["template.yml": "variables:\n  dir: {default: ../../..}\n", "{{dir}}/evil.txt": "x\n"],
             "template path '{{dir}}/evil.txt' renders to '../../../evil.txt', which is outside the new module's folder"),
        ]
        for (name, files, message) in broken {
            for (path, text) in files { try sandbox.write(text, to: "ws/\(name)/\(path)") }
            let before = try sandbox.read("ws/modkit.yml")
            let failed = try sandbox.modkit("new", "Broken", "--template", "./\(name)", in: "ws")
            #expect(failed.status == 2, "\(name): \(failed.err)")
            #expect(failed.err.contains(message), "\(name): \(failed.err)")
            #expect(failed.err.contains("nothing was created"))
            #expect(try sandbox.read("ws/modkit.yml") == before)
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Broken").path))
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("evil.txt").path))
        }
        // `new` takes the workspace lock before it reads the manifest; the lock leaves only modkit's self-ignoring folder.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: sandbox.url("ws/.modkit").path)) ?? [] == [".gitignore"])

        let result = try sandbox.modkit("new", "MapsKit", "--template", url, in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(try sandbox.read("ws/MapsKit/MapsKit.txt") == "Mobile modkit test maps-kit\n")
    }

    @Test func installedBinaryFindsItsTemplatesFromAnotherDirectory() throws {
        let sandbox = try Sandbox()
        let prefix = sandbox.url("prefix")
        let install = try sandbox.run("/bin/bash", [Self.packageRoot.appendingPathComponent("scripts/install.sh").path, prefix.path,
                                                    "--binary", Sandbox.modkitBinary.path], in: sandbox.root)
        #expect(install.status == 0, "\(install.err)")
        try sandbox.write("version: 1\nmodules: []\n", to: "ws/modkit.yml")
        let binary = prefix.appendingPathComponent("bin/modkit").path
        let list = try sandbox.run("/usr/bin/env", ["-u", "MODKIT_TEMPLATES", binary, "new", "--list-templates"], in: sandbox.url("ws"))
        #expect(list.status == 0, "\(list.err)")
        for name in ["swift-package", "pod", "interface"] { #expect(list.out.contains(name), "\(list.out)") }
        let created = try sandbox.run("/usr/bin/env", ["-u", "MODKIT_TEMPLATES", binary, "new", "Search", "--template", "pod"], in: sandbox.url("ws"))
        #expect(created.status == 0, "\(created.err)")
        #expect(try sandbox.read("ws/Search/Search.podspec").contains("s.version          = '0.1.0'"))

        // MODKIT_TEMPLATES overrides the installed templates.
        try sandbox.write("description: mine\n", to: "own/only-mine/template.yml")
        let overridden = try sandbox.run("/usr/bin/env", ["MODKIT_TEMPLATES=\(sandbox.url("own").path)", binary, "new", "--list-templates"], in: sandbox.url("ws"))
        #expect(overridden.out.contains("only-mine") && !overridden.out.contains("swift-package"), "\(overridden.out)")
    }
}
