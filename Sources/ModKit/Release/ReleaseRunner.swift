import Foundation

/// Walks the release checklist: skips steps an earlier run finished (`--resume`) or that come before `--from`,
/// stops at the first failure and records where, so the next run can continue from there.
public enum ReleaseRunner {
    public struct Options: Sendable {
        public var dryRun = false
        public var resume = false
        public var from: String?
        public var jobs = 4

        public init(dryRun: Bool = false, resume: Bool = false, from: String? = nil, jobs: Int = 4) {
            self.dryRun = dryRun
            self.resume = resume
            self.from = from
            self.jobs = jobs
        }
    }

    /// The steps to run and the ones to skip, checked against the saved state before anything runs.
    public static func schedule(_ plan: ReleasePlan, state: ReleaseState?, options: Options) throws -> [(step: ReleaseStepKind, skip: String?)] {
        let names = plan.steps.map(\.name)
        if let from = options.from {
            guard let start = names.firstIndex(of: from) else {
                throw ModKitError.input("no release step named '\(from)'\(DidYouMean.suffix(for: from, among: names))",
                                        hint: "the steps are: \(names.joined(separator: ", "))")
            }
            return plan.steps.enumerated().map { index, step in (step, index < start ? "before --from \(from)" : nil) }
        }
        if options.resume {
            guard let state else {
                throw ModKitError.input("there is no release of \(plan.version) to resume", hint: "start it without --resume")
            }
            return plan.steps.map { step in (step, state.completed.contains(step.name) ? "done in an earlier run" : nil) }
        }
        if let state, let failed = state.failed, !options.dryRun {
            throw ModKitError.input("the release of \(state.version) stopped at '\(failed)' in an earlier run",
                                    hint: "fix the problem, then run 'modkit release \(state.version) --resume' (or --from STEP)")
        }
        return plan.steps.map { ($0, nil) }
    }

    /// Runs the schedule; `report` is called after each step. Returns whether every step passed.
    public static func run(_ plan: ReleasePlan, workspace: Workspace, options: Options,
                           report: (StepOutcome) -> Void) throws -> Bool {
        let saved = try ReleaseState.load(plan.version.description, in: workspace)
        let schedule = try schedule(plan, state: saved, options: options)
        var state = saved.flatMap { $0.steps == plan.steps.map(\.name) ? $0 : nil }
            ?? ReleaseState(version: plan.version.description, modules: plan.modules.map(\.name), steps: plan.steps.map(\.name))
        if !options.resume && options.from == nil {
            state.completed = []
            state.failed = nil
        }
        let run = ReleaseRun(workspace: workspace, plan: plan, dryRun: options.dryRun, jobs: options.jobs)
        let lock = options.dryRun ? nil : try WorkspaceLock(root: workspace.root, command: "modkit release \(plan.version)")
        defer { lock?.release() }

        for (step, skip) in schedule {
            if let skip {
                report(StepOutcome(step: step, status: .skipped, lines: [skip]))
                continue
            }
            let outcome = run.run(step)
            report(outcome)
            guard !options.dryRun else {
                if outcome.status == .failed { return false }
                continue
            }
            if outcome.status == .failed {
                state.failed = step.name
                try state.save(in: workspace)
                return false
            }
            if !state.completed.contains(step.name) { state.completed.append(step.name) }
            state.failed = nil
            try state.save(in: workspace)
        }
        return true
    }

    /// The checklist as a Markdown task list for a pull request; steps done in a saved run are ticked.
    public static func markdown(_ plan: ReleasePlan, state: ReleaseState?) -> String {
        var lines = ["## Release \(plan.version)", "", "Modules (dependencies first): " + plan.modules.map(\.name).joined(separator: ", "), ""]
        for step in plan.steps {
            let done = state?.completed.contains(step.name) == true
            lines.append("- [\(done ? "x" : " ")] **\(step.name)** — \(step.purpose)")
        }
        for dependent in plan.dependents {
            lines.append("- [ ] bump \(dependent.module)'s requirements on \(dependent.dependsOn.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
