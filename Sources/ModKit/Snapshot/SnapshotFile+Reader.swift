import Foundation
import YAMLKit

extension SnapshotFile {
    static let topLevelKeys = ["snapshot", "created", "workspace", "manifest", "modules"]
    static let manifestKeys = ["commit", "branch"]
    static let moduleKeys = ["url", "path", "commit", "version", "branch", "tag"]

    /// Reads a snapshot file's bytes (checked as UTF-8 first); a snapshot comes from a repository, so it is checked like modkit.yml.
    /// Read from a tag, the file must name that tag as its snapshot: a file that names another one is refused, so
    /// `checkout v2` never restores what a file copied from `v1` (or edited) says.
    public static func parse(_ bytes: [UInt8], displayPath: String, tag: String? = nil) throws(ManifestError) -> Snapshot {
        switch YAMLFileDiagnostics.text(of: bytes, displayPath: displayPath) {
        case .success(let text): return try parse(text, displayPath: displayPath, tag: tag)
        case .failure(let diagnostic): throw ManifestError(diagnostics: [diagnostic])
        }
    }

    /// Reads a snapshot file; `displayPath` names it in diagnostics (e.g. `v1.0.0:.modkit/snapshots/v1.0.0.yml`).
    /// Every problem is reported at once, each with its line and column: unknown keys, module names that are not
    /// identifiers, paths outside the workspace, repeated paths, commits that are not full ids.
    public static func parse(_ text: String, displayPath: String, tag: String? = nil) throws(ManifestError) -> Snapshot {
        let file = YAMLFileDiagnostics(displayPath: displayPath, text: text)
        let root: YAMLNode?
        do { root = try YAML.parse(text) } catch { throw ManifestError(diagnostics: [file.syntaxError(error)]) }
        guard let root else {
            throw ManifestError(diagnostics: [.error("\(displayPath) is empty; expected a snapshot", at: file.location(Mark(line: 1, column: 1, offset: 0)))])
        }
        var reader = Reader(tag: tag)
        reader.schema.refuseUnsupportedTags(in: root)
        guard var snapshot = reader.snapshot(root), reader.schema.problems.isEmpty else { throw ManifestError(diagnostics: file.diagnostics(reader.schema)) }
        snapshot.pathLocations = reader.pathMarks.mapValues(file.location)
        return snapshot
    }

    /// Decodes one snapshot document with the shared schema reader.
    struct Reader {
        /// The tag the file is read from, which its `snapshot:` must name.
        let tag: String?
        var schema = YAMLSchemaReader()
        /// Where each module's `path:` value is, by module name.
        var pathMarks: [String: Mark] = [:]

