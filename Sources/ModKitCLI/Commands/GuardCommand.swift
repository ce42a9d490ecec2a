import ModKit

/// `modkit guard`: write the version-guard files of every module, or check that they are current.
enum GuardCommand: Command {
    static let spec = CommandSpec(
        name: "guard",
        summary: "Write version-guard code (C/Objective-C header, Swift file) for every module",
        discussion: """
        Each module gets <Module>Version.h and <Module>Version.swift in its generated folder
        (defaults.generated-dir, "Generated"). They declare the module's version and make the
        compiler stop with a clear message when a dependency is built at another version than the
        one in the workspace. Only files whose content changes are written. See docs/guard.md for
        how a pod and a Swift package include them.
        """,
        options: Options.declared,
        positional: .modules,
        examples: ["modkit guard", "modkit guard --check", "modkit guard --dry-run QCloudCore"],
        mutates: true
    )

    /// `modkit guard --json`'s own field.
    struct Fields: Encodable { var dryRun: Bool }

    struct Options: CommandOptions {
        static let check = OptionSpec(nil, "check", help: "Write nothing; exit 1 listing stale or missing guard files (for CI).")
        static let dryRun = OptionSpec(nil, "dry-run", help: "Write nothing; print what would change as a unified diff.")
        static let declared = [check, dryRun]
        var check: Bool
        var dryRun: Bool
        init(_ arguments: ParsedArguments) {
            check = arguments.flag(Self.check)
            dryRun = arguments.flag(Self.dryRun)
        }
        var changesNothing: Bool { check || dryRun }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let check = options.check
        let dryRun = options.dryRun
        return try context.withWorkspace { run in
            let selected = try run.modules()
            // Guard files go one directory further down: that directory must not be a link out either.
            let generated = run.workspace.manifest.defaults.generatedDir
            try run.workspace.checkContained(selected.map { module in
                var inner = module
                inner.path += "/" + generated.replacingOccurrences(of: "{module}", with: module.name)
                return inner
            })
            return try write(run.workspace, selected: selected, check: check, dryRun: dryRun, context: context)
        }
    }

    private static func write(_ workspace: Workspace, selected: [Module], check: Bool, dryRun: Bool, context: Context) throws -> ExitStatus {

        let specs = WorkspaceSpecs.load(workspace, jobs: try context.jobs(waitsOnIO: false))
        let results = GuardRun.run(specs.guardModules, selected: Set(selected.map(\.name)),
                                   generatedDir: workspace.manifest.defaults.generatedDir,
                                   mode: check || dryRun ? .check : .write, root: workspace.root)
        // --check fails when a file would change, as a failed module does.
        let stale = check ? results.filter { $0.outcome == .updated }.map(\.label) : []
        return try context.report(results, fields: Fields(dryRun: check || dryRun), alsoNeedingAttention: stale, verb: "guard", text: .custom { printText(results, check: check, dryRun: dryRun, console: context.console) })
    }

    private static func printText(_ results: [ModuleResult<GuardFacts>], check: Bool, dryRun: Bool, console: Console) {
        for result in results {
            guard let plan = result.plan else { continue }
            if dryRun {
                let diff = GuardWriter.diff(plan, relativeTo: nil)
                if !diff.isEmpty { console.result(diff, terminator: "") }
            } else if check {
                for file in plan.changes { console.result("\(Workspace.displayPath(of: file.url)): \(file.state.rawValue); run 'modkit guard'") }
            } else {
                for file in result.written { console.result("wrote \(Workspace.displayPath(of: file.url))") }
            }
        }
        let failed = results.contains { $0.outcome == .failed }
        let changed = results.flatMap { $0.plan?.changes ?? [] }.count
        if check && changed == 0 && !failed { console.info("every guard file is up to date") }
        if !check && !dryRun && results.allSatisfy({ $0.written.isEmpty && $0.outcome != .failed }) {
            console.info("every guard file is up to date")
        }
    }
}
