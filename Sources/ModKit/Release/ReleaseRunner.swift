import Foundation

/// Walks the release checklist: skips steps an earlier run of the same plan finished (`--resume`) or that come before
/// `--from`, stops at the first failure and records where, so the next run can continue from there.
public enum ReleaseRunner {
    public struct Options: Sendable {
        public var dryRun = false
        public var resume = false
        public var from: String?
        public var jobs = 4
        /// The pin step fails on requirements modkit cannot verify too.
        public var strict = false

        public init(dryRun: Bool = false, resume: Bool = false, from: String? = nil, jobs: Int = 4, strict: Bool = false) {
            self.dryRun = dryRun
            self.resume = resume
            self.from = from
            self.jobs = jobs
            self.strict = strict
        }
    }

    /// The steps to run and the ones to skip.
    public static func schedule(_ plan: ReleasePlan, state: ReleaseState?, options: Options) throws -> [(step: ReleaseStepKind, skip: String?)] {
        let names = plan.steps.map(\.name)
        if let from = options.from {
            guard let start = names.firstIndex(of: from) else {
                throw ModKitError.input("no release step named '\(from)'\(DidYouMean.suffix(for: from, among: names))",
                                        hint: "the steps are: \(names.joined(separator: ", "))")
            }
            return plan.steps.enumerated().map { index, step in (step, index < start ? "before --from \(from)" : nil) }
        }
        if options.resume, let state {
            return plan.steps.map { step in (step, state.completed.contains(step.name) ? "done in an earlier run" : nil) }
        }
        return plan.steps.map { ($0, nil) }
    }

    /// Runs the schedule; `report` is called after each step. Returns whether every step passed.
    /// `state` is the saved release being resumed, or a new one; a preflight failure of a new release saves nothing.
    /// The caller holds the workspace lock unless this is a dry run.
    public static func run(_ plan: ReleasePlan, state initial: ReleaseState, options: Options, workspace: Workspace,
                           report: (StepOutcome) -> Void) throws -> Bool {
        var state = initial
        let schedule = try schedule(plan, state: state, options: options)
        let run = ReleaseRun(workspace: workspace, plan: plan, dryRun: options.dryRun, jobs: options.jobs, state: state)
        run.strict = options.strict
        run.willWrite = { files in
            var saved = state
            saved.files = files
            try saved.save(in: workspace)
        }
        // A run killed while writing leaves temporary files beside the release's files; the next run removes them.
        if !options.dryRun { state.files.forEach { AtomicFile.removeAbandonedTemporaries(of: workspace.root.appendingPathComponent($0)) } }
        for (step, skip) in schedule {
            if let skip {
                report(StepOutcome(step: step, outcome: .skipped, lines: [skip]))
                continue
            }
            let outcome = run.run(step)
            report(outcome)
            if options.dryRun {
                if outcome.outcome == .failed { return false }
                continue
            }
            state.files = run.files
            state.published = run.published
            if outcome.outcome == .failed {
                // A preflight that fails has changed nothing: there is nothing to resume.
                if step == .preflight && state.completed.isEmpty { return false }
                state.failed = step.name
                try state.save(in: workspace)
                return false
            }
            if !state.completed.contains(step.name) { state.completed.append(step.name) }
            state.failed = nil
            try state.save(in: workspace)
        }
        if !options.dryRun { _ = try ReleaseState.discard(plan.name, in: workspace) }
        return true
    }

    /// The checklist as a Markdown task list for a pull request; steps done in a saved run are ticked.
    public static func markdown(_ plan: ReleasePlan, state: ReleaseState?) -> String {
        var lines = ["## Release \(plan.name)", ""]
        lines += plan.released.map { "- \($0.name) \($0.current) → \($0.next) (\($0.why))" }
        lines.append("")
        for step in plan.steps {
            let done = state?.completed.contains(step.name) == true
            lines.append("- [\(done ? "x" : " ")] **\(step.name)** — \(step.purpose)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
