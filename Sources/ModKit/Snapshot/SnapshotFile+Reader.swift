import Foundation
import YAMLKit

extension SnapshotFile {
    static let topLevelKeys = ["snapshot", "created", "workspace", "manifest", "modules"]
    static let manifestKeys = ["commit", "branch"]
    static let moduleKeys = ["url", "path", "commit", "version", "branch", "tag"]

    /// Reads a snapshot file; `displayPath` names it in diagnostics (e.g. `v1.0.0:.modkit/snapshots/v1.0.0.yml`).
    /// Every problem is reported at once, each with its line and column.
    public static func parse(_ text: String, displayPath: String) throws(ManifestError) -> Snapshot {
        var reader = Reader(source: SourceText(text), displayPath: displayPath)
        let root: YAMLNode?
        do {
            root = try YAML.parse(text)
        } catch {
            reader.error("invalid YAML: \(error.message)", at: error.mark)
            throw ManifestError(diagnostics: reader.diagnostics)
        }
        guard let root, let snapshot = reader.snapshot(root), reader.diagnostics.isEmpty else {
            if reader.diagnostics.isEmpty {
                reader.diagnostics.append(.error("\(displayPath) is empty; expected a snapshot"))
            }
            throw ManifestError(diagnostics: reader.sortedDiagnostics)
        }
        return snapshot
    }

    /// Collects diagnostics while decoding one snapshot document.
    struct Reader {
        let source: SourceText
        let displayPath: String
        var diagnostics: [Diagnostic] = []

        /// The diagnostics in file order.
        var sortedDiagnostics: [Diagnostic] {
            diagnostics.inFileOrder
        }

        mutating func error(_ message: String, at mark: Mark, hint: String? = nil) {
            diagnostics.append(.error(message, at: SourceLocation(file: displayPath, line: mark.line, column: mark.column),
                                      sourceLine: source.line(mark.line), hint: hint))
        }

        mutating func snapshot(_ root: YAMLNode) -> Snapshot? {
            guard let fields = fields(root, allowed: SnapshotFile.topLevelKeys, what: "the snapshot") else { return nil }
            let name = required(fields, "snapshot", at: root.start)
            let created = fields["created"].flatMap { string($0, "created") }
            let workspace = fields["workspace"].flatMap { string($0, "workspace") }
            var manifest: Snapshot.ManifestState?
            if let node = fields["manifest"], let manifestFields = self.fields(node, allowed: SnapshotFile.manifestKeys, what: "'manifest'"),
               let commit = required(manifestFields, "commit", at: node.start), checkCommit(commit, manifestFields["commit"]!) {
                manifest = Snapshot.ManifestState(commit: commit, branch: manifestFields["branch"].flatMap { string($0, "branch") })
            }
            var modules: [Snapshot.Entry] = []
            if let node = fields["modules"] {
                if let mapping = node.mapping {
                    for (key, value) in mapping.entries {
                        guard let moduleName = key.string, !moduleName.isEmpty else {
                            error("expected a module name, found \(key.kindDescription)", at: key.start)
                            continue
                        }
                        if modules.contains(where: { $0.name == moduleName }) {
                            error("module '\(moduleName)' is listed twice", at: key.start)
                            continue
                        }
                        if let entry = entry(moduleName, value) { modules.append(entry) }
                    }
                } else if !node.isNull {
                    error("expected a mapping of modules for 'modules', found \(node.kindDescription)", at: node.start)
                }
            } else {
                error("missing key 'modules'", at: root.start)
            }
            guard let name else { return nil }
            return Snapshot(name: name, created: created ?? "", workspace: workspace, manifest: manifest, modules: modules)
        }

        mutating func entry(_ name: String, _ node: YAMLNode) -> Snapshot.Entry? {
            guard let fields = fields(node, allowed: SnapshotFile.moduleKeys, what: "module '\(name)'") else { return nil }
            guard let path = required(fields, "path", at: node.start) else { return nil }
            let url = fields["url"].flatMap { string($0, "url") }
            var commit: String?
            if let commitNode = fields["commit"], let value = string(commitNode, "commit"), checkCommit(value, commitNode) {
                commit = value
            }
            if url != nil, commit == nil, fields["commit"] == nil {
                error("repository module '\(name)' has no 'commit'", at: node.start)
                return nil
            }
            return Snapshot.Entry(name: name, kind: url == nil ? .directory : .repository, url: url, path: path, commit: commit,
                                  version: fields["version"].flatMap { string($0, "version") },
                                  branch: fields["branch"].flatMap { string($0, "branch") },
                                  tag: fields["tag"].flatMap { string($0, "tag") })
        }

        /// The entries of a mapping by key; unknown and repeated keys are reported.
        mutating func fields(_ node: YAMLNode, allowed: [String], what: String) -> [String: YAMLNode]? {
            guard let mapping = node.mapping else {
                error("expected a mapping for \(what), found \(node.kindDescription)", at: node.start)
                return nil
            }
            var result: [String: YAMLNode] = [:]
            for (key, value) in mapping.entries {
                guard let name = key.string else {
                    error("expected a key name, found \(key.kindDescription)", at: key.start)
                    continue
                }
                if result[name] != nil {
                    error("duplicate key '\(name)'", at: key.start)
                } else if allowed.contains(name) {
                    result[name] = value
                } else {
                    error("unknown key '\(name)' in \(what)\(DidYouMean.suffix(for: name, among: allowed))", at: key.start,
                          hint: "allowed here: \(allowed.joined(separator: ", "))")
                }
            }
            return result
        }

        mutating func required(_ fields: [String: YAMLNode], _ key: String, at mark: Mark) -> String? {
            guard let node = fields[key] else {
                error("missing key '\(key)'", at: mark)
                return nil
            }
            return string(node, key)
        }

        mutating func string(_ node: YAMLNode, _ key: String) -> String? {
            guard let value = node.string, !value.isEmpty else {
                error("expected a string for '\(key)', found \(node.isNull ? "nothing" : node.kindDescription)", at: node.start)
                return nil
            }
            return value
        }

        mutating func checkCommit(_ value: String, _ node: YAMLNode) -> Bool {
            let hex = value.utf8.count == 40 && value.allSatisfy { $0.isHexDigit && ($0.isNumber || $0.isLowercase) }
            if !hex { error("'\(value)' is not a full commit id (40 lower-case hex digits)", at: node.start) }
            return hex
        }
    }
}
