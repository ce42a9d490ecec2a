/// A place in a spec file: a range of UTF-8 byte offsets plus the 1-based line and column of its start.
public struct SourceSpan: Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 byte offsets covered; empty for an insertion point.
    public var range: Range<Int>
    /// The 1-based line of `range.lowerBound`.
    public var line: Int
    /// The 1-based column (in UTF-8 bytes) of `range.lowerBound`.
    public var column: Int

    /// Creates a span from its byte range and the position of its start.
    public init(range: Range<Int>, line: Int, column: Int) {
        self.range = range
        self.line = line
        self.column = column
    }

    /// The span as `line:column`, the form diagnostics print after a path.
    public var description: String { "\(line):\(column)" }
}