        mutating func snapshot(_ root: YAMLNode) -> Snapshot? {
            guard let fields = schema.fields(root, allowed: SnapshotFile.topLevelKeys, in: "the snapshot") else { return nil }
            let name = schema.requiredString(fields, "snapshot", in: "the snapshot")
            if let tag, let name, name != tag, let node = fields["snapshot"] {
                schema.report("the snapshot file of tag \(tag) names the snapshot '\(name)', not '\(tag)': it was copied from another snapshot or edited",
                              at: node.start, hint: "check out '\(name)' if you mean that snapshot; tag \(tag) can be used once its snapshot file names \(tag)")
            }
            let created = fields["created"].flatMap { schema.string($0, for: "created") }
            let workspace = fields["workspace"].flatMap { schema.string($0, for: "workspace") }
            var manifest: Snapshot.ManifestState?
            if let node = fields["manifest"], let manifestFields = schema.fields(node, allowed: SnapshotFile.manifestKeys, in: "'manifest'"),
               let commitNode = schema.required(manifestFields, "commit", in: "'manifest'"), let commit = commitID(commitNode) {
                manifest = Snapshot.ManifestState(commit: commit, branch: manifestFields["branch"].flatMap { schema.string($0, for: "branch") })
            }
            var modules: [Snapshot.Entry] = []
            if let node = schema.required(fields, "modules", in: "the snapshot") {
                var paths: [String: (name: String, mark: Mark)] = [:]
                for (moduleName, key, value) in schema.namedEntries(node, for: "modules", item: "module") {
                    guard Identifier.isValidModuleName(moduleName) else {
                        schema.report("module name '\(moduleName)' is not a package name", at: key.start,
                                      hint: "module names use letters, digits, '_', '-' and '.', as in modkit.yml")
                        continue
                    }
                    guard let (entry, pathMark) = entry(moduleName, value) else { continue }
                    if let other = paths[entry.path] {
                        schema.report("module '\(moduleName)' has the same path as module '\(other.name)' ('\(entry.path)')", at: pathMark,
                                      note: YAMLNote(message: "module '\(other.name)' is here", mark: other.mark))
                        continue
                    }
                    paths[entry.path] = (moduleName, pathMark)
                    pathMarks[moduleName] = pathMark
                    modules.append(entry)
                }
                // As in modkit.yml, repository modules may nest (repo and west nest projects); a directory module may not.
                let collisions = PathNesting.earliestCollisions(modules.map(\.path)) { outer, inner in
                    modules[outer].kind == .repository && modules[inner].kind == .repository
                }
                for (index, collision) in collisions.enumerated() {
                    guard let collision, let mark = paths[modules[index].path]?.mark else { continue }
                    let inner = modules[index], outer = modules[collision]
                    let relation = RelativePath.isInside(inner.path, outer.path) ? "lies inside" : "contains"
                    schema.report("module path '\(inner.path)' \(relation) module '\(outer.name)' at '\(outer.path)'; only repository modules can nest", at: mark)
                }
            }
            guard let name else { return nil }
            return Snapshot(name: name, created: created ?? "", workspace: workspace, manifest: manifest, modules: modules)
        }

        /// One module with the mark of its path.
        mutating func entry(_ name: String, _ node: YAMLNode) -> (Snapshot.Entry, Mark)? {
            guard let fields = schema.fields(node, allowed: SnapshotFile.moduleKeys, in: "module '\(name)'") else { return nil }
            guard let pathNode = schema.required(fields, "path", in: "module '\(name)'"), let written = schema.string(pathNode, for: "path") else { return nil }
            let path: String
            switch RelativePath.modulePath(written) {
            case .success(let normal): path = normal
            case .failure(let problem):
                schema.report(problem.message, at: pathNode.start, hint: problem.hint)
                return nil
            }
            let url = fields["url"].flatMap { schema.string($0, for: "url") }
            if let url, let urlNode = fields["url"], case .invalid(let why) = ModuleURL.classify(url) {
                schema.report("'\(url)' is not a url: \(why)", at: urlNode.start)
                return nil
            }
            let commit = fields["commit"].flatMap { commitID($0) }
            if url != nil, fields["commit"] == nil {
                schema.report("repository module '\(name)' has no 'commit'", at: node.start)
                return nil
            }
            let entry = Snapshot.Entry(name: name, kind: url == nil ? .directory : .repository, url: url, path: path, commit: commit,
                                       version: fields["version"].flatMap { schema.string($0, for: "version") },
                                       branch: fields["branch"].flatMap { schema.string($0, for: "branch") },
                                       tag: fields["tag"].flatMap { schema.string($0, for: "tag") })
            return (entry, pathNode.start)
        }

        /// A full lower-case commit id; nil (reported) otherwise.
        mutating func commitID(_ node: YAMLNode) -> String? {
            guard let value = schema.string(node, for: "commit") else { return nil }
            let hex = value.utf8.count == 40 && value.allSatisfy { $0.isHexDigit && ($0.isNumber || $0.isLowercase) }
            if !hex { schema.report("'\(value)' is not a full commit id (40 lower-case hex digits)", at: node.start) }
            return hex ? value : nil
        }
    }
}
