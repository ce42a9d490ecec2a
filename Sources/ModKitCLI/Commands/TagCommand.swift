import Foundation
import ModKit

/// `modkit tag VERSION`: record every module's commit as one snapshot and tag every repository, all or nothing.
enum TagCommand: Command {
    static let spec = CommandSpec(
        name: "tag",
        summary: "Snapshot every module's commit and tag every repository",
        discussion: """
        Checks every repository first: no uncommitted changes (--allow-dirty overrides), HEAD on a
        commit, and each tag either absent or already on the right commit. A recorded commit that is
        on no remote branch is a warning (an error with --require-pushed). Then it records each module
        repository's HEAD (what is checked out, not what was last fetched), its version and branch,
        and the manifest repository's own commit in .modkit/snapshots/VERSION.yml, commits that file
        on the manifest repository's current branch, and creates annotated tags: VERSION there,
        tag-format (default {workspace}/{snapshot}) in every module repository, and dir-tag-format (default
        {module}/{version}) for every directory module. An existing directory-module tag is kept when
        the module's folder is identical on its commit, otherwise it is a conflict (bump the version).
        All or nothing: if any tag cannot be made, every tag and the commit this run made are removed
        again. Running the same 'modkit tag' again when the snapshot exists and matches changes
        nothing. With --push the tags and the snapshot commit go to every repository's remote; a
        failed push is reported per repository and a later 'modkit tag VERSION --push' completes it.
        """,
        options: Options.declared,
        positional: PositionalSpec("VERSION", minimum: 1, maximum: 1),
        examples: [
            "modkit tag v1.1.1",
            "modkit tag v1.1.1 --push",
            "modkit tag v1.1.1 --require-pushed -m \"Release 1.1.1\"",
            "modkit tag v1.1.1 --json",
        ],
        mutates: true,
        reachesRemotes: true
    )

    /// `modkit tag --json`'s own fields, beside `manifest` and `modules` (one row per tag).
    struct Fields: Encodable {
        var snapshot: String
        var file: String
        var unchanged: Bool
        var manifestCommit: String
        var snapshotCommit: String
        var manifestBranch: String?
        var warnings: [String]
        /// With --push: what each repository's remote received.
        var pushes: [ModuleResult<PushFacts>]?
    }

    struct Options: CommandOptions {
        static let push = OptionSpec(nil, "push", help: "Push the tags and the snapshot commit to every remote (only what is missing).")
        static let allowDirty = OptionSpec(nil, "allow-dirty", help: "Record repositories with uncommitted changes (their HEAD, not the changes).")
        static let requirePushed = OptionSpec(nil, "require-pushed", help: "Refuse when a recorded commit is on no remote branch (default: warn).")
        static let force = OptionSpec(nil, "force", help: "Move existing tags and replace a different snapshot of the same name.")
        static let message = OptionSpec("m", "message", .value(metavar: "MESSAGE"), help: "Annotation of the tags (default: 'modkit snapshot VERSION').")
        static let declared = [push, allowDirty, requirePushed, force, message]
        var push: Bool
        var tag: TagOptions
        init(_ arguments: ParsedArguments) {
            push = arguments.flag(Self.push)
            tag = TagOptions(allowDirty: arguments.flag(Self.allowDirty), requirePushed: arguments.flag(Self.requirePushed),
                             force: arguments.flag(Self.force), message: arguments.value(Self.message))
        }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        try context.withWorkspace { run in
            try context.refuseWhileDeveloping(run.workspace)
            return try tag(context.arguments.positionals[0], workspace: run.workspace, push: options.push, options: options.tag, context: context)
        }
    }

    private static func tag(_ name: String, workspace: Workspace, push: Bool, options: TagOptions, context: Context) throws -> ExitStatus {
        try workspace.checkContained(workspace.manifest.modules)
        let jobs = try context.jobs(waitsOnIO: false)
        let report: TagReport
        do {
            report = try InterruptDeferral.run { isCancelled in
                try SnapshotTagger.tag(name, workspace: workspace, options: options, jobs: jobs, isCancelled: isCancelled)
            }
        } catch let failure as SnapshotFailure {
            return try SnapshotOutput.report(failure, context: context)
        }
        var pushes: [ModuleResult<PushFacts>]?
        if push {
            pushes = SnapshotPusher.push(report, workspace: workspace, force: options.force, jobs: try context.jobs(waitsOnIO: true))
        }
        let failedPushes = (pushes ?? []).filter { $0.outcome == .failed }
        let pushErrors = failedPushes.map { push in
            Diagnostic.error("push to \(push.remote ?? "its remote") failed: \(push.detail)", module: push.name ?? "manifest repository")
        }
        let fields = Fields(snapshot: report.snapshot, file: report.file, unchanged: report.unchanged, manifestCommit: report.manifestCommit,
                            snapshotCommit: report.snapshotCommit, manifestBranch: report.manifestBranch, warnings: report.warnings.map(\.messageNamingModule), pushes: pushes)
        return try context.report(report.tags.filter { $0.name != nil }, manifest: report.tags.first { $0.name == nil }, fields: fields,
                                  diagnostics: report.warnings + pushErrors,
                                  alsoNeedingAttention: failedPushes.map(\.label), verb: "tag", text: .custom {
            printSummary(report, context: context)
            if let pushes { SnapshotOutput.printPushes(pushes, console: context.console) }
        })
    }

    private static func printSummary(_ report: TagReport, context: Context) {
        let count = { (outcome: ModuleOutcome) in report.tags.filter { $0.outcome == outcome }.count }
        if report.unchanged, count(.created) == 0, count(.updated) == 0 {
            context.console.result("Snapshot \(report.snapshot) already exists and matches every repository; nothing changed.")
            return
        }
        let branch = report.manifestBranch.map { " on \($0)" } ?? " (detached HEAD)"
        let where_ = report.unchanged ? "already recorded in \(report.file)"
            : "recorded in \(report.file), committed as \(report.snapshotCommit.prefix(7))\(branch)"
        context.console.result("Snapshot \(report.snapshot): \(report.modules.count) modules \(where_)")
        context.console.result("Tags: \(count(.created)) created, \(count(.updated)) moved, \(count(.upToDate)) already in place")
        if context.verbose {
            var table = TextTable()
            for tag in report.tags {
                table.add([tag.label, tag.path, tag.tag, String(tag.commit.prefix(7)), TagFacts.word(for: tag.outcome)])
            }
            context.console.result(table.render(indent: "  "))
        }
    }
}
