import YAMLKit

/// Reads a Zephyr `west.yml`: remotes with `url-base`, defaults, and projects with `repo-path`, `revision`, `path`, `groups`.
enum WestImporter {
    static let projectKeys: Set<String> = ["name", "remote", "url", "repo-path", "revision", "path", "groups", "description", "import", "clone-depth"]
    /// west's revision when neither the project nor `defaults` names one.
    static let westDefaultRevision = "master"

    static func read(_ source: ImportSource) throws(ManifestError) -> ImportResult {
        var problems = ImportProblems()
        let root = try source.yamlRoot(expecting: "a west manifest ('manifest:' with 'projects:')")
        guard let top = root.mapping, let manifestNode = top["manifest"] else {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "expected a mapping with the key 'manifest' (a west manifest)", line: root.start.line, column: root.start.column)])
        }
        guard let manifest = manifestNode.mapping else {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "expected a mapping for 'manifest', found \(manifestNode.kindDescription)", line: manifestNode.start.line, column: manifestNode.start.column)])
        }
        for (key, mark, _) in problems.entries(of: top, in: source) where key != "manifest" {
            problems.warn("top-level key '\(key)' is not part of a west manifest; ignored", in: source, at: mark)
        }

        var remotes: [(name: String, urlBase: String)] = []
        var defaultRemote: String?
        var defaultRevision: String?
        var projectsNode: YAMLNode?
        var groupFilter: [String] = []
        var imports: [ManifestImport] = []
        for (key, mark, value) in problems.entries(of: manifest, in: source) {
            switch key {
            case "version": break
            case "defaults":
                guard let defaults = value.mapping else {
                    problems.error("expected a mapping for 'defaults', found \(value.kindDescription)", in: source, at: value.start)
                    continue
                }
                for (key, mark, value) in problems.entries(of: defaults, in: source) {
                    switch key {
                    case "remote": defaultRemote = problems.string(value, for: key, in: source)
                    case "revision": defaultRevision = problems.string(value, for: key, in: source)
                    default: problems.warn("'defaults: \(key)' is not carried over", in: source, at: mark)
                    }
                }
            case "remotes":
                guard let sequence = value.sequence else {
                    problems.error("expected a sequence for 'remotes', found \(value.kindDescription)", in: source, at: value.start)
                    continue
                }
                for item in sequence.items {
                    guard let remote = item.mapping else {
                        problems.error("expected a remote ('name' and 'url-base'), found \(item.kindDescription)", in: source, at: item.start)
                        continue
                    }
                    let name = problems.string(remote["name"], for: "name", in: source)
                    let base = problems.string(remote["url-base"], for: "url-base", in: source)
                    guard let name, let base else {
                        problems.error("a remote needs 'name' and 'url-base'", in: source, at: item.start)
                        continue
                    }
                    for (key, mark, _) in problems.entries(of: remote, in: source) where key != "name" && key != "url-base" {
                        problems.warn("'\(key)' of remote '\(name)' is not carried over", in: source, at: mark)
                    }
                    remotes.append((name, base))
                }
            case "projects":
                projectsNode = value
            case "self":
                if let selfMapping = value.mapping {
                    for (key, mark, value) in problems.entries(of: selfMapping, in: source) {
                        if key == "import" {
                            // Relative to the manifest's own folder; `ManifestImporter.finish` makes it relative to the workspace.
                            if var entry = importEntry(value, project: nil, source: source, problems: &problems) {
                                entry.file = source.url.deletingLastPathComponent().appendingPathComponent(entry.file).standardizedFileURL.path
                                imports.append(entry)
                            }
                        } else {
                            problems.warn("'self: \(key)' is not carried over", in: source, at: mark)
                        }
                    }
                }
            case "group-filter":
                groupFilter = problems.strings(value, for: "group-filter", in: source)
            default:
                problems.warn("'manifest: \(key)' is not carried over", in: source, at: mark)
            }
        }

        var modules: [ImportedModule] = []
        if let projectsNode, !projectsNode.isNull {
            guard let sequence = projectsNode.sequence else {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "expected a sequence for 'projects', found \(projectsNode.kindDescription)",
                                                                    line: projectsNode.start.line, column: projectsNode.start.column)])
            }
            for item in sequence.items {
                if let module = project(item, remotes: remotes, defaultRemote: defaultRemote,
                                        defaultRevision: defaultRevision ?? westDefaultRevision, source: source, problems: &problems) {
                    modules.append(module)
                    if let mapping = item.mapping, let node = mapping["import"],
                       let entry = importEntry(node, project: module.sourceName, source: source, problems: &problems) {
                        imports.append(entry)
                    }
                }
            }
        }
        if modules.isEmpty, imports.isEmpty {
            problems.error("\(source.displayPath) declares no project", in: source, line: manifestNode.start.line,
                           hint: "import the west.yml that lists the projects under 'manifest: projects:'")
        }
        try problems.throwIfFailed()
        let urlBase = (defaultRemote ?? (remotes.count == 1 ? remotes[0].name : nil)).flatMap { name in remotes.first { $0.name == name }?.urlBase }
        var result = ImportResult(format: .west, source: source.displayPath, modules: modules,
                                  defaultRevision: defaultRevision ?? westDefaultRevision, urlBase: urlBase, warnings: problems.warnings)
        result.imports = imports
        result.defaultGroups = defaultGroups(groupFilter, modules: modules)
        return result
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

    /// A project's `import:` — `true`, a file, or `{file, name-allowlist, path-prefix}` — as an `imports:` entry.
    private static func importEntry(_ node: YAMLNode, project: String?, source: ImportSource, problems: inout ImportProblems) -> ManifestImport? {
        let called = project.map { "project '\($0)'" } ?? "self"
        if let flag = node.bool { return flag ? ManifestImport(module: project) : nil }
        if let file = node.string { return ManifestImport(module: project, file: file) }
        guard let mapping = node.mapping else {
            problems.error("\(called): expected true, a file or a mapping for 'import', found \(node.kindDescription)", in: source, at: node.start)
            return nil
        }
        var entry = ManifestImport(module: project)
        for (key, mark, value) in problems.entries(of: mapping, in: source) {
            switch key {
            case "file": entry.file = problems.string(value, for: key, in: source) ?? entry.file
            case "name-allowlist": entry.nameAllowlist = problems.strings(value, for: key, in: source)
            case "path-prefix": entry.pathPrefix = problems.string(value, for: key, in: source)
            default: problems.warn("\(called): 'import: \(key)' is not carried over; only file, name-allowlist and path-prefix are", in: source, at: mark)
            }
        }
        return entry
    }

    private static func project(_ item: YAMLNode, remotes: [(name: String, urlBase: String)], defaultRemote: String?, defaultRevision: String,
                                source: ImportSource, problems: inout ImportProblems) -> ImportedModule? {
        guard let mapping = item.mapping else {
            problems.error("expected a project (a mapping with 'name'), found \(item.kindDescription)", in: source, at: item.start)
            return nil
        }
        guard let name = problems.string(mapping["name"], for: "name", in: source) else {
            problems.error("a project needs a 'name'", in: source, at: item.start)
            return nil
        }
        for (key, mark, _) in problems.entries(of: mapping, in: source) where !projectKeys.contains(key) {
            problems.warn("project '\(name)': '\(key)' is not carried over", in: source, at: mark)
        }
        let url: String
        if let explicit = problems.string(mapping["url"], for: "url", in: source) {
            url = explicit
            if mapping["remote"] != nil || mapping["repo-path"] != nil {
                problems.error("project '\(name)' has 'url' together with 'remote' or 'repo-path'", in: source, at: item.start)
            }
        } else {
            guard let remoteName = problems.string(mapping["remote"], for: "remote", in: source) ?? defaultRemote else {
                problems.error("project '\(name)' has neither 'url' nor 'remote', and 'defaults' names no remote", in: source, at: item.start)
                return nil
            }
            guard let remote = remotes.first(where: { $0.name == remoteName }) else {
                problems.error("project '\(name)' uses remote '\(remoteName)', which 'remotes' does not declare\(DidYouMean.suffix(for: remoteName, among: remotes.map(\.name)))",
                               in: source, at: mapping["remote"]?.start ?? item.start)
                return nil
            }
            var base = remote.urlBase
            while base.hasSuffix("/") { base.removeLast() }
            url = base + "/" + (problems.string(mapping["repo-path"], for: "repo-path", in: source) ?? name)
        }
        let revision = problems.string(mapping["revision"], for: "revision", in: source) ?? defaultRevision
        let path = problems.string(mapping["path"], for: "path", in: source) ?? name
        let groups = problems.strings(mapping["groups"], for: "groups", in: source)
        let notes = problems.string(mapping["description"], for: "description", in: source).map { [$0] } ?? []
        var module = ImportedModule(sourceName: name, url: url, path: path, revision: ImportedRevision.normalize(revision), groups: groups,
                                    notes: notes, location: source.location(line: item.start.line, column: item.start.column))
        if let node = mapping["clone-depth"] {
            if let depth = node.int, depth > 0 { module.depth = depth } else {
                problems.error("project '\(name)': 'clone-depth' must be a positive number", in: source, at: node.start)
            }
        }
        return module
    }

    /// A short rendering of a value for messages: a scalar as is, a collection by kind.
    static func describe(_ node: YAMLNode) -> String {
        if let value = node.string { return value }
        if let sequence = node.sequence { return "[" + sequence.items.map(describe).joined(separator: ", ") + "]" }
        if let mapping = node.mapping {
            return "{" + mapping.entries.map { "\($0.key.string ?? "?"): \(describe($0.value))" }.joined(separator: ", ") + "}"
        }
        return "null"
    }
}
