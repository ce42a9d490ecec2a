/// ANSI styling that is applied only when colour is enabled for the stream being written.
public struct Style: Sendable {
    public let enabled: Bool

    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }
    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Lays out rows of cells in aligned columns, measuring text without its ANSI escapes.
public struct TextTable {
    public var rows: [[String]] = []

    public init() {}

    public mutating func add(_ cells: [String]) { rows.append(cells) }

    public func render(indent: String = "") -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextTable.visibleWidth(cell)) }
        }
        return rows.map { row in
            var line = indent
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - TextTable.visibleWidth(cell) + 2)
                }
            }
            return line.trailingSpacesTrimmed
        }.joined(separator: "\n")
    }

    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}

extension String {
    var trailingSpacesTrimmed: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
