import YAMLKit

/// Reads a Zephyr `west.yml`: remotes with `url-base`, defaults, and projects with `repo-path`, `revision`, `path`, `groups`.
enum WestImporter {
    static let projectKeys = ["name", "remote", "url", "repo-path", "revision", "path", "groups", "description", "import", "clone-depth"]
    /// west's revision when neither the project nor `defaults` names one.
    static let westDefaultRevision = "master"

    static let manifestKeys = ["version", "defaults", "remotes", "projects", "self", "group-filter"]

    static func read(_ source: ImportSource) throws(ManifestError) -> ImportResult {
        var reader = YAMLImportReader(source)
        let root = try reader.root(expecting: "a west manifest ('manifest:' with 'projects:')")
        guard let manifestNode = root.mapping?["manifest"] else {
            throw reader.fatal("expected a mapping with the key 'manifest' (a west manifest)", at: root.start)
        }
        guard manifestNode.mapping != nil else {
            throw reader.fatal("expected a mapping for 'manifest', found \(manifestNode.kindDescription)", at: manifestNode.start)
        }
        _ = reader.schema.fields(root, allowed: ["manifest"], in: source.displayPath,
                                 unknown: .warning { "top-level key '\($0)' is not part of a west manifest; ignored" })
        guard let manifest = reader.schema.fields(manifestNode, allowed: manifestKeys, in: "'manifest'",
                                                  unknown: .warning { "'manifest: \($0)' is not carried over" }) else {
            throw ManifestError(diagnostics: try reader.warnings())
        }

        var defaultRemote: String?
        var defaultRevision: String?
        if let node = manifest["defaults"],
           let defaults = reader.schema.fields(node, allowed: ["remote", "revision"], in: "'defaults'", unknown: .warning { "'defaults: \($0)' is not carried over" }) {
            defaultRemote = reader.string(defaults["remote"], for: "remote")
            defaultRevision = reader.string(defaults["revision"], for: "revision")
        }
        let remotes = manifest["remotes"].map { remoteList($0, reader: &reader) } ?? []
        var imports: [ManifestImport] = []
        if let node = manifest["self"], node.mapping != nil,
           let selfFields = reader.schema.fields(node, allowed: ["import"], in: "'self'", unknown: .warning { "'self: \($0)' is not carried over" }),
           let importNode = selfFields["import"], var entry = importEntry(importNode, project: nil, reader: &reader) {
            // Relative to the manifest's own folder; `ManifestImporter.finish` makes it relative to the workspace.
            entry.file = source.url.deletingLastPathComponent().appendingPathComponent(entry.file).standardizedFileURL.path
            imports.append(entry)
        }
        let groupFilter = manifest["group-filter"].map { reader.schema.strings($0, for: "group-filter", nullAllowed: true).map(\.value) } ?? []

        var modules: [ImportedModule] = []
        if let projectsNode = manifest["projects"], !projectsNode.isNull {
            guard let sequence = projectsNode.sequence else {
                throw reader.fatal("expected a sequence for 'projects', found \(projectsNode.kindDescription)", at: projectsNode.start)
            }
            for item in sequence.items {
                if let module = project(item, remotes: remotes, defaultRemote: defaultRemote, defaultRevision: defaultRevision ?? westDefaultRevision, reader: &reader) {
                    modules.append(module)
                    if let node = item["import"], let entry = importEntry(node, project: module.sourceName, reader: &reader) {
                        imports.append(entry)
                    }
                }
            }
        }
        if modules.isEmpty, imports.isEmpty {
            reader.schema.report("\(source.displayPath) declares no project", at: manifestNode.start,
                                 hint: "import the west.yml that lists the projects under 'manifest: projects:'")
        }
        let warnings = try reader.warnings()
        let urlBase = (defaultRemote ?? (remotes.count == 1 ? remotes[0].name : nil)).flatMap { name in remotes.first { $0.name == name }?.urlBase }
        var result = ImportResult(format: .west, source: source.displayPath, modules: modules,
                                  defaultRevision: defaultRevision ?? westDefaultRevision, urlBase: urlBase, warnings: warnings)
        result.imports = imports
        result.defaultGroups = defaultGroups(groupFilter, modules: modules)
        return result
    }

    /// `remotes:` — each a `name` and a `url-base`.
    private static func remoteList(_ node: YAMLNode, reader: inout YAMLImportReader) -> [(name: String, urlBase: String)] {
        if node.isNull { return [] }
        guard let sequence = node.sequence else {
            reader.schema.report("expected a sequence for 'remotes', found \(node.kindDescription)", at: node.start)
            return []
        }
        var remotes: [(name: String, urlBase: String)] = []
        for item in sequence.items {
            let called = item["name"]?.string.map { "remote '\($0)'" } ?? "a remote"
            guard let fields = reader.schema.fields(item, allowed: ["name", "url-base"], in: called, unknown: .warning { "'\($0)' of \(called) is not carried over" }),
                  let name = reader.schema.requiredString(fields, "name", in: called),
                  let base = reader.schema.requiredString(fields, "url-base", in: called) else { continue }
            remotes.append((name, base))
        }
        return remotes
    }

