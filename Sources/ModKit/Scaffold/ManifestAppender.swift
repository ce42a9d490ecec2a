import YAMLKit

/// Appends module entries to the `modules:` sequence of modkit.yml by editing text: every other byte of the file stays as it was.
public enum ManifestAppender {
    /// A module entry to add.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var path: String
        public var url: String?
        /// `implements:`, written after the other keys.
        public var implements: String?
        public init(name: String, path: String, url: String? = nil, implements: String? = nil) {
            self.name = name
            self.path = path
            self.url = url
            self.implements = implements
        }
    }

    public struct EditError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `text` with `entries` after the last module, in the indentation, key order and spacing the existing entries use.
    public static func append(_ entries: [Entry], to text: String) throws(EditError) -> String {
        let root: YAMLNode?
        do { root = try YAML.parse(text) } catch { throw EditError(description: "the manifest is not valid YAML: \(error.message)") }
        guard let top = root?.mapping, let pair = top.entries.first(where: { $0.key.scalar?.value == "modules" }) else {
            throw EditError(description: "the manifest has no 'modules:'")
        }
        var lines = Lines(text)
        let value = pair.value
        if let sequence = value.sequence, sequence.style == .block, let last = sequence.items.last {
            let style = Style.detect(from: sequence, lines: lines)
            let end = lastContentLine(of: last)
            var block = entries.flatMap { style.lines(for: $0) }
            if style.blankLineBetween { block = entries.enumerated().flatMap { [""] + style.lines(for: $0.element) } }
            lines.insert(block, after: end)
            return lines.text
        }
        if let sequence = value.sequence, sequence.style == .flow, !sequence.items.isEmpty {
            let inline = entries.map { ", " + Style.flow($0) }.joined()
            try lines.insert(inline, at: sequence.end, before: 1)
            return lines.text
        }
        guard value.isNull || value.sequence?.items.isEmpty == true else {
            throw EditError(description: "'modules:' is not a sequence")
        }
        // `modules:`, `modules: ~` or `modules: []`: drop the empty value and start a block sequence below the key.
        if value.start != value.end { lines.remove(from: value.start, to: value.end) }
        let style = Style(dash: Style.nestedIndent(of: top, lines: lines), keyOrder: ["name", "path", "url"], blankLineBetween: false)
        lines.insert(entries.flatMap { style.lines(for: $0) }, after: pair.key.start.line)
        return lines.text
    }

    /// The last line holding content of `node` (comments and blank lines after it excluded).
    static func lastContentLine(of node: YAMLNode) -> Int {
        switch node {
        case .scalar(let scalar):
            // Block scalars end at the start of the line after them.
            return scalar.end.column == 1 && scalar.end.line > scalar.start.line ? scalar.end.line - 1 : scalar.end.line
        case .mapping(let mapping):
            if mapping.style == .flow { return mapping.end.line }
            return mapping.entries.map { max(lastContentLine(of: $0.key), lastContentLine(of: $0.value)) }.max() ?? mapping.start.line
        case .sequence(let sequence):
            if sequence.style == .flow { return sequence.end.line }
            return sequence.items.map(lastContentLine(of:)).max() ?? sequence.start.line
        }
    }

    /// How existing entries are written.
    struct Style {
        /// Column (0-based) of the `-`.
        var dash: Int
        /// Spaces between `-` and the first key.
        var gap = 1
        var keyOrder: [String]
        var blankLineBetween: Bool

        func lines(for entry: Entry) -> [String] {
            let values = ["name": entry.name, "path": entry.path, "url": entry.url, "implements": entry.implements]
            let keys = (keyOrder + ["implements"]).filter { values[$0] != nil && values[$0]! != nil }
            let indent = String(repeating: " ", count: dash + 1 + gap)
            return keys.enumerated().map { index, key in
                let line = "\(key): \(YAML.scalar(values[key]!!))"
                return index == 0 ? String(repeating: " ", count: dash) + "-" + String(repeating: " ", count: gap) + line : indent + line
            }
        }

        static func detect(from sequence: YAMLSequence, lines: Lines) -> Style {
            var style = Style(dash: max(0, sequence.start.column - 1), keyOrder: ["name", "path", "url"], blankLineBetween: false)
            if let first = sequence.items.first?.mapping, first.start.line == sequence.start.line {
                style.gap = max(1, first.start.column - sequence.start.column - 1)
            }
            for item in sequence.items {
                let keys = item.mapping?.entries.compactMap { $0.key.scalar?.value } ?? []
                if let u = keys.firstIndex(of: "url"), let p = keys.firstIndex(of: "path") {
                    style.keyOrder = u < p ? ["name", "url", "path"] : ["name", "path", "url"]
                    break
                }
            }
            if sequence.items.count >= 2 {
                let last = sequence.items[sequence.items.count - 1]
                style.blankLineBetween = lines.isBlank(last.start.line - 1)
            }
            return style
        }

        /// Indentation of the nested block mappings of the file (e.g. under `defaults:`), else 2.
        static func nestedIndent(of top: YAMLMapping, lines: Lines) -> Int {
            for (key, value) in top.entries {
                if let nested = value.mapping, nested.style == .block, nested.start.line > key.start.line {
                    return max(1, nested.start.column - key.start.column)
                }
            }
            return 2
        }

        static func flow(_ entry: Entry) -> String {
            var parts = ["name: \(YAML.scalar(entry.name, in: .flow))", "path: \(YAML.scalar(entry.path, in: .flow))"]
            if let url = entry.url { parts.append("url: \(YAML.scalar(url, in: .flow))") }
            if let implements = entry.implements { parts.append("implements: \(YAML.scalar(implements, in: .flow))") }
            return "{" + parts.joined(separator: ", ") + "}"
        }

    }

    /// The text as lines with their own terminators, edited by line numbers and marks. Lines break where YAML breaks
    /// them (CRLF, CR, LF, NEL, LS, PS), so the parser's line numbers index them; new lines get the file's first break.
    struct Lines {
        var lines: [String]
        /// Each line's terminator as it was ("" for a last line without one).
        var breaks: [String]
        var newline: String

        init(_ text: String) {
            lines = []
            breaks = []
            var current = String.UnicodeScalarView()
            var scalars = text.unicodeScalars[...]
            while let scalar = scalars.popFirst() {
                switch scalar {
                case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
                    var terminator = String(scalar)
                    if scalar == "\r", scalars.first == "\n" { terminator += String(scalars.removeFirst()) }
                    lines.append(String(current))
                    breaks.append(terminator)
                    current = String.UnicodeScalarView()
                default:
                    current.append(scalar)
                }
            }
            if !current.isEmpty || lines.isEmpty {
                lines.append(String(current))
                breaks.append("")
            }
            newline = breaks.first { $0 == "\r\n" || $0 == "\n" || $0 == "\r" } ?? "\n"
        }

        var text: String { zip(lines, breaks).map { $0 + $1 }.joined() }

        func isBlank(_ line: Int) -> Bool {
            line >= 1 && line <= lines.count && lines[line - 1].trimmingCharacters(in: .whitespaces).isEmpty
        }

        /// Inserts whole lines after 1-based `line`; at the end of a file without a final newline, the file then ends with one.
        mutating func insert(_ new: [String], after line: Int) {
            let index = max(0, min(line, lines.count))
            if index > 0, breaks[index - 1].isEmpty { breaks[index - 1] = newline }
            lines.insert(contentsOf: new, at: index)
            breaks.insert(contentsOf: new.map { _ in newline }, at: index)
        }

        /// Inserts `string` `offset` characters before `mark` on its line.
        mutating func insert(_ string: String, at mark: Mark, before offset: Int) throws(EditError) {
            guard mark.line >= 1, mark.line <= lines.count else { throw EditError(description: "the manifest's 'modules:' ends outside its text") }
            var line = Array(lines[mark.line - 1].unicodeScalars)
            let column = max(0, mark.column - 1 - offset)
            line.insert(contentsOf: string.unicodeScalars, at: min(column, line.count))
            lines[mark.line - 1] = String(String.UnicodeScalarView(line))
        }

        /// Removes the characters from `start` to `end` on one line, then trailing spaces of the line.
        mutating func remove(from start: Mark, to end: Mark) {
            guard start.line == end.line, start.line >= 1, start.line <= lines.count else { return }
            var line = Array(lines[start.line - 1].unicodeScalars)
            let from = max(0, start.column - 1), to = min(end.column - 1, line.count)
            guard from < to else { return }
            line.removeSubrange(from..<to)
            var text = String(String.UnicodeScalarView(line))
            if !text.contains("#") { while text.hasSuffix(" ") || text.hasSuffix("\t") { text.removeLast() } }
            lines[start.line - 1] = text
        }
    }
}
