import Foundation
import YAMLKit

/// Turns a parsed modkit.yml into a `Manifest`, collecting every problem with the exact position of the offending node.
struct ManifestDecoder {
    static let topLevelKeys = ["version", "workspace", "defaults", "templates", "modules", "release", "imports"]
    static let defaultsKeys = ["remote", "revision", "url-base", "tag-format", "dir-tag-format", "version-tag-format", "generated-dir", "groups"]
    static let moduleKeys = ["name", "url", "path", "revision", "groups", "version", "test", "publish", "guard", "project", "depth", "specs", "implements", "guard-mode"]
    static let releaseKeys = ["steps", "branch", "publish"]
    static let importKeys = ["module", "file", "name-allowlist", "path-allowlist", "name-blocklist", "path-blocklist", "path-prefix"]
    static let guardLanguages = ["c", "swift"]
    static let guardModes = VersionGuardMode.allCases.map(\.rawValue)

    let file: YAMLFileDiagnostics
    var schema = YAMLSchemaReader()

    init(text: String, displayPath: String) {
        file = YAMLFileDiagnostics(displayPath: displayPath, text: text)
    }

    var displayPath: String { file.displayPath }

    // MARK: Reporting

    func location(_ mark: Mark) -> SourceLocation { file.location(mark) }

    mutating func error(_ message: String, at mark: Mark, hint: String? = nil, note: YAMLNote? = nil) {
        schema.report(message, at: mark, hint: hint, note: note)
    }

    /// Every problem, in file order.
    var sortedDiagnostics: [Diagnostic] { file.diagnostics(schema) }

    // MARK: Checks of modkit.yml's own

    /// A tag format whose `{placeholders}` are all known.
    mutating func tagFormat(_ node: YAMLNode, for key: String) -> String? {
        guard let format = schema.string(node, for: key) else { return nil }
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
