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

    /// One module in `modkit guard --json`.
    struct Row: ModuleRow {
        /// One guard file: its path in the workspace, and whether it was (with --check or --dry-run: would be) created or updated.
        struct File: Encodable {
            var path: String
            var outcome: ModuleOutcome
        }
        var name: String?
        var path: String
        var outcome: ModuleOutcome
        var detail: String
        var files: [File]
        var error: ErrorJSON?
    }

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
        let outcomes = GuardRun.run(specs.guardModules, selected: Set(selected.map(\.name)),
                                    generatedDir: workspace.manifest.defaults.generatedDir,
                                    mode: check || dryRun ? .check : .write)
        let console = context.console
        if context.json {
            let modules = Dictionary(workspace.manifest.modules.map { ($0.name, $0.path) }, uniquingKeysWith: { first, _ in first })
            let rows = outcomes.map { outcome in
                let files = (outcome.plan?.files ?? []).map { Row.File(path: workspace.relativePath(of: $0.url), outcome: ModuleOutcome($0.state)) }
                let changed = files.filter { $0.outcome != .upToDate }.count
                return Row(name: outcome.module, path: modules[outcome.module] ?? "", outcome: outcome.problem != nil ? .failed : changed > 0 ? .updated : .upToDate,
                           detail: outcome.problem ?? (changed > 0 ? "\(changed) guard file\(changed == 1 ? "" : "s")" : "up to date"),
                           files: files, error: .optional(outcome.problem))
            }
            try context.printJSON(ModuleRowsBody(fields: Fields(dryRun: check || dryRun), manifest: nil as Row?, modules: rows,
                                                 summary: outcomeCounts(rows.map(\.outcome))))
        } else {
            for outcome in outcomes {
                if let problem = outcome.problem { console.error("\(outcome.module): \(problem)") }
                guard let plan = outcome.plan else { continue }
                if dryRun {
                    let diff = GuardWriter.diff(plan, relativeTo: nil)
                    if !diff.isEmpty { console.result(diff, terminator: "") }
                } else if check {
                    for file in plan.changes { console.result("\(Workspace.displayPath(of: file.url)): \(file.state.rawValue); run 'modkit guard'") }
                } else {
                    for file in outcome.written { console.result("wrote \(Workspace.displayPath(of: file.url))") }
                }
            }
            let changed = outcomes.flatMap { $0.plan?.changes ?? [] }.count
            if check && changed == 0 && !outcomes.contains(where: { $0.problem != nil }) { console.info("every guard file is up to date") }
            if !check && !dryRun && outcomes.allSatisfy({ $0.written.isEmpty && $0.problem == nil }) {
                console.info("every guard file is up to date")
            }
        }
        let failed = outcomes.contains { $0.problem != nil } || (check && outcomes.contains { $0.needsAttention })
        return failed ? .failure : .success
    }
}
