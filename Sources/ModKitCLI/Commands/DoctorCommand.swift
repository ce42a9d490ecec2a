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

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        try context.withWorkspace { run in
            let results = Doctor.check(try run.modules(), in: run.workspace, jobs: try context.jobs(waitsOnIO: true))
            return try context.report(results, verb: "doctor", text: .custom { print(results, console: context.console) })
        }
    }

    private static func print(_ results: [ModuleResult<DoctorFacts>], console: Console) {
        let style = console.style(for: .standardOutput)
        var table = TextTable()
        for result in results {
            let verdict = result.outcome == .ok ? style.green(result.verdict) : style.red(result.verdict)
            table.add([result.label, verdict, result.url])
        }
        if !results.isEmpty { console.result(table.render()) }
        let failed = results.filter { $0.outcome != .ok }.count
        console.result("\(results.count) remote\(results.count == 1 ? "" : "s") checked: "
            + "\(results.count - failed) ok" + (failed > 0 ? ", \(failed) with problems" : ""))
    }
}
