import ModKit

/// `modkit checkout SNAPSHOT`: bring every module back to a snapshot, without ever destroying local work.
enum CheckoutCommand: Command {
    static let spec = CommandSpec(
        name: "checkout",
        summary: "Bring every module back to a snapshot",
        discussion: """
        Reads .modkit/snapshots/SNAPSHOT.yml from the manifest repository's tag SNAPSHOT (the current
        checkout does not need to have the file), checks that every repository is clean before moving
        any, clones missing module repositories and fetches missing commits, then puts every module
        repository at its recorded commit — detached, or on a new branch everywhere with --branch.
        The manifest repository goes to the snapshot's tag too (directory modules come back with it)
        unless --modules-only. A recorded commit that has vanished from its remote (force-push) is
        replaced by the module's tag, with a warning; a tag that moved since the snapshot is reported.
        A commit made on a detached HEAD is saved under refs/modkit/backup/ before it is left.
        """,
        options: Options.declared,
        positional: PositionalSpec("SNAPSHOT", minimum: 1, maximum: 1),
        examples: [
            "modkit checkout v1.1.1",
            "modkit checkout v1.1.1 --branch hotfix/1.1.2",
            "modkit checkout v1.1.1 --modules-only --json",
        ],
        mutates: true,
        reachesRemotes: true
    )

    struct Options: CommandOptions {
        static let branch = OptionSpec("b", "branch", .value(metavar: "NAME"), help: "Create branch NAME at the recorded commit in every repository.")
        static let modulesOnly = OptionSpec(nil, "modules-only", help: "Leave the manifest repository where it is.")
        static let declared = [branch, modulesOnly]
        var checkout: CheckoutOptions
        init(_ arguments: ParsedArguments) {
            checkout = CheckoutOptions(branch: arguments.value(Self.branch), modulesOnly: arguments.flag(Self.modulesOnly))
        }
    }

    /// `modkit checkout --json`'s own fields.
    struct Fields: Encodable {
        var snapshot: String
        var snapshotCommit: String
        var branch: String?
        var warnings: [String]
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let name = context.arguments.positionals[0]
        return try context.withWorkspace { run in
            let options = options.checkout
            let report: CheckoutReport
            do {
                report = try SnapshotCheckout.checkout(name, workspace: run.workspace, options: options,
                                                       jobs: try context.jobs(waitsOnIO: false), networkJobs: try context.jobs(waitsOnIO: true))
            } catch let failure as SnapshotFailure {
                return try SnapshotOutput.report(failure, context: context)
            }
            let backups = report.results.compactMap { result in
                result.backup.map { Diagnostic.warning("the commit left behind is saved as \($0)", module: result.name ?? "manifest repository") }
            }
            return try context.report(report.results.filter { $0.name != nil }, manifest: report.results.first { $0.name == nil },
                                      fields: Fields(snapshot: report.snapshot, snapshotCommit: report.snapshotCommit, branch: report.branch,
                                                     warnings: report.warnings.map(\.messageNamingModule)),
                                      diagnostics: report.warnings + backups, verb: "checkout",
                                      text: .custom { printText(report, context: context) })
        }
    }

    private static func printText(_ report: CheckoutReport, context: Context) {
        let style = context.console.style(for: .standardOutput)
        var table = TextTable()
        for result in report.results where context.verbose || result.outcome != .upToDate {
            let detail = result.outcome == .failed ? style.red("failed: \(result.detail)") : result.detail
            table.add([style.bold(result.label), result.path, detail])
        }
        let moved = report.results.filter { $0.outcome == .updated || $0.outcome == .cloned }.count
        let unchanged = report.results.filter { $0.outcome == .upToDate }.count
        var lines = ["Checked out \(report.snapshot): \(moved) moved, \(unchanged) already there"]
        if !table.rows.isEmpty { lines.append(table.render(indent: "  ")) }
        context.console.result(lines.joined(separator: "\n"))
    }
}
