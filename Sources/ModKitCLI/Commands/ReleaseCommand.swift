import Foundation
import ModKit
import YAMLKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// `modkit release NAME`: the release checklist as one resumable, dry-runnable command, each module at its own version.
enum ReleaseCommand: Command {
    static let spec = CommandSpec(
        name: "release",
        summary: "Release the modules that changed, each at its own version, as the product snapshot NAME",
        discussion: """
        Plans first: each module's next version comes from its Conventional Commits since its own last
        version tag (fix: patch, feat: minor, '!' or BREAKING CHANGE: major; below 1.0.0 a breaking change
        bumps the minor). Modules without changes are not released; a module whose dependency is
        released gets a patch release. MODULE=VERSION or MODULE=patch|minor|major overrides one module,
        --bump every released one; plain module names limit the release to them (and their dependents).
        --plan prints the plan: module, current and next version, why, and every tag to create.
        Then the checklist from 'release: { steps: [...] }' in modkit.yml (custom steps: '{run: CMD}'),
        else the default. Preflight checks that no tag to create exists locally or on a remote, before
        anything changes. A release commits only the files it changed. A failed step stops the run
        and is recorded in .modkit/release/NAME.state with the plan: fix the problem and run
        'modkit release NAME --resume', which continues exactly that plan; --abandon discards it.
        --dry-run changes nothing anywhere and prints the plan and what would be committed and pushed; with -v
        it prints every step's changes as diffs. Without --yes, modkit asks before
        changing anything (and refuses when there is no terminal to ask on).
        """,
        options: Options.declared,
        positional: PositionalSpec("NAME [MODULE=VERSION|MODULE=KIND|MODULE...]", minimum: 1, maximum: nil),
        examples: [
            "modkit release 2024.6 --plan",
            "modkit release 2024.6 --dry-run",
            "modkit release 2024.6 QCloudCore=1.0.2 COSXML=minor --yes",
            "modkit release 2024.6 --resume --yes",
            "modkit release 3.1.0-rc --pre rc --yes",
            "modkit release 2024.6 --markdown >> PULL_REQUEST.md",
        ],
        mutates: true,
        reachesRemotes: true
    )

    struct Options: CommandOptions {
        static let plan = OptionSpec(nil, "plan", help: "Print the plan (modules, versions, why, tags) and exit.")
        static let dryRun = OptionSpec(nil, "dry-run", help: "Change nothing; show the plan and every change the release would make.")
        static let resume = OptionSpec(nil, "resume", help: "Continue the saved plan of release NAME from the step that failed.")
        static let abandon = OptionSpec(nil, "abandon", help: "Discard the saved state of release NAME (what was pushed stays).")
        static let bump = OptionSpec(nil, "bump", .value(metavar: "KIND"), help: "Release every released module with this increment: patch, minor or major.")
        static let pre = OptionSpec(nil, "pre", .value(metavar: "ID"), help: "Make the new versions pre-releases, e.g. --pre beta gives 1.1.0-beta.1.")
        static let allowUnderstatedBump = OptionSpec(nil, "allow-understated-bump",
                                                     help: "Take an interface version below what its API change requires (recorded in its changelog).")
        static let from = OptionSpec(nil, "from", .value(metavar: "STEP"), help: "Start at STEP (earlier steps are skipped).")
        static let strict = OptionSpec(nil, "strict", help: "The pin step fails on requirements modkit cannot verify too (as pin --strict).")
        static let markdown = OptionSpec(nil, "markdown", help: "Print the checklist as a Markdown task list and exit.")
        static let yes = OptionSpec("y", "yes", help: "Do not ask for confirmation.")
        static let declared = [plan, dryRun, resume, abandon, bump, pre, allowUnderstatedBump, from, strict, markdown, yes]
        var plan: Bool
        var dryRun: Bool
        var resume: Bool
        var abandon: Bool
        var bump: String?
        var pre: String?
        var allowUnderstatedBump: Bool
        var from: String?
        var strict: Bool
        var markdown: Bool
        var yes: Bool
        init(_ arguments: ParsedArguments) {
            plan = arguments.flag(Self.plan)
            dryRun = arguments.flag(Self.dryRun)
            resume = arguments.flag(Self.resume)
            abandon = arguments.flag(Self.abandon)
            bump = arguments.value(Self.bump)
            pre = arguments.value(Self.pre)
            allowUnderstatedBump = arguments.flag(Self.allowUnderstatedBump)
            from = arguments.value(Self.from)
            strict = arguments.flag(Self.strict)
            markdown = arguments.flag(Self.markdown)
            yes = arguments.flag(Self.yes)
        }
        /// --abandon discards saved state, so it takes the lock; the plan, the checklist and a dry run change nothing.
        var changesNothing: Bool { !abandon && (plan || dryRun || markdown) }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        // A release that would have to ask, with nobody to answer, is refused before it takes the lock or reads anything.
        if context.changesWorkspace, !options.abandon, !options.yes, isatty(STDIN_FILENO) != 1 { throw noPrompt }
        return try context.withWorkspace { run in try release(run.workspace, options: options, context: context) }
    }

