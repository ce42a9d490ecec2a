/// One problem for a person to fix, rendered compiler-style: `file:line:col: error: message`, the source line, a caret, then notes and a hint.
public struct Diagnostic: Sendable, Error, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error, warning, note
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    /// The text of the line at `location`, exactly as in the file (tabs kept).
    public var sourceLine: String?
    /// What to do about it, printed last as `hint: …`.
    public var hint: String?
    /// Related places, e.g. where a duplicated key was first given; printed under the diagnostic.
    public var notes: [Diagnostic]

    public init(severity: Severity = .error, message: String, location: SourceLocation? = nil, sourceLine: String? = nil, hint: String? = nil, notes: [Diagnostic] = []) {
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
        self.hint = hint
        self.notes = notes
    }

    public static func error(_ message: String, at location: SourceLocation? = nil, sourceLine: String? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(severity: .error, message: message, location: location, sourceLine: sourceLine, hint: hint)
    }

    public var description: String { rendered(colored: false) }

    /// The diagnostic as text; with `colored`, ANSI colours mark the severity, the caret and the location.
    public func rendered(colored: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String {
            colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }
        let severityColor = switch severity {
        case .error: "1;31"
        case .warning: "1;35"
        case .note: "1;36"
        }
        var header = ""
        if let location { header += paint("\(location):", "1") + " " }
        header += paint("\(severity.rawValue):", severityColor) + " " + (colored ? paint(message, "1") : message)
        var lines = [header]
        if let location, let sourceLine {
            lines.append(sourceLine)
            lines.append(paint(Diagnostic.caretLine(under: location.column, in: sourceLine), "1;32"))
        }
        for note in notes { lines.append(note.rendered(colored: colored)) }
        if let hint { lines.append(paint("hint:", "1") + " " + hint) }
        return lines.joined(separator: "\n")
    }

    /// Blanks up to `column` (tabs copied so the caret lines up whatever the tab width), then `^`.
    static func caretLine(under column: Int, in line: String) -> String {
        var prefix = ""
        for (index, scalar) in line.unicodeScalars.enumerated() where index < column - 1 {
            prefix += scalar == "\t" ? "\t" : " "
        }
        let missing = column - 1 - line.unicodeScalars.count
        if missing > 0 { prefix += String(repeating: " ", count: missing) }
        return prefix + "^"
    }
}

/// Every problem found in a manifest in one run; thrown when any of them is an error.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { rendered(colored: false) }

    public func rendered(colored: Bool) -> String {
        diagnostics.map { $0.rendered(colored: colored) }.joined(separator: "\n")
    }
}

extension Array where Element == Diagnostic {
    /// The diagnostics sorted by line and column, keeping the order of those at the same place.
    var inFileOrder: [Diagnostic] {
        enumerated().sorted { a, b in
            let l = a.element.location, r = b.element.location
            let lk = (l?.line ?? 0, l?.column ?? 0), rk = (r?.line ?? 0, r?.column ?? 0)
            return lk != rk ? lk < rk : a.offset < b.offset
        }.map(\.element)
    }
}
