import Foundation
import ModKit

/// Output shared by the snapshot commands.
enum SnapshotOutput {
    /// Prints every problem and what was done about it (with --json, also as the `errors` report); exit 1, or 130 after Ctrl-C.
    static func report(_ failure: SnapshotFailure, context: Context) throws -> ExitStatus {
        let console = context.console
        if context.json {
            let errors = failure.interrupted ? [ErrorJSON("interrupted")] : failure.problems.map { ErrorJSON($0) }
            try context.printJSON(ErrorReport(errors: errors))
        }
        if failure.interrupted {
            console.error("interrupted")
        } else {
            for problem in failure.problems { console.error(problem) }
        }
        for note in failure.notes { console.diagnostic(note) }
        return failure.interrupted ? .interrupted : .failure
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
