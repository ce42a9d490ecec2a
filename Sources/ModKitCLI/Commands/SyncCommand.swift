import Foundation
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
        A module on a topic branch (see 'modkit start') stays on it.
        """,
        positional: .modules,
        examples: ["modkit sync", "modkit sync -j 16", "modkit sync QCloudCore COSXML", "modkit sync -g core --json"],
        mutates: true,
        reachesRemotes: true
    )

    /// `modkit sync --json`: every module's result and the counts.
    struct Report: Encodable {
        var modules: [ModuleSyncResult]
        var summary: [String: Int]
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        let lock = try WorkspaceLock(root: workspace.root, command: "modkit sync")
        defer { lock.release() }
        if let notice = SnapshotCheckout.interruptedNotice(root: workspace.root) {
            throw ModKitError(notice, hint: "sync moves nothing until then: it would take the half-moved repositories for local changes")
        }
        if let stale = lock.replacedStaleHolder {
            context.console.info("took over a stale workspace lock left by pid \(stale.pid) ('\(stale.command)')")
        }

        let progress = SyncProgress(console: context.console, modules: modules, printsLines: !context.json)
        let results = Syncer.sync(modules, in: workspace, jobs: try context.jobs(waitsOnIO: true)) { progress.handle($0) }
        progress.finish()
        let ignored = (try? Syncer.ignoreModuleRepositories(in: workspace)) ?? []

        let counts = Dictionary(results.map { ($0.outcome.rawValue, 1) }, uniquingKeysWith: +)
        if context.json {
            try context.printJSON(Report(modules: results, summary: counts))
        } else {
            printSummary(results, progress: progress, context: context)
            if !ignored.isEmpty {
                context.console.info("Added \(ignored.count) module path\(ignored.count == 1 ? "" : "s") to the manifest repository's .gitignore.")
            }
        }
        return results.contains { $0.isProblem } ? .failure : .success
    }

    private static func printSummary(_ results: [ModuleSyncResult], progress: SyncProgress, context: Context) {
        let order: [ModuleSyncResult.Outcome] = [.cloned, .updated, .upToDate, .kept, .failed, .skipped]
        let parts = order.compactMap { outcome -> String? in
            let count = results.filter { $0.outcome == outcome }.count
            return count == 0 && (outcome == .skipped || outcome == .kept || outcome == .failed) ? nil : "\(count) \(outcome.rawValue)"
        }
        let total = results.count
        context.console.result("\(total) module\(total == 1 ? "" : "s"): " + parts.joined(separator: ", "))
        let kept = results.filter { $0.outcome == .kept }
        let failed = results.filter { $0.outcome == .failed }
        if !kept.isEmpty {
            context.console.diagnostic("\nKept (local work protected; commit, stash or push it, then sync again):")
            for result in kept { context.console.diagnostic("  " + progress.line(for: result)) }
        }
        if !failed.isEmpty {
            context.console.diagnostic("\nFailed:")
            for result in failed { context.console.diagnostic("  " + progress.line(for: result)) }
        }
        for result in results where result.backup != nil {
            context.console.warning("\(result.name): the commit left behind is saved as \(result.backup!) (git -C \(result.path) log \(result.backup!))")
        }
    }
}
