import Foundation
import ModKit

/// Output shared by the snapshot commands.
enum SnapshotOutput {
    /// Ends a snapshot command that stopped through the one summary: every problem and what was done about it (with
    /// --json, also as the `errors` report), the repositories that need attention; exit 1, or 130 after Ctrl-C.
    static func report(_ failure: SnapshotFailure, context: Context) throws -> ExitStatus {
        if context.json {
            let errors = failure.interrupted ? [ErrorJSON("interrupted")] : failure.problems.map { ErrorJSON($0) }
            try context.printJSON(ErrorReport(errors: errors))
        }
        var named: [String] = []
        for module in failure.problems.compactMap(\.module) where !named.contains(module) { named.append(module) }
        let diagnostics = failure.interrupted ? failure.diagnostics.filter { $0.severity != .error } : failure.diagnostics
        let status = context.finish(needingAttention: failure.interrupted ? [] : named, diagnostics: diagnostics, verb: context.command.name,
                                    interrupted: failure.interrupted)
        return failure.interrupted || status == .failure ? status : .failure
    }

    /// How the push went, in one line (a failed push is a diagnostic of the summary).
    static func printPushes(_ pushes: [ModuleResult<PushFacts>], console: Console) {
        let pushed = pushes.filter { !$0.pushed.isEmpty }.count
        let failed = pushes.filter { $0.outcome == .failed }.count
        if pushed == 0, failed == 0 {
            console.result("Nothing to push: every remote already has the snapshot.")
        } else {
            console.result("Pushed to \(pushed) repositor\(pushed == 1 ? "y" : "ies")" + (failed > 0 ? "; \(failed) failed (run the same command again to complete)" : "."))
        }
    }
}
