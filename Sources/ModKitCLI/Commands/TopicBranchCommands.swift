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

    /// One repository's topic branches in `modkit branches --json`.
    struct Listing: Encodable {
        var name: String?
        var path: String
        var base: String?
        var branches: [TopicBranchState]
        var error: ErrorJSON?
    }

    /// `modkit branches --json`.
    struct Report: Encodable {
        var manifest: Listing?
        var modules: [Listing]
    }

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        try context.withWorkspace { run in
            let repositories = TopicBranches.list(try run.modules(), workspace: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            if context.json {
                let listings = repositories.map { Listing(name: $0.module, path: $0.path, base: $0.base, branches: $0.branches, error: .optional($0.error)) }
                try context.printJSON(Report(manifest: listings.first { $0.name == nil }, modules: listings.filter { $0.name != nil }))
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

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        try context.withWorkspace { run in
            var names = context.arguments.positionals
            // A first argument that selects no module is the branch.
            var branch: String?
            if let first = names.first, (try? run.workspace.modules(named: [first])) == nil {
                branch = first
                names.removeFirst()
            }
            if let branch { try TopicBranch.checkName(branch) }
            let results = TopicBranches.push(branch, modules: try run.modules(named: names), workspace: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            return try BranchActionPrinter.report(results, context: context, branch: branch, verb: "push")
        }
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

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        var names = context.arguments.positionals
        let branch = names.removeFirst()
        try TopicBranch.checkName(branch)
        return try context.withWorkspace { run in
            let results = TopicBranches.abandon(branch, modules: try run.modules(named: names), workspace: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            return try BranchActionPrinter.report(results, context: context, branch: branch, verb: "abandon")
        }
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

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        try context.withWorkspace { run in
            let results = TopicBranches.prune(try run.modules(), workspace: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            return try BranchActionPrinter.report(results, context: context, branch: nil, verb: "prune")
        }
    }
}

/// `push`, `abandon` and `prune` report through the one module-row report.
enum BranchActionPrinter {
    /// The branch the command was given, in its JSON report.
    struct Fields: Encodable { var branch: String? }

    static func report(_ results: [ModuleResult<BranchFacts>], context: Context, branch: String?, verb: String) throws -> ExitStatus {
        try context.report(results.filter { $0.name != nil }, manifest: results.first { $0.name == nil }, fields: Fields(branch: branch), verb: verb)
    }
}
