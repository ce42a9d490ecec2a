/// What a command did (or, with --check and --dry-run, would do) to one module or repository: the one vocabulary
/// of every command's text, JSON and exit code (docs/json.md).
public enum ModuleOutcome: String, Codable, CaseIterable, Sendable {
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
    public var needsAttention: Bool { self == .kept || self == .failed }

    /// The outcome as a text report words it: `up to date`, `not cloned`, otherwise the JSON word.
    public var words: String {
        switch self {
        case .upToDate: "up to date"
        case .notCloned: "not cloned"
        default: rawValue
        }
    }
}

/// How many results had each outcome, keyed by outcome: the `summary` of a JSON report.
public func outcomeCounts(_ outcomes: some Sequence<ModuleOutcome>) -> [String: Int] {
    Dictionary(outcomes.map { ($0.rawValue, 1) }, uniquingKeysWith: +)
}