    private static let noPrompt = UsageError(
        "modkit release changes and pushes every released repository; add --yes to go ahead without a prompt, or --dry-run to see the changes")

    private static func release(_ workspace: Workspace, options given: Options, context: Context) throws -> ExitStatus {
        var arguments = context.arguments.positionals
        let name = arguments.removeFirst()
        try workspace.checkContained(workspace.manifest.modules)
        var request = try ReleasePlan.Request.parse(arguments, bump: given.bump, pre: given.pre, groups: context.groups)
        if given.allowUnderstatedBump { request.allowUnderstatedBump = true }
        if given.abandon { return try abandon(name, workspace, context: context) }
        let saved = try ReleaseState.load(name, in: workspace)
        let plan: ReleasePlan
        let state: ReleaseState
        do {
            (plan, state) = try planOrRestore(name, request: request, saved: saved, workspace: workspace, options: given, context: context)
        } catch let failure as ReleasePlanError {
            // Every reason the request cannot be planned, through the one renderer; input to fix, so exit 2.
            if context.json { try context.printJSON(ErrorReport(errors: failure.diagnostics.map { ErrorJSON($0) })) }
            _ = context.finish(needingAttention: [], diagnostics: failure.diagnostics, verb: spec.name)
            return .usage
        }
        if given.plan {
            if context.json { try context.printJSON(PlanJSON(name: plan.name, released: plan.released, tags: plan.tags)) } else { context.console.result(plan.table(), terminator: "") }
            return .success
        }
        if given.markdown {
            context.console.result(ReleaseRunner.markdown(plan, state: saved), terminator: "")
            return .success
        }
        if !given.dryRun { try context.refuseWhileDeveloping(workspace) }
        guard try confirm(plan, options: given, context: context) else { return .failure }
        return try run(plan, state: state, options: given, workspace: workspace, context: context)
    }

    /// `--abandon`: discards the saved state of release `name` and says what it leaves behind.
    private static func abandon(_ name: String, _ workspace: Workspace, context: Context) throws -> ExitStatus {
        // Read only to say what was done: a state file this modkit cannot read is discarded too.
        let saved = try? ReleaseState.load(name, in: workspace)
        guard try ReleaseState.discard(name, in: workspace) else {
            throw ModKitError.input("there is no saved release \(name) to abandon")
        }
        let done = saved.map { $0.completed.isEmpty ? "no step had finished" : "steps done: \($0.completed.joined(separator: ", "))" }
        context.console.info("abandoned release \(name)\(done.map { " (\($0))" } ?? ""); commits and tags it made stay where they are")
        if let files = saved?.files, !files.isEmpty {
            context.console.info("files it changed are left as they are (restore the uncommitted ones with git checkout, or remove new ones): "
                                 + files.joined(separator: ", "))
        }
        return .success
    }

    /// The saved plan when resuming (or starting `--from` a step), else a new plan and state; refuses to start over a
    /// release that stopped, and to resume with other arguments.
    private static func planOrRestore(_ name: String, request: ReleasePlan.Request, saved: ReleaseState?, workspace: Workspace, options given: Options,
                                      context: Context) throws -> (ReleasePlan, ReleaseState) {
        if let saved, given.resume || given.from != nil {
            guard request.isEmpty || request == saved.request else {
                throw ModKitError.input("release \(name) was planned with other arguments; --resume continues the saved plan as it is",
                                        hint: "run \(hint(name, "--resume", context)), or discard it with \(hint(name, "--abandon", context))")
            }
            return (try ReleasePlan.restore(saved, workspace: workspace), saved)
        }
        if given.resume { throw ModKitError.input("there is no release \(name) to resume", hint: "start it without --resume") }
        if let saved, !given.changesNothing {
            throw ModKitError.input("release \(name) stopped at '\(saved.failed ?? saved.completed.last ?? "preflight")' in an earlier run",
                                    hint: "continue it with \(hint(name, "--resume", context)), or discard it with \(hint(name, "--abandon", context))")
        }
        let plan = try ReleasePlan.make(name: name, request: request, workspace: workspace)
        return (plan, ReleaseState(plan: plan, request: request))
    }

