import ModKit

/// `modkit forall -c CMD`: run a shell command in every module, in parallel, output kept per module.
enum ForallCommand: Command {
    static let spec = CommandSpec(
        name: "forall",
        summary: "Run a shell command in every module directory, in parallel",
        discussion: """
        Each module's output (stdout and stderr together) is printed whole under its name as soon as
        it finishes, never interleaved. The command sees MODKIT_MODULE, MODKIT_PATH (relative to the
        workspace), MODKIT_ROOT, MODKIT_VERSION, MODKIT_REVISION and MODKIT_URL. Modules that are not
        cloned are skipped. Exits 1 with a summary when the command failed anywhere.
        """,
        options: [OptionSpec("c", "command", .value(metavar: "CMD"), help: "The shell command to run (required).")],
        positional: .modules,
        examples: [
            "modkit forall -c 'git log -1 --oneline'",
            "modkit forall -j 8 -c 'swift build' -g core",
            "modkit forall -c 'echo $MODKIT_MODULE $MODKIT_VERSION' --json",
        ]
    )

    static func run(_ context: Context) throws -> ExitStatus {
        guard let command = context.arguments.value("command") else { throw UsageError("forall needs -c CMD") }
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        let console = context.console
        let json = context.json
        let results = Forall.run(command, in: modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: false)) { result in
            guard !json else { return }
            let style = console.style(for: .standardOutput)
            var block = style.bold("== \(result.name) (\(result.path))")
            if let skipped = result.skipped {
                block += style.dim(" skipped: \(skipped)") + "\n"
            } else {
                let failed = result.failed ? style.red(" exit \(result.status ?? -1)") : ""
                block += failed + "\n" + result.output
                if !result.output.isEmpty && !result.output.hasSuffix("\n") { block += "\n" }
            }
            console.write(block, to: .standardOutput)
        }
        let failed = results.filter(\.failed)
        if json {
            try context.printJSON(results)
        } else if !failed.isEmpty {
            console.error("the command failed in \(failed.count) of \(results.count) modules:")
            for result in failed { console.diagnostic("  \(result.name) (exit \(result.status ?? -1))") }
        }
        return failed.isEmpty ? .success : .failure
    }
}
