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

    /// One repository in `modkit status --json`.
    struct Row: ModuleRow {
        var name: String?
        var kind: Module.Kind
        var path: String
        var outcome: ModuleOutcome
        var detail: String
        var branch: String?
        var commit: String?
        var detached: Bool
        var upstream: String?
        var ahead: Int?
        var behind: Int?
        var unpushed: Int?
        var behindBase: Int?
        var atRevision: Bool?
        var staged: Int
        var modified: Int
        var untracked: Int
        var conflicted: Int
        var version: String?
        var error: ErrorJSON?

        init(_ status: ModuleStatus, isManifest: Bool = false) {
            name = isManifest ? nil : status.name
            kind = status.kind
            path = status.path
            outcome = ModuleOutcome(status)
            detail = StatusCommand.changes(status, Style(enabled: false))
            branch = status.branch
            commit = status.commit
            detached = status.detached
            upstream = status.upstream
            ahead = status.ahead
            behind = status.behind
            unpushed = status.unpushed
            behindBase = status.behindBase
            atRevision = status.atRevision
            staged = status.staged
            modified = status.modified
            untracked = status.untracked
            conflicted = status.conflicted
            version = status.version
            error = .optional(status.error)
        }
    }

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
        if let notice = SnapshotCheckout.interruptedNotice(root: workspace.root) { context.console.warning(notice) }
        let statuses = StatusReader.read(modules, in: workspace, jobs: try context.jobs(waitsOnIO: true))
        let manifest = StatusReader.readManifestRepository(of: workspace)
        let failed = statuses.contains { $0.state == .error }
        if context.json {
            let rows = statuses.map { Row($0) }
            let manifestRow = manifest.map { Row($0, isManifest: true) }
            let develop = DevelopStore(workspaceRoot: workspace.root)
            try context.printJSON(ModuleRowsBody(fields: Fields(workspace: workspace.manifest.workspace, overrides: develop.activeModules(),
                                                                      xcodeWorkspaces: (try? develop.load())?.xcodeWorkspaces ?? []), manifest: manifestRow, modules: rows,
                                                 summary: outcomeCounts(rows.map(\.outcome))))
        } else if short {
            let style = context.console.style(for: .standardOutput)
            var table = TextTable()
            for status in (manifest.map { [$0] } ?? []) + statuses where context.verbose || !context.quiet || !status.isClean {
                table.add([style.bold(status.path == "." ? "." : status.name), head(status, style), changes(status, style, short: true)])
            }
            if !table.rows.isEmpty { context.console.result(table.render()) }
        } else {
            print(statuses, manifest: manifest, workspace: workspace, context: context)
        }
        if !context.json, let note = DevelopCommand.activeNote(workspace) { context.console.warning(note) }
        for orphan in PlacedModules.orphans(in: workspace) where !orphan.work.isEmpty {
            context.console.warning(orphan.advice)
        }
        for status in statuses where status.state == .error {
            context.console.error("\(status.name): \(status.error ?? "unreadable")")
        }
        return failed ? .failure : .success
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

    /// Ahead/behind, unpushed and change counts, e.g. `ahead 1, 2 modified, 1 untracked`.
    static func changes(_ status: ModuleStatus, _ style: Style, short: Bool = false) -> String {
        switch status.state {
        case .notCloned: return style.dim("run 'modkit sync'")
        case .missing: return style.dim("folder not found")
        case .error: return status.error ?? ""
        case .ok: break
        }
        var parts: [String] = []
        if let ahead = status.ahead, ahead > 0 { parts.append(style.yellow(short ? "↑\(ahead)" : "ahead \(ahead)")) }
        if let behind = status.behind, behind > 0 { parts.append(style.yellow(short ? "↓\(behind)" : "behind \(behind)")) }
        if let unpushed = status.unpushed, unpushed > 0 {
            parts.append(style.yellow(short ? "⇡\(unpushed)" : "\(unpushed) commit\(unpushed == 1 ? "" : "s") not pushed"))
        }
        if let behindBase = status.behindBase, behindBase > 0 {
            parts.append(style.yellow(short ? "base↓\(behindBase)" : "\(behindBase) behind the manifest branch"))
        }
        if status.conflicted > 0 { parts.append(style.red(short ? "U\(status.conflicted)" : "\(status.conflicted) conflicted")) }
        if status.staged > 0 { parts.append(style.green(short ? "A\(status.staged)" : "\(status.staged) staged")) }
        if status.modified > 0 { parts.append(style.red(short ? "M\(status.modified)" : "\(status.modified) modified")) }
        if status.untracked > 0 { parts.append(short ? "?\(status.untracked)" : "\(status.untracked) untracked") }
        if status.detached, status.atRevision != true, parts.isEmpty, !short { parts.append(style.yellow("not at the manifest revision")) }
        return parts.isEmpty ? style.dim("clean") : parts.joined(separator: short ? " " : ", ")
    }
}
