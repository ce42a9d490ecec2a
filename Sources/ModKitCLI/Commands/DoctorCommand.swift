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

    static func run(_ context: Context) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let modules = try workspace.modules(named: context.arguments.positionals, groups: context.groups)
        let results = Doctor.check(modules, in: workspace, jobs: try context.jobs(waitsOnIO: true))
        if context.json {
            try context.printJSON(results)
        } else {
            let style = context.console.style(for: .standardOutput)
            var table = TextTable()
            for result in results {
                let verdict = result.isOK ? style.green(result.verdict) : style.red(result.verdict)
                table.add([result.name, verdict, result.url])
            }
            if !results.isEmpty { context.console.result(table.render()) }
            for result in results where !result.isOK {
                context.console.diagnostic("\n\(result.name): \(result.verdict): \(result.detail)\n  fix: \(result.fix)")
            }
            let failed = results.filter { !$0.isOK }.count
            context.console.result("\(results.count) remote\(results.count == 1 ? "" : "s") checked: "
                + "\(results.count - failed) ok" + (failed > 0 ? ", \(failed) with problems" : ""))
        }
        return results.allSatisfy(\.isOK) ? .success : .failure
    }
}