    /// west's rule — a project is active unless it has groups and every one of them is disabled — as `defaults.groups`:
    /// each disabled group with `-`, then every other group of the projects in one, which takes them back.
    static func defaultGroups(_ filter: [String], modules: [ImportedModule]) -> [String]? {
        var disabled: [String] = []
        for entry in filter {
            let name = String(entry.drop { $0 == "+" || $0 == "-" })
            disabled.removeAll { $0 == name }
            if entry.hasPrefix("-") { disabled.append(name) }
        }
        guard !disabled.isEmpty else { return nil }
        var enabling: [String] = []
        for module in modules where module.groups.contains(where: disabled.contains) {
            for group in module.groups where !disabled.contains(group) && !enabling.contains(group) { enabling.append(group) }
        }
        return disabled.map { "-" + $0 } + enabling
    }

    static let importKeys = ["file", "name-allowlist", "path-allowlist", "name-blocklist", "path-blocklist", "path-prefix"]

    /// A project's `import:` — `true`, a file, or a mapping with a file, allowlists, blocklists and a path prefix — as an `imports:` entry.
    private static func importEntry(_ node: YAMLNode, project: String?, reader: inout YAMLImportReader) -> ManifestImport? {
        let called = project.map { "project '\($0)'" } ?? "self"
        if let flag = node.bool { return flag ? ManifestImport(module: project) : nil }
        if let file = node.string { return ManifestImport(module: project, file: file) }
        guard node.mapping != nil, let fields = reader.schema.fields(node, allowed: importKeys, in: "the 'import' of \(called)",
                                                                      unknown: .warning { "\(called): 'import: \($0)' is not carried over" }) else {
            reader.schema.report("\(called): expected true, a file or a mapping for 'import', found \(node.kindDescription)", at: node.start)
            return nil
        }
        var entry = ManifestImport(module: project)
        entry.file = reader.string(fields["file"], for: "file") ?? entry.file
        // west takes a single string for a list of one, and an empty list lists nothing.
        func list(_ key: String) -> [String]? {
            fields[key].map { reader.schema.strings($0, for: key, nullAllowed: true).map(\.value) }
        }
        entry.nameAllowlist = list("name-allowlist")
        entry.pathAllowlist = list("path-allowlist")
        entry.nameBlocklist = list("name-blocklist")
        entry.pathBlocklist = list("path-blocklist")
        entry.pathPrefix = reader.string(fields["path-prefix"], for: "path-prefix")
        return entry
    }

    private static func project(_ item: YAMLNode, remotes: [(name: String, urlBase: String)], defaultRemote: String?, defaultRevision: String,
                                reader: inout YAMLImportReader) -> ImportedModule? {
        guard item.mapping != nil else {
            reader.schema.report("expected a project (a mapping with 'name'), found \(item.kindDescription)", at: item.start)
            return nil
        }
        guard let name = reader.string(item["name"], for: "name") else {
            if item["name"]?.isNull ?? true { reader.schema.report("a project needs a 'name'", at: item.start) }
            return nil
        }
        let called = "project '\(name)'"
        guard let fields = reader.schema.fields(item, allowed: projectKeys, in: called, unknown: .warning { "\(called): '\($0)' is not carried over" }) else { return nil }
        let url: String
        if let explicit = reader.string(fields["url"], for: "url") {
            url = explicit
            if fields["remote"] != nil || fields["repo-path"] != nil {
                reader.schema.report("\(called) has 'url' together with 'remote' or 'repo-path'", at: item.start)
            }
        } else {
            guard let remoteName = reader.string(fields["remote"], for: "remote") ?? defaultRemote else {
                reader.schema.report("\(called) has neither 'url' nor 'remote', and 'defaults' names no remote", at: item.start)
                return nil
            }
            guard let remote = remotes.first(where: { $0.name == remoteName }) else {
                reader.schema.report("\(called) uses remote '\(remoteName)', which 'remotes' does not declare\(DidYouMean.suffix(for: remoteName, among: remotes.map(\.name)))",
                                     at: fields["remote"]?.start ?? item.start)
                return nil
            }
            var base = remote.urlBase
            while base.hasSuffix("/") { base.removeLast() }
            url = base + "/" + (reader.string(fields["repo-path"], for: "repo-path") ?? name)
        }
        let revision = reader.string(fields["revision"], for: "revision") ?? defaultRevision
        // As in west, an import's path-prefix places the project itself too, not only what it imports.
        let ownPrefix = fields["import"]?["path-prefix"]?.string ?? ""
        let path = DisplayPath.join(ownPrefix, reader.string(fields["path"], for: "path") ?? name)
        let groups = fields["groups"].map { reader.schema.strings($0, for: "groups", nullAllowed: true).map(\.value) } ?? []
        let notes = reader.string(fields["description"], for: "description", emptyAllowed: true).map { [$0] } ?? []
        var module = ImportedModule(sourceName: name, url: url, path: path, revision: ImportedRevision.normalize(revision), groups: groups,
                                    notes: notes, location: reader.location(item.start))
        if let node = fields["clone-depth"] {
            if let depth = node.int, depth > 0 { module.depth = depth } else {
                reader.schema.report("\(called): 'clone-depth' must be a positive number", at: node.start)
            }
        }
        return module
    }
}
