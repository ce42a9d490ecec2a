/// A snapshot command that stopped: every problem found (errors, each naming its module or repository), then what
/// was done about it (notes: rollback steps, or "nothing was tagged").
public struct SnapshotFailure: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    /// Stopped by Ctrl-C (exit 130) rather than by a problem.
    public var interrupted: Bool

    public init(problems: [Diagnostic], notes: [Diagnostic] = [], interrupted: Bool = false) {
        diagnostics = problems + notes
        self.interrupted = interrupted
    }

    /// The errors, without the notes.
    public var problems: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    public var description: String { diagnostics.map { $0.rendered(colored: false) }.joined(separator: "\n") }
}
