import ModKit

/// `modkit diff SNAP1 [SNAP2]`: per module, the commits between two snapshots — release notes across repositories.
enum DiffCommand: Command {
    static let spec = CommandSpec(
        name: "diff",
        summary: "Show per module the commits between two snapshots (or a snapshot and now)",
        discussion: """
        For every module, old..new commit and the subjects of the commits in between (for a directory
        module: the manifest repository's commits that touched its folder), version changes, and
        modules added or removed. Without SNAP2 it compares with what is checked out now. diff reads
        only what is here and writes nothing: a module whose commit is not in its local repository
        (recorded elsewhere, not fetched yet) or that is not cloned is reported with the command that
        fetches it ('modkit sync MODULE'), the others are compared, and the exit status is 1.
        --markdown prints release notes.
        """,
        options: Options.declared,
        positional: PositionalSpec("SNAP1 [SNAP2]", minimum: 1, maximum: 2),
        examples: ["modkit diff v1.0.0 v1.1.0", "modkit diff v1.1.0", "modkit diff v1.0.0 v1.1.0 --markdown > NOTES.md",
                   "modkit diff v1.0.0 v1.1.0 --json"]
    )

    /// `modkit diff --json`.
    struct Report: Encodable {
        /// One module's change between the two sides.
        struct Entry: Encodable {
            var name: String
            var kind: Module.Kind
            /// changed, unchanged, added or removed.
            var change: ModuleChange.Status
            var oldCommit: String?
            var newCommit: String?
            var oldVersion: String?
            var newVersion: String?
            var commits: [CommitLine]
            var droppedCommits: [CommitLine]
            var error: ErrorJSON?
        }
        var from: String
        var to: String
        var modules: [Entry]
    }

    struct Options: CommandOptions {
        static let markdown = OptionSpec(nil, "markdown", help: "Print release notes in Markdown.")
        static let declared = [markdown]
        var markdown: Bool
        init(_ arguments: ParsedArguments) { markdown = arguments.flag(Self.markdown) }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let names = context.arguments.positionals
        let workspace = try context.loadWorkspace()
        let comparison = try SnapshotDiff.compare(names[0], names.count > 1 ? names[1] : nil, workspace: workspace)
        if context.json {
            try context.printJSON(Report(from: comparison.from, to: comparison.to, modules: comparison.modules.map {
                Report.Entry(name: $0.name, kind: $0.kind, change: $0.status, oldCommit: $0.oldCommit, newCommit: $0.newCommit,
                             oldVersion: $0.oldVersion, newVersion: $0.newVersion, commits: $0.commits, droppedCommits: $0.droppedCommits,
                             error: .optional($0.error))
            }))
        } else if options.markdown {
            context.console.result(markdown(comparison))
        } else {
            context.console.result(text(comparison, style: context.console.style(for: .standardOutput), verbose: context.verbose))
        }
        let uncompared = comparison.modules.filter { $0.error != nil }
        return context.finish(needingAttention: uncompared.map(\.name), diagnostics: uncompared.compactMap { change in
            change.error.map { Diagnostic.error($0, module: change.name) }
        }, verb: spec.name)
    }

    private static func range(_ change: ModuleChange) -> String {
        "\(change.oldCommit.map { String($0.prefix(7)) } ?? "?")..\(change.newCommit.map { String($0.prefix(7)) } ?? "?")"
    }

    private static func version(_ change: ModuleChange) -> String {
        guard change.oldVersion != change.newVersion else { return change.newVersion ?? "" }
        return "\(change.oldVersion ?? "-") → \(change.newVersion ?? "-")"
    }

    static func text(_ comparison: SnapshotComparison, style: Style, verbose: Bool) -> String {
        var lines = ["\(comparison.from) → \(comparison.to)"]
        var unchanged = 0
        for change in comparison.modules {
            switch change.status {
            case .unchanged:
                unchanged += 1
                if verbose { lines.append("  \(style.bold(change.name))  unchanged") }
            case .added:
                lines.append("  \(style.bold(change.name))  \(style.green("added"))\(change.newVersion.map { " (\($0))" } ?? "")")
            case .removed:
                lines.append("  \(style.bold(change.name))  \(style.red("removed"))")
            case .changed where change.error != nil:
                lines.append("  \(style.bold(change.name))  \(range(change))  \(version(change))  \(style.red("not compared"))")
            case .changed:
                let count = change.commits.count
                lines.append("  \(style.bold(change.name))  \(range(change))  \(version(change))  \(count) commit\(count == 1 ? "" : "s")")
                for commit in change.commits { lines.append("      \(style.yellow(String(commit.commit.prefix(7)))) \(commit.summary)") }
                for commit in change.droppedCommits {
                    lines.append("    - \(style.red(String(commit.commit.prefix(7)))) \(commit.summary) (no longer included)")
                }
            }
        }
        if unchanged > 0, !verbose { lines.append(style.dim("  \(unchanged) module\(unchanged == 1 ? "" : "s") unchanged (-v lists them)")) }
        return lines.joined(separator: "\n")
    }

    static func markdown(_ comparison: SnapshotComparison) -> String {
        var lines = ["## Changes from \(comparison.from) to \(comparison.to)", ""]
        let added = comparison.modules.filter { $0.status == .added }
        let removed = comparison.modules.filter { $0.status == .removed }
        for change in comparison.modules where change.status == .changed {
            let versions = change.oldVersion != change.newVersion ? " \(change.oldVersion ?? "-") → \(change.newVersion ?? "-")" : ""
            lines.append("### \(change.name)\(versions)")
            lines.append("")
            for commit in change.commits { lines.append("- \(commit.summary) (\(commit.commit.prefix(7)))") }
            for commit in change.droppedCommits { lines.append("- ~~\(commit.summary)~~ (\(commit.commit.prefix(7)), no longer included)") }
            if let error = change.error {
                lines.append("- not compared: \(error)")
            } else if change.commits.isEmpty, change.droppedCommits.isEmpty {
                lines.append("- version change only")
            }
            lines.append("")
        }
        if !added.isEmpty {
            lines.append("### Added modules")
            lines.append("")
            lines += added.map { "- \($0.name)\($0.newVersion.map { " \($0)" } ?? "")" }
            lines.append("")
        }
        if !removed.isEmpty {
            lines.append("### Removed modules")
            lines.append("")
            lines += removed.map { "- \($0.name)" }
            lines.append("")
        }
        if lines.count == 2 { lines.append("No changes.") }
        return lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
    }
}