    /// Without --yes (and not a dry run), shows the plan and asks; false when the answer is not yes ("nothing changed").
    private static func confirm(_ plan: ReleasePlan, options given: Options, context: Context) throws -> Bool {
        guard !given.dryRun && !given.yes else { return true }
        guard isatty(STDIN_FILENO) == 1 else { throw noPrompt }
        context.console.result(plan.table(), terminator: "")
        context.console.write("Proceed? [y/N] ", to: .standardError)
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
            context.console.info("nothing changed")
            return false
        }
        return true
    }

    /// Runs the checklist, showing each step as it ends, then ends through the one summary: every step's diagnostics,
    /// the modules they name, exit 1 when a step failed.
    private static func run(_ plan: ReleasePlan, state initial: ReleaseState, options given: Options, workspace: Workspace,
                            context: Context) throws -> ExitStatus {
        let name = plan.name, dryRun = given.dryRun, console = context.console
        let options = ReleaseRunner.Options(dryRun: dryRun, resume: given.resume, from: given.from,
                                            jobs: try context.jobs(waitsOnIO: true), strict: given.strict)
        if !context.json && (dryRun || given.yes) {
            console.result(plan.table() + (dryRun ? "(dry run: nothing is changed)\n" : ""), terminator: "")
        }
        var outcomes: [StepOutcome] = []
        let passed = try ReleaseRunner.run(plan, state: initial, options: options, workspace: workspace) { outcome in
            outcomes.append(outcome)
            if !context.json { show(outcome, console: console, concise: dryRun && !context.verbose) }
        }
        let state = try ReleaseState.load(name, in: workspace) ?? initial
        var diagnostics = outcomes.flatMap(\.diagnostics)
        if context.json {
            try context.printJSON(RunJSON(name: name, dryRun: dryRun, released: plan.released, steps: outcomes.map(RunJSON.Step.init)))
        } else if !passed, let failed = outcomes.last(where: { $0.outcome == .failed }) {
            if dryRun || (failed.step == .preflight && !state.completed.contains("preflight") && state.failed == nil) {
                diagnostics.append(.note("the release stopped at '\(failed.step.name)'; nothing was changed" + (dryRun ? "" : "; fix it and run \(hint(name, nil, context)) again")))
            } else {
                diagnostics.append(.note("the release stopped at '\(failed.step.name)'; fix it, then run \(hint(name, "--resume", context))"))
            }
        } else if passed {
            console.info(dryRun ? "dry run complete: nothing was changed" + (context.verbose ? "" : " (-v shows every step and file change)") : "released \(name): " + plan.released.map { "\($0.name) \($0.next)" }.joined(separator: ", "))
        }
        var named: [String] = []
        for module in diagnostics.filter({ $0.severity == .error }).compactMap(\.module) where !named.contains(module) { named.append(module) }
        let status = context.finish(needingAttention: named, diagnostics: diagnostics, verb: spec.name)
        return passed ? status : .failure
    }

    /// A release run as `--json` prints it: the plan's modules and every step's outcome.
    private struct RunJSON: Encodable {
        struct Step: Encodable {
            var step: String
            var outcome: ModuleOutcome
            var details: [String]
            /// Planned file changes as a unified diff (dry runs).
            var diff: String
            var error: ErrorJSON?
            /// Every error of the step (the first is `error`).
            var errors: [ErrorJSON]
            /// What the step could not verify although it went through.
            var warnings: [String]

            init(_ outcome: StepOutcome) {
                step = outcome.step.name
                self.outcome = outcome.outcome
                details = outcome.lines
                diff = outcome.diff
                error = outcome.error.map { ErrorJSON($0) }
                errors = outcome.diagnostics.filter { $0.severity == .error }.map { ErrorJSON($0) }
                warnings = outcome.diagnostics.filter { $0.severity == .warning }.map { ErrorJSON($0).message }
            }
        }
        var name: String
        var dryRun: Bool
        var released: [ReleasedModule]
        var steps: [Step]
    }

    /// The plan as `--plan --json` prints it.
    private struct PlanJSON: Encodable {
        var name: String
        var released: [ReleasedModule]
        var tags: [ReleaseTag]
    }

    /// A command line that continues (or discards) release `name` as this one was run: same directory options, --yes.
    static func hint(_ name: String, _ flag: String?, _ context: Context) -> String {
        var words = ["modkit"]
        if let directory = context.arguments.value(GlobalOptions.directory) { words += ["-C", StringEscaping.shellWord(directory)] }
        if let manifest = context.arguments.value(GlobalOptions.manifest) { words += ["--manifest", StringEscaping.shellWord(manifest)] }
        words += ["release", StringEscaping.shellWord(name)]
        if let flag { words.append(flag) }
        if flag != "--abandon" { words.append("--yes") }
        return "'" + words.joined(separator: " ") + "'"
    }


    /// The steps whose lines a concise dry run still prints: what would be committed and pushed.
    private static let conciseSteps: Set<String> = ["commit", "push"]

    /// One step as it ran; `concise` (a dry run without -v) keeps a line per step, and the lines of a failed step
    /// and of the commit and push steps, without file diffs.
    private static func show(_ outcome: StepOutcome, console: Console, concise: Bool) {
        let style = console.style(for: .standardOutput)
        let mark: String
        switch outcome.outcome {
        case .failed: mark = style.red("✗")
        case .skipped: mark = style.dim("-")
        default: mark = style.green("✓")
        }
        let suffix = outcome.outcome == .skipped ? style.dim(" skipped (\(outcome.lines.first ?? ""))") : ""
        console.result("\(mark) \(style.bold(outcome.step.name))\(suffix)")
        if outcome.outcome != .skipped, !concise || outcome.outcome == .failed || conciseSteps.contains(outcome.step.name) {
            for line in outcome.lines { console.result("    \(line)") }
        }
        if !outcome.diff.isEmpty, !concise { console.result(outcome.diff, terminator: outcome.diff.hasSuffix("\n") ? "" : "\n") }
    }
}
