import ModKit

/// `modkit snapshots`: the snapshots of the workspace with their date and module count.
enum SnapshotsCommand: Command {
    static let spec = CommandSpec(
        name: "snapshots",
        summary: "List snapshots with date and module count",
        discussion: """
        A snapshot is a tag of the manifest repository whose commit holds .modkit/snapshots/<tag>.yml
        (made by 'modkit tag'). They are listed oldest first. A tag whose snapshot file does not read is
        reported with the file's problems (exit 2) after the valid ones.
        """,
        examples: ["modkit snapshots", "modkit snapshots --json"]
    )

    /// `modkit snapshots --json`.
    struct Report: Encodable {
        /// A tag whose snapshot file does not read.
        struct Invalid: Encodable {
            var name: String
            var commit: String
            var errors: [ErrorJSON]
        }
        var snapshots: [SnapshotSummary]
        var invalid: [Invalid]
    }

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let (snapshots, invalid) = try SnapshotCatalog.listing(in: workspace)
        defer { reportInvalid(invalid, context: context) }
        let status: ExitStatus = invalid.isEmpty ? .success : .usage
        if context.json {
            let invalid = invalid.map { Report.Invalid(name: $0.name, commit: $0.commit, errors: ErrorJSON.all(from: $0.error)) }
            try context.printJSON(Report(snapshots: snapshots, invalid: invalid))
            return status
        }
        guard !snapshots.isEmpty else {
            if invalid.isEmpty { context.console.result("No snapshots yet ('modkit tag VERSION' makes one).") }
            return status
        }
        var table = TextTable()
        for snapshot in snapshots {
            table.add([snapshot.name, snapshot.created, "\(snapshot.modules) module\(snapshot.modules == 1 ? "" : "s")",
                       String(snapshot.commit.prefix(7))])
        }
        context.console.result(table.render())
        return status
    }

    /// Each tag whose snapshot file is invalid, with every problem of the file.
    static func reportInvalid(_ invalid: [SnapshotCatalog.InvalidSnapshot], context: Context) {
        let colored = context.console.colorOnStandardError
        for snapshot in invalid {
            context.console.error("tag \(snapshot.name) (commit \(snapshot.commit.prefix(7))) has an invalid snapshot file:")
            context.console.diagnostic(snapshot.error.rendered(colored: colored))
        }
    }
}
