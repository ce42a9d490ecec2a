import ModKit

/// `modkit snapshots`: the snapshots of the workspace with their date and module count.
enum SnapshotsCommand: Command {
    static let spec = CommandSpec(
        name: "snapshots",
        summary: "List snapshots with date and module count",
        discussion: """
        A snapshot is a tag of the manifest repository whose commit holds .modkit/snapshots/<tag>.yml
        (made by 'modkit tag'). They are listed oldest first.
        """,
        examples: ["modkit snapshots", "modkit snapshots --json"]
    )

    static func run(_ context: Context) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let snapshots = try SnapshotCatalog.list(in: workspace)
        if context.json {
            try context.printJSON(snapshots)
            return .success
        }
        guard !snapshots.isEmpty else {
            context.console.result("No snapshots yet ('modkit tag VERSION' makes one).")
            return .success
        }
        var table = TextTable()
        for snapshot in snapshots {
            table.add([snapshot.name, snapshot.created, "\(snapshot.modules) module\(snapshot.modules == 1 ? "" : "s")",
                       String(snapshot.commit.prefix(7))])
        }
        context.console.result(table.render())
        return .success
    }
}
