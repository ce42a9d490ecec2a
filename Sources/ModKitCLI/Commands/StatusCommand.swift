import ModKit

/// `modkit status`: the manifest repository and every module: what is checked out, unpushed and changed.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show branch, ahead/behind, unpushed commits, local changes and version of every module",
        discussion: """
        The manifest repository comes first, then every module. A module is clean when there is nothing
        to commit and nothing to push: no local changes, not ahead or behind its upstream, no commits that
        no remote holds (a topic branch never pushed, commits on a detached HEAD), not behind its manifest
        branch, and not detached away from its manifest revision. Clean modules are folded into one line;
        -v lists them too. --short prints one line per module, like 'git status -s'. Repository modules that
        are not cloned yet are reported as 'not cloned' (run 'modkit sync').
        """,
        options: Options.declared,
        positional: .modules,
        examples: ["modkit status", "modkit status -v", "modkit status --short", "modkit status --json", "modkit status -g core"]
    )

    /// `modkit status --json`'s own field.
    struct Fields: Encodable {
        var workspace: String
        /// The modules `modkit develop` points the consumers at (empty when none).
        var overrides: [String]
        /// The Xcode workspaces `modkit develop` wrote, to open in Xcode while the overrides are on.
        var xcodeWorkspaces: [String]
    }

    struct Options: CommandOptions {
        static let short = OptionSpec("s", "short", help: "One line per module: name, what is checked out, then the changes.")
        static let declared = [short]
        var short: Bool
        init(_ arguments: ParsedArguments) { short = arguments.flag(Self.short) }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        try context.withWorkspace { run in try show(run.workspace, modules: try run.modules(), short: options.short, context: context) }
    }

    private static func show(_ workspace: Workspace, modules: [Module], short: Bool, context: Context) throws -> ExitStatus {
        var diagnostics: [Diagnostic] = []
        if let notice = SnapshotCheckout.interruptedNotice(root: workspace.root) { diagnostics.append(.warning(notice)) }
        let results = StatusReader.read(modules, in: workspace, jobs: try context.jobs(waitsOnIO: true))
        let manifest = StatusReader.readManifestRepository(of: workspace)
        if !context.json, let note = DevelopCommand.activeNote(workspace) { diagnostics.append(.warning(note)) }
        diagnostics += PlacedModules.orphans(in: workspace).filter { !$0.work.isEmpty }.map { .warning($0.advice) }
        let develop = DevelopStore(workspaceRoot: workspace.root)
        let fields = Fields(workspace: workspace.manifest.workspace, overrides: develop.activeModules(),
                            xcodeWorkspaces: (try? develop.load())?.xcodeWorkspaces ?? [])
        let statuses = results.map(\.facts)
        return try context.report(results, manifest: manifest, fields: fields, diagnostics: diagnostics, verb: "status", text: .custom {
            if short {
                printShort(statuses, manifest: manifest?.facts, context: context)
            } else {
                print(statuses, manifest: manifest?.facts, workspace: workspace, context: context)
            }
        })
    }

    private static func printShort(_ statuses: [ModuleStatus], manifest: ModuleStatus?, context: Context) {
        let style = context.console.style(for: .standardOutput)
        var table = TextTable()
        for status in (manifest.map { [$0] } ?? []) + statuses where context.verbose || !context.quiet || !status.isClean {
            table.add([style.bold(status.path == "." ? "." : status.name), head(status, style), changes(status, style, short: true)])
        }
        if !table.rows.isEmpty { context.console.result(table.render()) }
    }

    private static func print(_ statuses: [ModuleStatus], manifest: ModuleStatus?, workspace: Workspace, context: Context) {
        let style = context.console.style(for: .standardOutput)
        let shown = context.verbose ? statuses : statuses.filter { !$0.isClean }
        var table = TextTable()
        if let manifest, context.verbose || !manifest.isClean {
            table.add([style.bold("(manifest)"), ".", head(manifest, style), changes(manifest, style), ""])
        }
        for status in shown {
            table.add([style.bold(status.name), status.path, head(status, style), changes(status, style), status.version ?? ""])
        }
        if context.quiet {
            // Only what needs attention, without the heading and the folded count.
            if !table.rows.isEmpty { context.console.result(table.render()) }
            return
        }
        let name = workspace.manifest.workspace
        var lines = ["\(style.bold(name)): \(statuses.count) module\(statuses.count == 1 ? "" : "s")"]
        if !table.rows.isEmpty { lines.append(table.render(indent: "  ")) }
        let folded = statuses.count - shown.count
        if folded > 0 {
            let what = folded == statuses.count && manifest?.isClean != false
                ? "all \(folded) modules are clean" : "\(folded) clean module\(folded == 1 ? "" : "s") not shown"
            lines.append(style.dim("  \(what) (-v lists them)"))
        }
        context.console.result(lines.joined(separator: "\n"))
    }

    /// What is checked out: `develop → origin/develop`, `detached at 1a2b3c4`, or why there is nothing.
    private static func head(_ status: ModuleStatus, _ style: Style) -> String {
        switch status.state {
        case .notCloned: return style.yellow("not cloned")
        case .missing: return style.red("missing")
        case .error: return style.red("error")
        case .ok: break
        }
        if status.detached, let commit = status.commit {
            let text = "detached at \(commit.prefix(7))"
            return status.atRevision == true ? style.cyan(text) : style.yellow(text)
        }
        guard let branch = status.branch else { return "" }
        if status.commit == nil { return "\(branch) (no commits yet)" }
        var text = style.green(branch)
        if let upstream = status.upstream { text += style.dim(" → \(upstream)") }
        return text
    }

    /// Ahead/behind, unpushed and change counts, e.g. `ahead 1, 2 modified, 1 untracked`, coloured by tone.
    static func changes(_ status: ModuleStatus, _ style: Style, short: Bool = false) -> String {
        status.changeParts(short: short).map { part in
            switch part.tone {
            case .plain: part.text
            case .warning: style.yellow(part.text)
            case .problem: style.red(part.text)
            case .good: style.green(part.text)
            case .quiet: style.dim(part.text)
            }
        }.joined(separator: short ? " " : ", ")
    }
}
