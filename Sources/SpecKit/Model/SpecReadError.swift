/// A spec or lock file SpecKit cannot read, with the 1-based position of the problem.
public struct SpecReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// Creates an error at a position.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The error as `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
