import ModKit

/// `modkit start BRANCH`: create and check out a topic branch in the selected module repositories.
enum StartCommand: Command {
    static let spec = CommandSpec(
        name: "start",
        summary: "Create and check out a topic branch in the selected module repositories",
        discussion: """
        The branch starts at each repository's current commit. Where it already exists at another
        commit it is refused for that repository (exit 1). Later syncs leave repositories on their
        topic branch and keep the manifest branch up to date beside it.
        """,
        positional: PositionalSpec("BRANCH [MODULE...]", minimum: 1, maximum: nil),
        examples: ["modkit start feature/upload-resume", "modkit start hotfix/1.1.2 QCloudCore COSXML"],
        mutates: true
    )

    static func run(_ context: Context) throws -> ExitStatus {
        var names = context.arguments.positionals
        let branch = names.removeFirst()
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: names, groups: context.groups)
        let lock = try WorkspaceLock(root: workspace.root, command: "modkit start \(branch)")
        defer { lock.release() }
        let results = TopicBranch.start(branch, in: modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: true))
        if context.json {
            try context.printJSON(results)
        } else {
            let style = context.console.style(for: .standardOutput)
            var table = TextTable()
            for result in results {
                let detail = result.failed ? style.red(result.detail) : (result.outcome == .skipped ? style.dim(result.detail) : result.detail)
                table.add([style.bold(result.name), detail])
            }
            context.console.result(table.render())
        }
        let failed = results.filter(\.failed)
        if !failed.isEmpty, !context.json {
            context.console.error("could not start \(branch) in \(failed.map(\.name).joined(separator: ", "))")
        }
        return failed.isEmpty ? .success : .failure
    }
}
