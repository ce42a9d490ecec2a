/// A snapshot command that stopped: every problem found, and what was done about it (e.g. "nothing was tagged").
public struct SnapshotFailure: Error, Sendable, CustomStringConvertible {
    /// One line per problem, each naming its module or repository.
    public var problems: [String]
    /// What the command did afterwards: rollback steps, or that nothing changed.
    public var notes: [String]
    /// Stopped by Ctrl-C (exit 130) rather than by a problem.
    public var interrupted: Bool

    public init(problems: [String], notes: [String] = [], interrupted: Bool = false) {
        self.problems = problems
        self.notes = notes
        self.interrupted = interrupted
    }

    public var description: String { (problems + notes).joined(separator: "\n") }
}
