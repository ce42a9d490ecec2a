import ModKit

/// What a command did (or, with --check and --dry-run, would do) to one module or repository: the one vocabulary
/// of every command's text, JSON and exit code (docs/json.md).
enum ModuleOutcome: String, Encodable, CaseIterable, Sendable {
    /// A check or a command run passed and changed nothing (doctor, forall, a release step).
    case ok
    /// status: nothing to commit and nothing to push.
    case clean
    /// status: local changes, unpushed commits, behind, or away from the manifest revision.
    case changed
    /// Something new was made: a branch, a tag, a file.
    case created
    /// The repository was cloned.
    case cloned
    /// Moved, rebased or rewritten to what was asked.
    case updated
    /// Already as asked; nothing was done.
    case upToDate
    /// Sent to the remote.
    case pushed
    /// Removed (a topic branch).
    case deleted
    /// Left as it was to protect local work; says why (exit 1).
    case kept
    /// Not applicable here (a directory module, not cloned, nothing to do).
    case skipped
    /// A repository module that is not cloned yet.
    case notCloned
    /// A directory module whose folder does not exist.
    case missing
    /// It went wrong; `error` says what (exit 1).
    case failed

    /// Whether this outcome makes the command exit 1.
    var needsAttention: Bool { self == .kept || self == .failed }
}

extension ModuleOutcome {
    init(_ sync: ModuleSyncResult.Outcome) {
        switch sync {
        case .cloned: self = .cloned
        case .updated: self = .updated
        case .upToDate: self = .upToDate
        case .kept: self = .kept
        case .failed: self = .failed
        case .skipped: self = .skipped
        }
    }

    init(_ update: ManifestUpdateResult.Outcome) {
        switch update {
        case .updated: self = .updated
        case .upToDate: self = .upToDate
        case .kept: self = .kept
        case .skipped: self = .skipped
        case .failed: self = .failed
        }
    }

    init(_ rebase: TopicRebaseResult.Outcome) {
        switch rebase {
        case .rebased: self = .updated
        case .upToDate: self = .upToDate
        case .kept: self = .kept
        }
    }

    init(_ action: BranchActionResult.Outcome) {
        switch action {
        case .pushed: self = .pushed
        case .upToDate: self = .upToDate
        case .deleted: self = .deleted
        case .kept: self = .kept
        case .skipped: self = .skipped
        case .failed: self = .failed
        }
    }

    init(_ start: StartResult.Outcome) {
        switch start {
        case .created: self = .created
        case .switched: self = .updated
        case .alreadyOn: self = .upToDate
        case .failed: self = .failed
        case .skipped: self = .skipped
        }
    }

    init(_ checkout: CheckoutResult.Outcome) {
        switch checkout {
        case .moved: self = .updated
        case .unchanged: self = .upToDate
        case .cloned: self = .cloned
        case .failed: self = .failed
        }
    }

    init(_ tag: SnapshotTagResult.Action) {
        switch tag {
        case .created: self = .created
        case .unchanged: self = .upToDate
        case .moved: self = .updated
        }
    }

    init(_ file: GuardFile.State) {
        switch file {
        case .upToDate: self = .upToDate
        case .stale: self = .updated
        case .missing: self = .created
        }
    }

    init(_ step: StepOutcome.Status) {
        switch step {
        case .done: self = .ok
        case .failed: self = .failed
        case .skipped: self = .skipped
        }
    }

    init(_ status: ModuleStatus) {
        switch status.state {
        case .ok: self = status.isClean ? .clean : .changed
        case .notCloned: self = .notCloned
        case .missing: self = .missing
        case .error: self = .failed
        }
    }
}

/// How many results had each outcome, keyed by outcome: the `summary` of a JSON report.
func outcomeCounts(_ outcomes: some Sequence<ModuleOutcome>) -> [String: Int] {
    Dictionary(outcomes.map { ($0.rawValue, 1) }, uniquingKeysWith: +)
}
