import Foundation
import ModKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// `modkit release VERSION`: the release checklist as one resumable, dry-runnable command.
enum ReleaseCommand: Command {
    static let spec = CommandSpec(
        name: "release",
        summary: "Run the release checklist: preflight, bump, changelog, pin, guard, test, commit, tag, push",
        discussion: """
        Releases the selected modules (all by default) at VERSION, dependencies first. The steps come
        from 'release: { steps: [...] }' in modkit.yml (custom steps: '{run: CMD}'), else the default
        list. Each step prints ✓, ✗ or skipped with what it changed. A failed step stops the run and
        is recorded in .modkit/release/VERSION.state: fix the problem and run again with --resume
        (finished steps are not redone) or --from STEP. --dry-run changes nothing anywhere and prints
        every change as a diff and a list of refs. Without --yes, modkit asks before changing anything
        (and refuses when there is no terminal to ask on).
        """,
        options: [
            OptionSpec(nil, "dry-run", help: "Change nothing; show every change the release would make."),
            OptionSpec(nil, "resume", help: "Continue a release that stopped, from the step that failed."),
            OptionSpec(nil, "from", .value(metavar: "STEP"), help: "Start at STEP (earlier steps are skipped)."),
            OptionSpec(nil, "markdown", help: "Print the checklist as a Markdown task list and exit."),
            OptionSpec("y", "yes", help: "Do not ask for confirmation."),
        ],
        positional: PositionalSpec("VERSION [MODULE...]", minimum: 1, maximum: nil),
        examples: [
            "modkit release 1.2.0 --dry-run",
            "modkit release 1.2.0 --yes",
            "modkit release 1.2.0 --resume",
            "modkit release 1.2.1 QCloudCore --yes",
            "modkit release 1.2.0 --markdown >> PULL_REQUEST.md",
        ],
        mutates: true,
        reachesRemotes: true
    )

    static func run(_ context: Context) throws -> ExitStatus {
        var names = context.arguments.positionals
        let version = names.removeFirst()
        let workspace = try context.loadWorkspace()
        let plan = try ReleasePlan.make(version: version, modules: names, groups: context.groups, workspace: workspace)
        let console = context.console
        if context.arguments.flag("markdown") {
            console.result(ReleaseRunner.markdown(plan, state: try ReleaseState.load(plan.version.description, in: workspace)), terminator: "")
            return .success
        }
        let dryRun = context.arguments.flag("dry-run")
        if !dryRun && !context.arguments.flag("yes") {
            guard isatty(STDIN_FILENO) == 1 else {
                throw UsageError("modkit release changes and pushes every released repository; add --yes to go ahead without a prompt, or --dry-run to see the changes")
            }
            console.info("Release \(plan.version): \(plan.modules.map(\.name).joined(separator: ", "))")
            console.write("Proceed? [y/N] ", to: .standardError)
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                console.info("nothing changed")
                return .failure
            }
        }
        let options = ReleaseRunner.Options(dryRun: dryRun, resume: context.arguments.flag("resume"),
                                            from: context.arguments.value("from"), jobs: try context.jobs(waitsOnIO: true))
        console.info("Release \(plan.version)\(dryRun ? " (dry run: nothing is changed)" : ""): \(plan.modules.map(\.name).joined(separator: ", "))")
        var outcomes: [StepOutcome] = []
        let passed = try ReleaseRunner.run(plan, workspace: workspace, options: options) { outcome in
            outcomes.append(outcome)
            if !context.json { show(outcome, console: console) }
        }
        if context.json {
            try context.printJSON(outcomes.map { ["step": $0.step.name, "status": $0.status.rawValue, "details": $0.lines.joined(separator: "\n"), "diff": $0.diff] })
        } else if !passed, let failed = outcomes.last(where: { $0.status == .failed }) {
            console.error("the release stopped at '\(failed.step.name)'" + (dryRun ? "" : "; fix it, then run 'modkit release \(plan.version) --resume'"))
        } else if passed {
            console.info(dryRun ? "dry run complete: nothing was changed" : "released \(plan.version)")
        }
        return passed ? .success : .failure
    }

    private static func show(_ outcome: StepOutcome, console: Console) {
        let style = console.style(for: .standardOutput)
        let mark: String
        switch outcome.status {
        case .done: mark = style.green("✓")
        case .failed: mark = style.red("✗")
        case .skipped: mark = style.dim("-")
        }
        let suffix = outcome.status == .skipped ? style.dim(" skipped (\(outcome.lines.first ?? ""))") : ""
        console.result("\(mark) \(style.bold(outcome.step.name))\(suffix)")
        if outcome.status != .skipped {
            for line in outcome.lines { console.result("    \(line)") }
        }
        if !outcome.diff.isEmpty { console.result(outcome.diff, terminator: outcome.diff.hasSuffix("\n") ? "" : "\n") }
    }
}
