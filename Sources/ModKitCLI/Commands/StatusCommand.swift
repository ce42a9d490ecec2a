import ModKit

/// `modkit status`: per module, what is checked out and what is changed; clean modules folded unless `-v`.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show branch, ahead/behind, local changes and version of every module",
        discussion: """
        Modules with nothing to report (no local changes, not ahead or behind their upstream) are
        folded into one line; -v lists them too. Repository modules that are not cloned yet are
        reported as 'not cloned' (run 'modkit sync').
        """,
        positional: .modules,
        examples: ["modkit status", "modkit status -v", "modkit status --json", "modkit status -g core"]
    )

    static func run(_ context: Context) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        if let notice = SnapshotCheckout.interruptedNotice(root: workspace.root) { context.console.warning(notice) }
        let statuses = StatusReader.read(modules, in: workspace, jobs: try context.jobs(waitsOnIO: true))
        let failed = statuses.contains { $0.state == .error }
        if context.json {
            try context.printJSON(statuses)
            return failed ? .failure : .success
        }
        print(statuses, workspace: workspace, context: context)
        return failed ? .failure : .success
    }

    private static func print(_ statuses: [ModuleStatus], workspace: Workspace, context: Context) {
        let style = context.console.style(for: .standardOutput)
        let shown = context.verbose ? statuses : statuses.filter { !$0.isClean }
        var table = TextTable()
        for status in shown {
            table.add([style.bold(status.name), status.path, head(status, style), changes(status, style), status.version ?? ""])
        }
        let name = workspace.manifest.workspace
        var lines = ["\(style.bold(name)): \(statuses.count) module\(statuses.count == 1 ? "" : "s")"]
        if !shown.isEmpty { lines.append(table.render(indent: "  ")) }
        let folded = statuses.count - shown.count
        if folded > 0 {
            let what = folded == statuses.count ? "all \(folded) modules are clean" : "\(folded) clean module\(folded == 1 ? "" : "s") not shown"
            lines.append(style.dim("  \(what) (-v lists them)"))
        }
        context.console.result(lines.joined(separator: "\n"))
        for status in statuses where status.state == .error {
            context.console.error("\(status.name): \(status.error ?? "unreadable")")
        }
    }

    /// What is checked out: `develop ↔ origin/develop`, `detached at 1a2b3c4`, or why there is nothing.
    private static func head(_ status: ModuleStatus, _ style: Style) -> String {
        switch status.state {
        case .notCloned: return style.yellow("not cloned")
        case .missing: return style.red("missing")
        case .error: return style.red("error")
        case .ok: break
        }
        if status.detached, let commit = status.commit { return style.cyan("detached at \(commit.prefix(7))") }
        guard let branch = status.branch else { return "" }
        if status.commit == nil { return "\(branch) (no commits yet)" }
        var text = style.green(branch)
        if let upstream = status.upstream { text += style.dim(" → \(upstream)") }
        return text
    }

    /// Ahead/behind and change counts, e.g. `ahead 1, 2 modified, 1 untracked`.
    private static func changes(_ status: ModuleStatus, _ style: Style) -> String {
        switch status.state {
        case .notCloned: return style.dim("run 'modkit sync'")
        case .missing: return style.dim("folder not found")
        case .error: return status.error ?? ""
        case .ok: break
        }
        var parts: [String] = []
        if let ahead = status.ahead, ahead > 0 { parts.append(style.yellow("ahead \(ahead)")) }
        if let behind = status.behind, behind > 0 { parts.append(style.yellow("behind \(behind)")) }
        if status.conflicted > 0 { parts.append(style.red("\(status.conflicted) conflicted")) }
        if status.staged > 0 { parts.append(style.green("\(status.staged) staged")) }
        if status.modified > 0 { parts.append(style.red("\(status.modified) modified")) }
        if status.untracked > 0 { parts.append("\(status.untracked) untracked") }
        return parts.isEmpty ? style.dim("clean") : parts.joined(separator: ", ")
    }
}
