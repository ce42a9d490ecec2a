/// `{{placeholder}}` substitution in template contents and paths; `\{{` writes a literal `{{`.
struct Placeholders {
    /// Values by placeholder name.
    var values: [String: String]

    /// `text` with every placeholder replaced; unknown or malformed placeholders are reported at `file`:line:col, 1-based, starting at `firstLine`.
    /// Values are escaped for `language`, where they stand (see `TemplateLanguage`).
    func render(_ text: String, file: String, firstLine: Int = 1, language: TemplateLanguage = .plain, problems: inout [Diagnostic]) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var lineNumber = firstLine
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.offset > 0 { output += "\n"; lineNumber += 1 }
            output += renderLine(line.element, file: file, line: lineNumber, language: language, problems: &problems)
        }
        return output
    }

    private func renderLine(_ line: Substring, file: String, line number: Int, language: TemplateLanguage, problems: inout [Diagnostic]) -> String {
        guard line.contains("{{") else { return String(line) }
        var output = ""
        var rest = line[...]
        while let open = rest.range(of: "{{") {
            let before = rest[..<open.lowerBound]
            if before.hasSuffix("\\") {
                output += before.dropLast() + "{{"
                rest = rest[open.upperBound...]
                continue
            }
            output += before
            let column = line.distance(from: line.startIndex, to: open.lowerBound) + 1
            let location = SourceLocation(file: file, line: number, column: column)
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                problems.append(.error("unterminated placeholder: '{{' without '}}' on the same line", at: location, sourceLine: String(line),
                                       hint: "write \\{{ for a literal '{{'"))
                output += rest[open.lowerBound...]
                return output
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if let value = values[name] {
                output += language.escape(value, before: line[..<open.lowerBound], after: rest[close.upperBound...])
            } else {
                let shown = "{{\(rest[open.upperBound..<close.lowerBound])}}"
                let message = Identifier.isValid(name)
                    ? "unknown placeholder '\(shown)'" + (DidYouMean.suggestion(for: name, among: Self.suggestionOrder(values.keys)).map { " (did you mean '{{\($0)}}'?)" } ?? "")
                    : "malformed placeholder '\(shown)'"
                problems.append(.error(message, at: location, sourceLine: String(line),
                                       hint: "placeholders here: \(values.keys.sorted().joined(separator: ", ")); write \\{{ for a literal '{{'"))
                output += shown
            }
            rest = rest[close.upperBound...]
        }
        return output + rest
    }

    /// Lower-case names first, so `{{nmae}}` suggests `{{name}}` rather than `{{Name}}`.
    static func suggestionOrder(_ names: some Sequence<String>) -> [String] {
        let sorted = names.sorted()
        return sorted.filter { !($0.first?.isUppercase ?? false) } + sorted.filter { $0.first?.isUppercase ?? false }
    }
}

/// The spellings of a module name that templates use.
public enum NameForms {
    /// Words of a name: `PaymentsUI_kit` → ["Payments", "UI", "kit"]; `-` and `.` separate words too (`swift-log`).
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" || character == "." {
                if !current.isEmpty { words.append(current); current = "" }
                continue
            }
            if character.isUppercase, !current.isEmpty {
                let previousLower = current.last.map { $0.isLowercase || $0.isNumber } ?? false
                let nextLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previousLower || (nextLower && current.last?.isUppercase == true) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `payments_kit` → `PaymentsKit`, `swift-log` → `SwiftLog`; an already capitalised name keeps its inner capitals.
    public static func upperCamel(_ name: String) -> String {
        if !name.contains(where: { $0 == "_" || $0 == "-" || $0 == "." }) { return name.prefix(1).uppercased() + name.dropFirst() }
        return words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    public static func snake(_ name: String) -> String { words(name).map { $0.lowercased() }.joined(separator: "_") }
    public static func kebab(_ name: String) -> String { words(name).map { $0.lowercased() }.joined(separator: "-") }
}
