import GitKit
import ModKit

/// `modkit doctor`: reach every module remote in parallel and say per module what is wrong and how to fix it.
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        name: "doctor",
        summary: "Check that every module remote can be reached with your credentials",
        discussion: """
        Runs an ls-remote against every repository module's url, in parallel (-j), authenticating exactly
        like sync (ssh-agent and ~/.ssh keys, known_hosts, git credential helpers). Prints per module
        'ok', 'auth failed', 'unreachable', 'host key unknown', 'host key changed' or
        'certificate not trusted', with the fix. Exits 1 when any module is not ok.
        """,
        positional: .modules,
        examples: ["modkit doctor", "modkit doctor --accept-new-host-keys", "modkit doctor --json"],
        reachesRemotes: true
    )

    /// One remote in `modkit doctor --json`.
    struct Row: ModuleRow {
        var name: String?
        var path: String
        var url: String
        var outcome: ModuleOutcome
        /// Why it failed: authFailed, unreachable, hostKeyUnknown, hostKeyChanged, certificateNotTrusted or failed.
        var problem: String?
        var detail: String
        var fix: String?
        var error: ErrorJSON?

        init(_ result: DoctorResult) {
            name = result.name
            path = result.path
            url = result.url
            outcome = result.isOK ? .ok : .failed
            problem = result.isOK ? nil : Row.problemName(result.verdict)
            detail = result.detail
            fix = result.isOK ? nil : result.fix
            error = result.isOK ? nil : ErrorJSON(result.detail, hint: result.fix)
        }

        /// A verdict such as "host key unknown" in lowerCamelCase.
        static func problemName(_ verdict: String) -> String {
            let words = verdict.split(separator: " ").map(String.init)
            guard let first = words.first, verdict != RemoteProblem.other.rawValue else { return "failed" }
            return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
    }

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        try context.withWorkspace { run in
            let results = Doctor.check(try run.modules(), in: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            if context.json {
                let rows = results.map(Row.init)
                try context.printJSON(ModuleRowsBody(fields: NoFields(), manifest: nil as Row?, modules: rows, summary: outcomeCounts(rows.map(\.outcome))))
            } else {
                print(results, console: context.console)
            }
            return results.allSatisfy(\.isOK) ? .success : .failure
        }
    }

    private static func print(_ results: [DoctorResult], console: Console) {
        let style = console.style(for: .standardOutput)
        var table = TextTable()
        for result in results {
            let verdict = result.isOK ? style.green(result.verdict) : style.red(result.verdict)
            table.add([result.name, verdict, result.url])
        }
        if !results.isEmpty { console.result(table.render()) }
        for result in results where !result.isOK {
            console.error("\(result.name): \(result.verdict): \(result.detail)")
            console.diagnostic("  fix: \(result.fix)")
        }
        let failed = results.filter { !$0.isOK }.count
        console.result("\(results.count) remote\(results.count == 1 ? "" : "s") checked: "
            + "\(results.count - failed) ok" + (failed > 0 ? ", \(failed) with problems" : ""))
    }
}
