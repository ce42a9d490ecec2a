import Foundation
import GitKit
import ModKit

/// `modkit sync`: clone missing module repositories, fetch the others, check out the manifest revision.
enum SyncCommand: Command {
    static let spec = CommandSpec(
        name: "sync",
        summary: "Clone missing modules, fetch the others and check out the manifest revision",
        discussion: """
        Work runs in parallel (-j). A branch revision is checked out as a local branch tracking the
        remote one and fast-forwarded; a tag or commit id is checked out detached. Local work is never
        destroyed: a module with uncommitted changes, or with local commits a fast-forward cannot
        carry, is fetched but not moved ('kept: local changes', exit 1); a commit that a move would
        leave unreachable (made on a detached HEAD) is first saved under refs/modkit/backup/.
        A module on a topic branch (see 'modkit start') stays on it; with --rebase a topic branch that has
        fallen behind is replayed onto the updated manifest branch when that is conflict-free (never a pushed
        branch, never over local changes), and otherwise left as it was, with the reason.
        Without module names or -g, the modules left out by 'defaults: groups' are not synced. Modules inside
        other modules are cloned after them and kept out of their status through .git/info/exclude.
        First the manifest repository itself is fetched and fast-forwarded to its upstream (never over local
        changes to the files the update touches), and modkit.yml is read again, so a teammate's change to
        it takes effect in this sync; --no-manifest-update leaves the manifest repository as it is.
        """,
        options: Options.declared,
        positional: .modules,
        examples: ["modkit sync", "modkit sync -j 16", "modkit sync QCloudCore COSXML", "modkit sync -g core --json"],
        mutates: true,
        reachesRemotes: true
    )

    /// `modkit sync --json`'s own fields, beside `manifest`, `modules` and `summary`.
    struct Fields: Encodable {
        /// With --rebase: the topic branches replayed, or kept and why.
        var rebased: [ModuleResult<BranchFacts>]?
        /// Directories sync placed that are no longer modules of the manifest.
        var orphaned: [OrphanedModule]
    }

    struct Options: CommandOptions {
        static let noManifestUpdate = OptionSpec(nil, "no-manifest-update", help: "Do not fetch and fast-forward the manifest repository first.")
        static let rebase = OptionSpec(nil, "rebase", help: "Rebase checked-out topic branches onto their updated manifest branch where conflict-free.")
        static let depth = OptionSpec(nil, "depth", .value(metavar: "N"), help: "Fetch only the last N commits (overrides each module's 'depth:').")
        static let declared = [noManifestUpdate, rebase, depth]
        var updatesManifest: Bool
        var rebase: Bool
        var depth: Int?
        init(_ arguments: ParsedArguments) throws {
            updatesManifest = !arguments.flag(Self.noManifestUpdate)
            rebase = arguments.flag(Self.rebase)
            if let text = arguments.value(Self.depth) {
                guard let depth = Int(text), depth > 0 else { throw UsageError("--depth expects a positive number of commits, got '\(text)'") }
                self.depth = depth
            }
        }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        try context.withWorkspace { run in try sync(from: run.workspace, options: options, context: context) }
    }

