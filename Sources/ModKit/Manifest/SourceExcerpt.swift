/// At most `width` columns of a source line around a column, `…` where the line was cut, and a caret line under that column,
/// so a diagnostic on a 300 KB one-line file prints a line a person can read.
public struct SourceExcerpt {
    /// The widest excerpt a diagnostic shows.
    public static let width = 120

    /// The excerpt, with `…` before and after where the line goes on.
    let text: String
    /// Blanks up to the column (tabs copied so the caret lines up whatever the tab width), then `^`.
    let caret: String

    /// The column, counted in Unicode scalars, of the 1-based byte column `byteColumn` of the UTF-8 `line` (a column in
    /// the middle of a scalar counts as that scalar's; one past the end stays past it).
    public static func scalarColumn(ofByteColumn byteColumn: Int, in line: [UInt8]) -> Int {
        let bytes = max(0, byteColumn - 1)
        var scalars = line.prefix(bytes).reduce(0) { count, byte in count + (byte & 0xC0 == 0x80 ? 0 : 1) }
        if bytes < line.count, line[bytes] & 0xC0 == 0x80 { scalars -= 1 }  // inside a scalar: that scalar's column
        return scalars + max(0, bytes - line.count) + 1
    }

    /// Walks the line only as far as the window reaches, so the cost follows the column and the width, not the line's length.
    init(line: String, column: Int, width: Int = SourceExcerpt.width) {
        let scalars = line.unicodeScalars
        let target = max(0, column - 1)
        let half = width / 2
        var first = max(0, target - half)
        if scalars.index(scalars.startIndex, offsetBy: target + half, limitedBy: scalars.endIndex) == nil {
            // The line ends within half a window of the column: show its end in full.
            first = max(0, min(first, scalars.count - width))
        }
        let start = scalars.index(scalars.startIndex, offsetBy: first, limitedBy: scalars.endIndex) ?? scalars.endIndex
        let end = scalars.index(start, offsetBy: width, limitedBy: scalars.endIndex) ?? scalars.endIndex
        let shown = scalars[start..<end]
        text = (first > 0 ? "…" : "") + String(shown) + (end < scalars.endIndex ? "…" : "")

        var prefix = first > 0 ? " " : ""
        var position = first
        for scalar in shown where position < target {
            prefix += scalar == "\t" ? "\t" : " "
            position += 1
        }
        // A column just past the line's end (a missing closing bracket) is shown there.
        prefix += String(repeating: " ", count: min(target - position, width))
        caret = prefix + "^"
    }
}

extension String {
    /// The text on one line, for where a tool reads one finding per line (`path:line: …`): runs of white space that hold a
    /// line break become one space, and text longer than `limit` characters is cut with `…`.
    public func onOneLine(limit: Int = SourceExcerpt.width) -> String {
        var result = ""
        var count = 0
        var space = ""
        var spaceCount = 0
        var spaceBreaks = false
        for character in self {
            if character.isWhitespace {
                spaceBreaks = spaceBreaks || character.isNewline
                if spaceCount <= limit { space.append(character) }
                spaceCount += 1
                continue
            }
            if !space.isEmpty {
                result += spaceBreaks ? " " : space
                count += spaceBreaks ? 1 : min(spaceCount, limit + 1)
                space = ""
                spaceCount = 0
                spaceBreaks = false
            }
            if count >= limit { return String(result.prefix(limit)) + "…" }
            result.append(character)
            count += 1
        }
        return result
    }
}
