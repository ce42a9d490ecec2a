import ModKit

/// `modkit branches`: topic branches across repositories, with ahead/behind and pushed state.
enum BranchesCommand: Command {
    static let spec = CommandSpec(
        name: "branches",
        summary: "List topic branches across repositories, with ahead/behind and pushed state",
        discussion: """
        A topic branch is any local branch other than the module's manifest branch. Each is shown with
        its commits ahead of and behind the manifest revision, and how many of them no remote branch holds
        yet (what 'modkit push' would send). '*' marks the branch checked out.
        """,
        positional: .modules,
        examples: ["modkit branches", "modkit branches --json", "modkit branches -g core"]
    )

    static func run(_ context: Context) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        let repositories = TopicBranches.list(modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: true))
        if context.json {
            try context.printJSON(repositories)
        } else {
            let style = context.console.style(for: .standardOutput)
            var table = TextTable()
            for repository in repositories {
                for branch in repository.branches {
                    var state = ["ahead \(branch.ahead)", "behind \(branch.behind)"]
                    state.append(branch.unpushed > 0 ? style.yellow("\(branch.unpushed) not pushed") : style.green("pushed"))
                    if branch.merged { state.append(style.dim("merged")) }
                    table.add([(branch.current ? "* " : "  ") + style.bold(branch.branch), repository.module ?? "(manifest repository)",
                               state.joined(separator: ", ")])
                }
            }
            context.console.result(table.rows.isEmpty ? "No topic branches ('modkit start BRANCH' makes one)." : table.render())
        }
        let failed = repositories.filter { $0.error != nil }
        for repository in failed { context.console.error("\(repository.module ?? "(manifest repository)"): \(repository.error ?? "")") }
        return failed.isEmpty ? .success : .failure
    }
}

/// `modkit push [BRANCH]`: the current topic branch of every repository that has commits on it, pushed.
enum PushCommand: Command {
    static let spec = CommandSpec(
        name: "push",
        summary: "Push the current topic branch of every repository that has commits on it",
        discussion: """
        Without BRANCH (a first argument that is not a module) each repository pushes the topic branch it has checked out; repositories on their
        manifest branch, or whose topic branch has no commits of its own, are skipped. The branch's
        upstream is set to the remote's branch of the same name. Runs in parallel; a refused push is
        reported and the others go on (exit 1).
        """,
        positional: PositionalSpec("[BRANCH] [MODULE...]", minimum: 0, maximum: nil),
        examples: ["modkit push", "modkit push feature/upload-resume", "modkit push feature/login QCloudCore"],
        mutates: true,
        reachesRemotes: true
    )

    static func run(_ context: Context) throws -> ExitStatus {
        var names = context.arguments.positionals
        let workspace = try context.loadWorkspace()
        // A first argument that selects no module is the branch.
        var branch: String?
        if let first = names.first, (try? workspace.modules(named: [first])) == nil {
            branch = first
            names.removeFirst()
        }
        let modules = try workspace.modules(named: names, groups: context.groups)
        let lock = try WorkspaceLock(root: workspace.root, command: "modkit push")
        defer { lock.release() }
        let results = TopicBranches.push(branch, modules: modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: true))
        return try BranchActionPrinter.report(results, context: context, verb: "push")
    }
}

/// `modkit abandon BRANCH`: delete a topic branch wherever that loses no commit.
enum AbandonCommand: Command {
    static let spec = CommandSpec(
        name: "abandon",
        summary: "Delete a topic branch across repositories where it has no unpushed commits",
        discussion: """
        A repository where BRANCH holds commits that are neither pushed nor in the manifest revision keeps
        it, and says so (exit 1). Where BRANCH is checked out, the manifest revision is checked out first;
        with local changes the branch is kept.
        """,
        positional: PositionalSpec("BRANCH [MODULE...]", minimum: 1, maximum: nil),
        examples: ["modkit abandon feature/upload-resume"],
        mutates: true
    )

    static func run(_ context: Context) throws -> ExitStatus {
        var names = context.arguments.positionals
        let branch = names.removeFirst()
        guard !branch.isEmpty else { throw UsageError("BRANCH must not be empty") }
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: names, groups: context.groups)
        let lock = try WorkspaceLock(root: workspace.root, command: "modkit abandon \(branch)")
        defer { lock.release() }
        let results = TopicBranches.abandon(branch, modules: modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: true))
        return try BranchActionPrinter.report(results, context: context, verb: "abandon")
    }
}

/// `modkit prune`: delete the topic branches already merged into the manifest revision.
enum PruneCommand: Command {
    static let spec = CommandSpec(
        name: "prune",
        summary: "Delete topic branches already merged into the manifest revision",
        discussion: "A merged branch that is checked out is kept and named ('modkit abandon BRANCH' leaves it).",
        positional: .modules,
        examples: ["modkit prune", "modkit prune -g core"],
        mutates: true
    )

    static func run(_ context: Context) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        let lock = try WorkspaceLock(root: workspace.root, command: "modkit prune")
        defer { lock.release() }
        let results = TopicBranches.prune(modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: true))
        return try BranchActionPrinter.report(results, context: context, verb: "prune")
    }
}

/// One line per repository for `push`, `abandon` and `prune`; exit 1 when any was kept or failed.
enum BranchActionPrinter {
    static func report(_ results: [BranchActionResult], context: Context, verb: String) throws -> ExitStatus {
        if context.json {
            try context.printJSON(results)
        } else {
            let style = context.console.style(for: .standardOutput)
            var table = TextTable()
            for result in results {
                let detail: String
                switch result.outcome {
                case .failed: detail = style.red(result.detail)
                case .kept: detail = style.yellow(result.detail)
                case .skipped, .upToDate: detail = style.dim(result.detail)
                case .pushed, .deleted: detail = result.detail
                }
                table.add([style.bold(result.module ?? "(manifest repository)"), detail])
            }
            context.console.result(table.rows.isEmpty ? "Nothing to \(verb)." : table.render())
        }
        let trouble = results.filter { $0.outcome == .failed || $0.outcome == .kept }
        if !trouble.isEmpty, !context.json {
            context.console.error("\(verb): \(trouble.count) repositor\(trouble.count == 1 ? "y needs" : "ies need") attention: \(trouble.map { $0.module ?? "(manifest repository)" }.joined(separator: ", "))")
        }
        return trouble.isEmpty ? .success : .failure
    }
}
