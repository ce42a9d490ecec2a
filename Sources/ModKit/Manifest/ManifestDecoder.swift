import Foundation
import YAMLKit

/// Turns a parsed modkit.yml into a `Manifest`, collecting every problem with the exact position of the offending node.
struct ManifestDecoder {
    static let topLevelKeys = ["version", "workspace", "defaults", "templates", "modules", "release", "imports"]
    static let defaultsKeys = ["remote", "revision", "url-base", "tag-format", "dir-tag-format", "version-tag-format", "generated-dir", "groups"]
    static let moduleKeys = ["name", "url", "path", "revision", "groups", "version", "test", "publish", "guard", "project", "depth", "specs"]
    static let releaseKeys = ["steps", "branch", "publish"]
    static let importKeys = ["module", "file", "name-allowlist", "path-prefix"]
    static let guardLanguages = ["c", "swift"]

    let source: SourceText
    let displayPath: String
    private(set) var diagnostics: [Diagnostic] = []

    init(text: String, displayPath: String) {
        source = SourceText(text)
        self.displayPath = displayPath
    }

    // MARK: Reporting

    func location(_ mark: Mark) -> SourceLocation {
        SourceLocation(file: displayPath, line: mark.line, column: mark.column)
    }

    func diagnostic(_ severity: Diagnostic.Severity, _ message: String, at mark: Mark, hint: String? = nil, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(severity: severity, message: message, location: location(mark), sourceLine: source.line(mark.line), hint: hint, notes: notes)
    }

    mutating func error(_ message: String, at mark: Mark, hint: String? = nil, notes: [Diagnostic] = []) {
        diagnostics.append(diagnostic(.error, message, at: mark, hint: hint, notes: notes))
    }

    /// The diagnostics in file order.
    var sortedDiagnostics: [Diagnostic] {
        diagnostics.inFileOrder
    }

    // MARK: Generic checks

    /// The first entry of each allowed key; unknown, duplicate and non-scalar keys are reported.
    mutating func fields(of mapping: YAMLMapping, allowed: [String], in place: String) -> [String: (key: YAMLScalar, value: YAMLNode)] {
        var result: [String: (key: YAMLScalar, value: YAMLNode)] = [:]
        for (keyNode, value) in mapping.entries {
            guard let key = keyNode.scalar, let name = key.string else {
                error("expected a key name, found \(keyNode.kindDescription)", at: keyNode.start)
                continue
            }
            if let first = result[name] {
                error("duplicate key '\(name)'; remove one of them", at: key.start,
                      notes: [diagnostic(.note, "'\(name)' is first given here", at: first.key.start)])
            } else if allowed.contains(name) {
                result[name] = (key, value)
            } else if let suggestion = DidYouMean.suggestion(for: name, among: allowed) {
                error("unknown key '\(name)' (did you mean '\(suggestion)'?)", at: key.start)
            } else {
                error("unknown key '\(name)' \(place)", at: key.start, hint: "allowed here: \(allowed.joined(separator: ", "))")
            }
        }
        return result
    }

    /// The node as a string, or nil after reporting that it is not one (or is empty when `nonEmpty`).
    mutating func string(_ node: YAMLNode, for key: String, nonEmpty: Bool = true) -> String? {
        guard let value = node.string else {
            error("expected a string for '\(key)', found \(node.kindDescription)", at: node.start,
                  hint: node.isNull ? "give '\(key)' a value or remove the key" : nil)
            return nil
        }
        if nonEmpty, value.isEmpty {
            error("'\(key)' is empty; give it a value or remove the key", at: node.start)
            return nil
        }
        return value
    }

    /// A sequence of strings or a single string.
    mutating func strings(_ node: YAMLNode, for key: String) -> [(String, Mark)]? {
        if let sequence = node.sequence {
            var result: [(String, Mark)] = []
            for item in sequence.items {
                if let value = string(item, for: key) { result.append((value, item.start)) }
            }
            return result
        }
        if node.isNull || node.mapping != nil {
            error("expected a list of strings for '\(key)', found \(node.kindDescription)", at: node.start)
            return nil
        }
        return string(node, for: key).map { [($0, node.start)] }
    }

    /// A tag format whose `{placeholders}` are all known.
    mutating func tagFormat(_ node: YAMLNode, for key: String) -> String? {
        guard let format = string(node, for: key) else { return nil }
        var ok = true
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if !Manifest.tagPlaceholders.contains(name) {
                ok = false
                let suggestion = DidYouMean.suggestion(for: name, among: Manifest.tagPlaceholders).map { " (did you mean '{\($0)}'?)" } ?? ""
                error("unknown placeholder '{\(name)}' in '\(key)'\(suggestion)", at: node.start,
                      hint: suggestion.isEmpty ? "placeholders: {workspace}, {snapshot}, {module}, {version}" : nil)
            }
            rest = rest[rest.index(after: close)...]
        }
        return ok ? format : nil
    }
}
