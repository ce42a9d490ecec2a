/// A position in YAML source text: 1-based line and column (the column counts Unicode scalars, a tab is one) and the 0-based UTF-8 byte offset.
public struct Mark: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`, the way compilers print positions.
    public var description: String { "\(line):\(column)" }
}

/// Where the lines of a UTF-8 text start, using YAML's line breaks (LF, CRLF, CR, NEL, LS, PS), and a cursor that turns
/// libyaml's character index into a byte offset: events arrive in source order, so each mark costs the distance from the last one.
struct LineTable {
    private(set) var starts: [Int] = [0]
    let bytes: [UInt8]
    /// The last character index turned into a byte offset, and that offset.
    private var cursorIndex = 0
    private var cursorOffset: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var i = 0
        // libyaml skips a UTF-8 byte order mark without counting it as a character.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            starts[0] = 3
            i = 3
        }
        cursorOffset = i
        while i < bytes.count {
            let width = LineTable.breakWidth(bytes, at: i)
            if width > 0 {
                i += width
                starts.append(i)
            } else {
                i += 1
            }
        }
    }

    /// The byte length of the line break at `i`, or 0 when there is none.
    static func breakWidth(_ b: [UInt8], at i: Int) -> Int {
        switch b[i] {
        case 0x0A: return 1
        case 0x0D: return i + 1 < b.count && b[i + 1] == 0x0A ? 2 : 1
        case 0xC2: return i + 1 < b.count && b[i + 1] == 0x85 ? 2 : 0
        case 0xE2: return i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9) ? 3 : 0
        default: return 0
        }
    }

    /// The 1-based mark of libyaml's 0-based line, column and character index (libyaml counts characters, not bytes).
    mutating func mark(line: Int, column: Int, index: Int) -> Mark {
        Mark(line: line + 1, column: column + 1, offset: offset(ofCharacter: index))
    }

    /// The byte offset of character `index`, walking from the cursor.
    private mutating func offset(ofCharacter index: Int) -> Int {
        while cursorIndex < index, cursorOffset < bytes.count {
            cursorOffset += 1
            while cursorOffset < bytes.count, bytes[cursorOffset] & 0xC0 == 0x80 { cursorOffset += 1 }
            cursorIndex += 1
        }
        while cursorIndex > index, cursorOffset > starts[0] {
            cursorOffset -= 1
            while cursorOffset > starts[0], bytes[cursorOffset] & 0xC0 == 0x80 { cursorOffset -= 1 }
            cursorIndex -= 1
        }
        return cursorOffset
    }

    /// The mark of a byte offset (libyaml reports reader errors as offsets): the line by binary search, the column counted on that line only.
    func mark(offset: Int) -> Mark {
        let offset = min(max(offset, 0), bytes.count)
        var line = 0
        var low = 0, high = starts.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if starts[mid] <= offset { line = mid; low = mid + 1 } else { high = mid - 1 }
        }
        var column = 0
        var i = starts[line]
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return Mark(line: line + 1, column: column + 1, offset: offset)
    }
}
