/// A position in a file as users see it: the file as displayed (e.g. "modkit.yml"), 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `modkit.yml:12:5`.
    public var description: String { "\(file):\(line):\(column)" }
}
