/// One replacement of a byte range of a file; an empty range is an insertion. Replacements are ASCII-safe UTF-8.
public struct TextEdit: Sendable, Hashable {
    /// The UTF-8 byte offsets replaced.
    public var range: Range<Int>
    /// The text written in their place.
    public var replacement: String

    /// Creates an edit.
    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// Applies non-overlapping edits to `text`.
    public static func apply(_ edits: [TextEdit], to text: String) throws(TextEditError) -> String {
        String(decoding: try apply(edits, to: Array(text.utf8)), as: UTF8.self)
    }

    /// Applies non-overlapping edits to a file's bytes; every byte outside the edited ranges stays as it was. The result is
    /// written front to back in one pass, so thousands of edits on one line cost no more than the file's length.
    public static func apply(_ edits: [TextEdit], to original: [UInt8]) throws(TextEditError) -> [UInt8] {
        let sorted = edits.sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.range.upperBound > later.range.lowerBound
            || (earlier.range.lowerBound == later.range.lowerBound && (earlier.range.isEmpty || later.range.isEmpty)) {
            throw TextEditError(message: "edits \(earlier.range) and \(later.range) overlap")
        }
        if let last = sorted.last, last.range.upperBound > original.count {
            throw TextEditError(message: "edit \(last.range) lies beyond the end of the text (\(original.count) bytes)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(original.count + sorted.reduce(0) { $0 + $1.replacement.utf8.count })
        var copied = 0
        for edit in sorted {
            bytes += original[copied..<edit.range.lowerBound]
            bytes += edit.replacement.utf8
            copied = edit.range.upperBound
        }
        bytes += original[copied...]
        return bytes
    }
}

/// Edits that cannot be applied together (they overlap or fall outside the text).
public struct TextEditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// A human-readable description.
    public var description: String { message }
}
