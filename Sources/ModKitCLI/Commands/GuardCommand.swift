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
        options: [
            OptionSpec(nil, "check", help: "Write nothing; exit 1 listing stale or missing guard files (for CI)."),
            OptionSpec(nil, "dry-run", help: "Write nothing; print what would change as a unified diff."),
        ],
        positional: .modules,
        examples: ["modkit guard", "modkit guard --check", "modkit guard --dry-run QCloudCore"],
        mutates: true
    )

    struct Entry: Encodable {
        var module: String
        var files: [String: String]
        var written: [String]
        var problem: String?
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let check = context.arguments.flag("check")
        let dryRun = context.arguments.flag("dry-run")
        let workspace = try context.loadWorkspace()
        let selected = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        let lock = check || dryRun ? nil : try WorkspaceLock(root: workspace.root, command: "modkit guard")
        defer { lock?.release() }

        let specs = WorkspaceSpecs.load(workspace, jobs: try context.jobs(waitsOnIO: false))
        let outcomes = GuardRun.run(specs.guardModules, selected: Set(selected.map(\.name)),
                                    generatedDir: workspace.manifest.defaults.generatedDir,
                                    mode: check || dryRun ? .check : .write)
        let console = context.console
        if context.json {
            try context.printJSON(outcomes.map { outcome in
                Entry(module: outcome.module,
                      files: Dictionary(uniqueKeysWithValues: (outcome.plan?.files ?? []).map { (Workspace.displayPath(of: $0.url), $0.state.rawValue) }),
                      written: outcome.written.map { Workspace.displayPath(of: $0.url) }, problem: outcome.problem)
            })
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
