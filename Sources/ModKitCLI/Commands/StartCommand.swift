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

    /// `modkit start --json`'s own field.
    struct Fields: Encodable { var branch: String }

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        var names = context.arguments.positionals
        let branch = names.removeFirst()
        try TopicBranch.checkName(branch)
        return try context.withWorkspace { run in
            let results = TopicBranch.start(branch, in: try run.modules(named: names), workspace: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            return try context.report(results, fields: Fields(branch: branch), verb: "start \(branch)")
        }
    }
}