    private static func sync(from loaded: Workspace, options: Options, context: Context) throws -> ExitStatus {
        var workspace = loaded
        if !context.json, let note = DevelopCommand.activeNote(workspace) { context.console.info(note) }
        if let notice = SnapshotCheckout.interruptedNotice(root: workspace.root) {
            throw ModKitError(notice, hint: "sync moves nothing until then: it would take the half-moved repositories for local changes")
        }
        let manifestUpdate = try options.updatesManifest ? updateManifest(&workspace, context: context) : nil
        let modules = try selectedModules(in: workspace, context: context)
        let depth = try noteDepth(options.depth, for: modules, in: workspace, context: context)

        let progress = SyncProgress(console: context.console, modules: modules, printsLines: !context.json)
        let (jobs, limits) = try context.syncJobs()
        var results = Syncer.sync(modules, in: workspace, jobs: jobs, limits: limits, depth: depth) { progress.handle($0) }
        progress.finish()
        // `imports:` read the manifests of modules that may only now be cloned or updated: reload, and sync what they add.
        for _ in 0..<importRounds where !workspace.manifest.imports.isEmpty && context.arguments.positionals.isEmpty {
            let reloaded = try context.loadWorkspace()
            let known = Set(results.map(\.name))
            var added = reloaded.manifest.modules.filter { !known.contains($0.name) && reloaded.manifest.importedModules.contains($0.name) }
            added = context.groups.isEmpty ? reloaded.manifest.inDefaultGroups(added) : added.filter { !Set(context.groups).isDisjoint(with: $0.groups) }
            workspace = reloaded
            guard !added.isEmpty else { break }
            try reloaded.checkContained(added)
            if !context.json { context.console.info("\(added.count) more module\(added.count == 1 ? "" : "s") from imported manifests") }
            let more = SyncProgress(console: context.console, modules: added, printsLines: !context.json)
            results += Syncer.sync(added, in: reloaded, jobs: jobs, limits: limits, depth: depth) { more.handle($0) }
            more.finish()
        }
        var diagnostics: [Diagnostic] = workspace.manifest.importNotes.map { .warning($0) }
        let rebased = options.rebase ? TopicRebase.run(modules, in: workspace, jobs: try context.jobs(waitsOnIO: true)) : nil
        let ignored = recordPlacement(of: workspace, diagnostics: &diagnostics)
        let orphans = PlacedModules.orphans(in: workspace)

        diagnostics += orphans.filter { !$0.work.isEmpty }.map { .warning($0.advice) } + results.flatMap(leftBehind)
        let text = SummaryText.custom {
            printSummary(results, progress: progress, context: context)
            printDetails(results, ignored: ignored, orphans: orphans, rebased: rebased, context: context)
        }
        let keptTopics = (rebased ?? []).filter { $0.outcome == .kept }
        diagnostics += keptTopics.map { .warning($0.detail, module: $0.name) }
        return try context.report(results, manifest: manifestUpdate, fields: Fields(rebased: rebased, orphaned: orphans), diagnostics: diagnostics,
                                  alsoNeedingAttention: keptTopics.map(\.label), verb: "sync", text: text)
    }

    /// Fast-forwards the manifest repository first and reads modkit.yml again when it moved, saying so unless nothing happened.
    private static func updateManifest(_ workspace: inout Workspace, context: Context) throws -> ModuleResult<SyncFacts>? {
        let manifestUpdate = ManifestUpdate.run(workspace)
        if let update = manifestUpdate {
            if update.outcome == .updated { workspace = try context.loadWorkspace() }
            if !context.json, update.outcome != .upToDate, update.outcome != .skipped || context.verbose {
                let line = "manifest repository: \(update.detail)" + (update.outcome == .updated ? " (modkit.yml read again)" : "")
                if update.outcome == .kept || update.outcome == .failed { context.console.warning(line) } else { context.console.info(line) }
            }
        }
        return manifestUpdate
    }

    /// The modules named or in the groups given; with neither, those in 'defaults: groups', saying how many are left out.
    private static func selectedModules(in workspace: Workspace, context: Context) throws -> [Module] {
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        try workspace.checkContained(modules)
        guard context.arguments.positionals.isEmpty, context.groups.isEmpty else { return modules }
        let taken = workspace.manifest.inDefaultGroups(modules)
        if taken.count < modules.count, !context.json {
            let selection = (workspace.manifest.defaults.groups ?? []).joined(separator: ", ")
            context.console.info("\(modules.count - taken.count) module\(modules.count - taken.count == 1 ? "" : "s") left out by 'defaults: groups: [\(selection)]'; name them or use -g GROUP to sync them")
        }
        return taken
    }

    /// Keeps the module paths out of the manifest repository (the paths newly ignored) and records what this sync
    /// placed; either failing is a warning.
    private static func recordPlacement(of workspace: Workspace, diagnostics: inout [Diagnostic]) -> [String] {
        var ignored: [String] = []
        do { ignored = try Syncer.ignoreModuleRepositories(in: workspace) } catch {
            diagnostics.append(.warning("the module paths could not be added to the manifest repository's .gitignore: \(ErrorText.describe(error))"))
        }
        do { try PlacedModules.record(workspace) } catch {
            diagnostics.append(.warning("what this sync placed could not be recorded in .modkit/placed (\(ErrorText.describe(error))); a module moved later is not named by status"))
        }
        return ignored
    }

