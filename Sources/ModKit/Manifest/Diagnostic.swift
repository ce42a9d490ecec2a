/// One problem for a person to fix, rendered compiler-style: `file:line:col: error: message`, the source line, a caret, then notes and a hint.
public struct Diagnostic: Sendable, Error, Equatable, CustomStringConvertible {
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
    /// The module it is about, when an operation on modules found it; rendered after the severity (`error: Core: …`).
    public var module: String?

    public init(severity: Severity = .error, message: String, location: SourceLocation? = nil, sourceLine: String? = nil, hint: String? = nil,
                notes: [Diagnostic] = [], module: String? = nil) {
        self.severity = severity
        self.module = module
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
        self.hint = hint
        self.notes = notes
    }

    public static func error(_ message: String, at location: SourceLocation? = nil, sourceLine: String? = nil, hint: String? = nil,
                             module: String? = nil) -> Diagnostic {
        Diagnostic(severity: .error, message: message, location: location, sourceLine: sourceLine, hint: hint, module: module)
    }

    public static func warning(_ message: String, hint: String? = nil, module: String? = nil) -> Diagnostic {
        Diagnostic(severity: .warning, message: message, hint: hint, module: module)
    }

    public static func note(_ message: String, module: String? = nil) -> Diagnostic {
        Diagnostic(severity: .note, message: message, module: module)
    }

    public var description: String { rendered(colored: false) }

    /// The message after `Module: ` when it names one: the diagnostic as one line of plain text, as JSON and lists of
    /// warnings carry it.
    public var messageNamingModule: String { (module.map { "\($0): " } ?? "") + message }

    /// The same problem, reported as a warning (a step a later run settled, shown as something the user should know).
    public var asWarning: Diagnostic {
        var warning = self
        warning.severity = .warning
        return warning
    }

    /// The most errors a report shows in full (and the most kinds of warning); the rest are counted.
    public static let reportLimit = 50

    /// The diagnostic as text: `file:line:col: error: message` (`error: message` where there is no place; `error: Module: message`
    /// when it is about a module), at most
    /// `SourceExcerpt.width` columns of the line around the caret, then notes and the hint. With `colored`, ANSI colours
    /// mark the severity, the caret and the location.
    public func rendered(colored: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String {
            colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }
        let severityColor = switch severity {
        case .error: "1;31"
        case .warning: "1;35"
        case .note: "1;36"
        }
        var header = location.map { paint("\($0):", "1") + " " } ?? ""
        header += paint("\(severity.rawValue):", severityColor) + " " + (module.map { "\($0): " } ?? "")
        header += colored ? paint(message, "1") : message
        var lines = [header]
        if let location, let sourceLine {
            let excerpt = SourceExcerpt(line: sourceLine, column: location.column)
            lines.append(excerpt.text)
            lines.append(paint(excerpt.caret, "1;32"))
        }
        for note in notes { lines.append(note.rendered(colored: colored)) }
        if let hint { lines.append(paint("hint:", "1") + " " + hint) }
        return lines.joined(separator: "\n")
    }
}

extension Array where Element == Diagnostic {
    /// The one way a run's diagnostics become text: each error in full up to `Diagnostic.reportLimit`, then how many more
    /// there are; each kind of warning (`WarningKinds`) once, its first instance with a count and the first few places of
    /// the others, up to `Diagnostic.reportLimit` kinds. With `foldingWarnings` false (`-v`) every warning is printed.
    public func report(colored: Bool, foldingWarnings: Bool = true) -> String {
        // Each error and each kind of warning, in the order it first appears, with the later warnings of its kind.
        var entries: [(first: Diagnostic, more: [Diagnostic])] = []
        var entryOfKind: [String: Int] = [:]
        for diagnostic in self {
            guard diagnostic.severity == .warning, foldingWarnings else {
                entries.append((diagnostic, []))
                continue
            }
            let kind = WarningKinds.kind(of: diagnostic.message)
            if let entry = entryOfKind[kind] {
                entries[entry].more.append(diagnostic)
            } else {
                entryOfKind[kind] = entries.count
                entries.append((diagnostic, []))
            }
        }
        var blocks: [String] = []
        var shown: [Diagnostic.Severity: Int] = [:]
        var hidden: [Diagnostic.Severity: Int] = [:]
        for (first, more) in entries {
            let severity = first.severity
            let capped = severity == .error || (severity == .warning && foldingWarnings)
            if capped && shown[severity, default: 0] >= Diagnostic.reportLimit {
                hidden[severity, default: 0] += 1 + more.count
                continue
            }
            shown[severity, default: 0] += 1
            var diagnostic = first
            if !more.isEmpty {
                let places = more.prefix(3).compactMap { $0.location.map { "\($0.file):\($0.line)" } }
                let unnamed = more.count - places.count
                diagnostic.message += " — and \(more.count) more like this (\(places.joined(separator: ", "))\(unnamed > 0 ? ", …" : ""); -v lists all)"
            }
            // A problem with no place in a file is the program's own, as `modkit: error: …` is.
            blocks.append((diagnostic.location == nil ? "modkit: " : "") + diagnostic.rendered(colored: colored))
        }
        if let errors = hidden[.error] {
            blocks.append("modkit: and \(errors) more error\(errors == 1 ? "" : "s") (--json lists them all)")
        }
        if let warnings = hidden[.warning] {
            blocks.append("modkit: and \(warnings) more warning\(warnings == 1 ? "" : "s") (-v lists them all)")
        }
        return blocks.joined(separator: "\n")
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
        diagnostics.report(colored: colored)
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
