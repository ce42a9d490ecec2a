/// A file's bytes with a line table, so readers can turn byte offsets into spans cheaply.
///
/// The bytes are never decoded as a whole: readers look at ASCII syntax only, so UTF-8,
/// ISO-8859-1 and any other ASCII-compatible encoding read alike, and edits keep every other byte.
struct SourceText: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]
    /// The byte offset where each line starts; line N (1-based) starts at `lineStarts[N - 1]`.
    let lineStarts: [Int]

    /// Indexes the lines of `text`.
    init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Indexes the lines of raw bytes; a UTF-8 byte order mark is kept in `bytes` (edits keep it) but line 1 starts after it,
    /// so every reader sees a file as if it had none, and columns on line 1 count from the first character after it.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
    }

    /// The number of bytes.
    var count: Int { bytes.count }

    /// Where the text starts: after a UTF-8 byte order mark, when there is one.
    var bodyStart: Int { lineStarts[0] }

    /// The text after a byte order mark, for readers that split lines themselves.
    var body: String { text(bodyStart..<count) }

    /// The 1-based line and column of a byte offset, found by binary search.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }

    /// A span for a byte range.
    func span(_ range: Range<Int>) -> SourceSpan {
        let (line, column) = position(of: range.lowerBound)
        return SourceSpan(range: range, line: line, column: column)
    }

    /// The text of a byte range; bytes that are not UTF-8 (an ISO-8859-1 author name) are shown as U+FFFD, never written back.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }
}

/// Byte classes shared by the scanners.
enum Byte {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0C || byte == 0x0B }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isIdentifierStart(_ byte: UInt8) -> Bool { isLetter(byte) || byte == 0x5F || byte >= 0x80 }
    static func isIdentifier(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
    static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
}