    /// The lines after the summary: how each module was transferred (-v), the paths newly ignored, the orphans without
    /// work, and the topic branches replayed.
    private static func printDetails(_ results: [ModuleResult<SyncFacts>], ignored: [String], orphans: [OrphanedModule],
                                     rebased: [ModuleResult<BranchFacts>]?, context: Context) {
        for result in results where context.verbose && result.outcome != .failed && result.outcome != .skipped {
            let writer = result.outcome == .cloned || result.outcome == .updated
                ? "; work tree written by \(result.workTreeByGit.map { "git (\($0))" } ?? "modkit")" : ""
            context.console.info("\(result.label): \(result.transferPath ?? "nothing transferred")\(writer)")
        }
        if !ignored.isEmpty {
            context.console.info("Added \(ignored.count) module path\(ignored.count == 1 ? "" : "s") to the manifest repository's .gitignore.")
        }
        for orphan in orphans where orphan.work.isEmpty { context.console.info(orphan.advice) }
        for rebase in rebased ?? [] where rebase.outcome != .kept { context.console.result("\(rebase.label): \(rebase.detail)") }
    }

    /// How many times one sync reloads `imports:` to sync what they add (each round can reveal one more level).
    static let importRounds = 8

    /// `--depth N`, when given. libgit2 before 1.7 cannot fetch shallow: when it is the fetch engine of a module with
    /// `--depth` or `depth:`, say once that the whole history comes.
    private static func noteDepth(_ asked: Int?, for modules: [Module], in workspace: Workspace, context: Context) throws -> Int? {
        let engine = try FetchEngineSetting.engine()
        let deep = modules.filter { module in
            guard let url = workspace.manifest.url(of: module) else { return false }
            return !engine.makesShallowClones(of: url)
        }
        let shallow = deep.filter { $0.depth != nil }
        guard asked != nil && !deep.isEmpty || !shallow.isEmpty else { return asked }
        let what = asked.map { "--depth \($0)" } ?? "'depth:' of \(shallow.count) module\(shallow.count == 1 ? "" : "s") (\(shallow.prefix(3).map(\.name).joined(separator: ", "))\(shallow.count > 3 ? ", …" : ""))"
        context.console.info("note: \(what) asks for a shallow clone, which libgit2 \(GitKit.libgit2Version) cannot make; the full history is fetched")
        return asked
    }

    private static func printSummary(_ results: [ModuleResult<SyncFacts>], progress: SyncProgress, context: Context) {
        let order: [ModuleOutcome] = [.cloned, .updated, .upToDate, .kept, .failed, .skipped]
        let parts = order.compactMap { outcome -> String? in
            let count = results.filter { $0.outcome == outcome }.count
            return count == 0 && (outcome == .skipped || outcome == .kept || outcome == .failed) ? nil : "\(count) \(outcome.words)"
        }
        let total = results.count
        context.console.result("\(total) module\(total == 1 ? "" : "s"): " + parts.joined(separator: ", "))
        let kept = results.filter { $0.outcome == .kept }
        let failed = results.filter { $0.outcome == .failed }
        if !kept.isEmpty {
            context.console.warning("\(kept.count) module\(kept.count == 1 ? "" : "s") kept (local work protected; commit, stash or push it, then sync again):")
            for result in kept { context.console.diagnostic("  " + progress.line(for: result)) }
        }
        if !failed.isEmpty {
            context.console.error("\(failed.count) module\(failed.count == 1 ? "" : "s") failed:")
            for result in failed { context.console.diagnostic("  " + progress.line(for: result)) }
        }
    }

    /// What a sync kept or saved that the user should know of: local tags the remote's differ from, a commit moved to a backup ref.
    private static func leftBehind(_ result: ModuleResult<SyncFacts>) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if let tags = result.keptLocalTags {
            warnings.append(.warning("kept your local tag\(tags.count == 1 ? "" : "s") \(tags.joined(separator: ", ")) (would clobber existing tag); the remote's differ\(tags.count == 1 ? "s" : ""): compare with git -C \(result.path) ls-remote --tags origin", module: result.name))
        }
        if let backup = result.backup {
            warnings.append(.warning("the commit left behind is saved as \(backup) (git -C \(result.path) log \(backup))", module: result.name))
        }
        return warnings
    }
}
