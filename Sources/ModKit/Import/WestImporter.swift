import YAMLKit

/// Reads a Zephyr `west.yml`: remotes with `url-base`, defaults, and projects with `repo-path`, `revision`, `path`, `groups`.
enum WestImporter {
    static let projectKeys: Set<String> = ["name", "remote", "url", "repo-path", "revision", "path", "groups", "description"]
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
                            problems.warn("'self: import: \(describe(value))' is not followed; projects of imported manifests are not imported", in: source, at: mark,
                                          hint: "import those manifests one by one, or copy their projects here")
                        } else {
                            problems.warn("'self: \(key)' is not carried over", in: source, at: mark)
                        }
                    }
                }
            case "group-filter":
                problems.warn("'group-filter: \(describe(value))' is not carried over; select groups with 'modkit -g GROUP'", in: source, at: mark)
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
                }
            }
        }
        try problems.throwIfFailed()
        let urlBase = (defaultRemote ?? (remotes.count == 1 ? remotes[0].name : nil)).flatMap { name in remotes.first { $0.name == name }?.urlBase }
        return ImportResult(format: .west, source: source.displayPath, modules: modules,
                            defaultRevision: defaultRevision ?? westDefaultRevision, urlBase: urlBase, warnings: problems.warnings)
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
        for (key, mark, value) in problems.entries(of: mapping, in: source) where !projectKeys.contains(key) {
            if key == "import" {
                problems.warn("project '\(name)': 'import: \(describe(value))' is not followed; the projects of its manifest are not imported",
                              in: source, at: mark, hint: "run 'modkit init --import' on that project's west.yml separately, or list its projects here")
            } else {
                problems.warn("project '\(name)': '\(key)' is not carried over", in: source, at: mark)
            }
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
        return ImportedModule(sourceName: name, url: url, path: path, revision: ImportedRevision.normalize(revision), groups: groups,
                              notes: notes, location: source.location(line: item.start.line, column: item.start.column))
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
