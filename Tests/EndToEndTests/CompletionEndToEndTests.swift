import Foundation
import Testing

/// `modkit completion` and `modkit help --man`, run in the real shells and the real man-page formatter.
@Suite struct CompletionEndToEndTests {
    /// A workspace with two tagged snapshots and modules in groups, for completion to read names from.
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.makeRemote("Feature")
        try sandbox.write("""
        version: 1
        workspace: Demo
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
          revision: main
        modules:
          - name: Core
            url: Core.git
            path: Libs/Core
            groups: [core]
          - name: Feature
            url: Feature.git
            path: Libs/Feature
            groups: [ui, core]
        """, to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "workspace", in: "ws")
        #expect(try sandbox.modkit("tag", "v1.0.0", in: "ws").status == 0)
        #expect(try sandbox.modkit("tag", "v1.1.0", in: "ws").status == 0)
        return sandbox
    }

    /// What `_modkit` offers for the words of a command line (the last word is the one being completed).
    private func bashCompletions(_ sandbox: Sandbox, _ words: [String], in directory: String = "ws") throws -> [String] {
        let script = sandbox.url("modkit.bash")
        if !FileManager.default.fileExists(atPath: script.path) {
            let generated = try sandbox.modkit("completion", "bash", in: directory)
            #expect(generated.status == 0, "\(generated.err)")
            try generated.out.write(to: script, atomically: true, encoding: .utf8)
        }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
        PATH="\(Sandbox.modkitBinary.deletingLastPathComponent().path):$PATH"
        source '\(script.path)'
        complete -p modkit >/dev/null || exit 3
        COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
        _modkit
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = try sandbox.run("/bin/bash", ["-c", program], in: sandbox.url(directory))
        #expect(result.status == 0, "\(result.err)")
        return result.out.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesCommandsOptionsAndWorkspaceNames() throws {
        let sandbox = try workspace()
        #expect(try bashCompletions(sandbox, ["modkit", "sn"]) == ["snapshots"])
        #expect(try bashCompletions(sandbox, ["modkit", "c"]) == ["checkout", "completion"])
        #expect(try bashCompletions(sandbox, ["modkit", "sync", "--j"]) == ["--jobs", "--json"])
        #expect(try bashCompletions(sandbox, ["modkit", "sync", ""]) == ["Core", "Feature"])
        #expect(try bashCompletions(sandbox, ["modkit", "-j", "2", "status", "Core", "F"]) == ["Feature"])
        #expect(try bashCompletions(sandbox, ["modkit", "-g", ""]) == ["core", "ui"])
        #expect(try bashCompletions(sandbox, ["modkit", "checkout", ""]) == ["v1.0.0", "v1.1.0"])
        #expect(try bashCompletions(sandbox, ["modkit", "diff", "v1.0.0", "v1.1"]) == ["v1.1.0"])
        #expect(try bashCompletions(sandbox, ["modkit", "graph", "--format", ""]) == ["dot", "json", "mermaid", "text"])
        #expect(try bashCompletions(sandbox, ["modkit", "new", "--template", ""]).contains("swift-package"))
        #expect(try bashCompletions(sandbox, ["modkit", "start", "topic", ""]) == ["Core", "Feature"])
        // A branch name is free text: nothing is offered for it.
        #expect(try bashCompletions(sandbox, ["modkit", "start", ""]) == [])
        #expect(try bashCompletions(sandbox, ["modkit", "completion", ""]) == ["bash", "fish", "zsh"])
        // -C points completion at a workspace elsewhere.
        #expect(try bashCompletions(sandbox, ["modkit", "-C", sandbox.url("ws").path, "list", ""], in: ".") == ["Core", "Feature"])
    }

    @Test func zshAndFishScriptsPassTheirShellsSyntaxCheck() throws {
        let sandbox = try Sandbox()
        for (shell, path) in [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")] {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                print("skipped: \(shell) is not installed (scripts/test.sh installs it)")
                continue
            }
            let generated = try sandbox.modkit("completion", shell)
            #expect(generated.status == 0, "\(generated.err)")
            #expect(generated.out.contains("completion --list"))
            let file = sandbox.url("modkit.\(shell)")
            try generated.out.write(to: file, atomically: true, encoding: .utf8)
            let check = try sandbox.run(path, ["-n", file.path], in: sandbox.root)
            #expect(check.status == 0, "\(shell) -n: \(check.err)")
        }
    }

    @Test func fishCompletesFromTheWorkspace() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else { return }
        let sandbox = try workspace()
        let script = sandbox.url("modkit.fish")
        try sandbox.modkit("completion", "fish").out.write(to: script, atomically: true, encoding: .utf8)
        let program = """
        set -x PATH \(Sandbox.modkitBinary.deletingLastPathComponent().path) $PATH
        source \(script.path)
        complete -C 'modkit sync '
        complete -C 'modkit checkout '
        """
        let result = try sandbox.run("/usr/bin/fish", ["-c", program], in: sandbox.url("ws"))
        let offered = result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(offered.contains("Core") && offered.contains("Feature") && offered.contains("v1.1.0"), "\(result.out)\(result.err)")
    }

    @Test func unknownShellAndListKindAreUsageErrors() throws {
        let sandbox = try Sandbox()
        let shell = try sandbox.modkit("completion", "tcsh")
        #expect(shell.status == 2)
        #expect(shell.err.contains("unknown shell 'tcsh'"))
        let kind = try sandbox.modkit("completion", "--list", "branches")
        #expect(kind.status == 2)
        #expect(kind.err.contains("--list expects one of modules, groups, snapshots, templates"))
    }

    @Test func manPageRendersWithoutWarningsAndListsEveryCommand() throws {
        let sandbox = try Sandbox()
        let page = try sandbox.modkit("help", "--man")
        #expect(page.status == 0)
        let file = sandbox.url("modkit.1")
        try page.out.write(to: file, atomically: true, encoding: .utf8)
        let rendered = try sandbox.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", file.path], in: sandbox.root)
        #expect(rendered.status == 0)
        #expect(rendered.err.isEmpty, "groff warnings: \(rendered.err)")
        // grotty marks bold and underline by overstriking: a character, a backspace, the character again.
        let text = rendered.out.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        let help = try sandbox.modkit("--help").out
        let commands = help.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("COMMANDS:") }.dropFirst()
            .prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count > 15)
        for command in commands where command != "help" {
            #expect(text.contains("modkit \(command)"), "man page lacks \(command)")
        }
    }

    @Test func helpTakesHelpAndUsageLinesAreWellFormed() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.modkit("help", "--help")
        #expect(help.status == 0)
        #expect(help.out.contains("USAGE: modkit help [COMMAND] [--man]"))
        #expect(try sandbox.modkit("help", "--bogus").status == 2)
        #expect(try sandbox.modkit("start", "--help").out.contains("USAGE: modkit start BRANCH [MODULE...]\n"))
        #expect(try sandbox.modkit("diff", "--help").out.contains("USAGE: modkit diff [options] SNAP1 [SNAP2]\n"))
        #expect(try sandbox.modkit("sync", "--help").out.contains("USAGE: modkit sync [options] [MODULE...]\n"))
    }

    @Test func installShInstallsTheManPageAndCompletionScripts() throws {
        let sandbox = try Sandbox()
        let prefix = sandbox.url("prefix")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let install = try sandbox.run("/bin/bash", [root.appendingPathComponent("scripts/install.sh").path, prefix.path,
                                                    "--binary", Sandbox.modkitBinary.path], in: sandbox.root)
        #expect(install.status == 0, "\(install.err)")
        let expected = [
            ("share/man/man1/modkit.1", ["help", "--man"]),
            ("share/bash-completion/completions/modkit", ["completion", "bash"]),
            ("share/zsh/site-functions/_modkit", ["completion", "zsh"]),
            ("share/fish/vendor_completions.d/modkit.fish", ["completion", "fish"]),
        ]
        for (path, arguments) in expected {
            let installed = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
            let generated = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.root).out
            #expect(installed == generated, "\(path) differs from modkit \(arguments.joined(separator: " "))")
        }
    }
}
