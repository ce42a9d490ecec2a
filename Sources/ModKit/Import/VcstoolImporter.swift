import YAMLKit

/// Reads a vcstool `.repos` file: `repositories:` maps each path to `type`, `url` and `version`.
enum VcstoolImporter {
    static func read(_ source: ImportSource) throws(ManifestError) -> ImportResult {
        var problems = ImportProblems()
        let root = try source.yamlRoot(expecting: "a vcstool file ('repositories:')")
        guard let top = root.mapping, let repositoriesNode = top["repositories"] else {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "expected a mapping with the key 'repositories' (a vcstool .repos file)",
                                                                line: root.start.line, column: root.start.column)])
        }
        for (key, mark, _) in problems.entries(of: top, in: source) where key != "repositories" {
            problems.warn("top-level key '\(key)' is not carried over", in: source, at: mark)
        }
        var modules: [ImportedModule] = []
        if !repositoriesNode.isNull {
            guard let repositories = repositoriesNode.mapping else {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "expected a mapping of paths for 'repositories', found \(repositoriesNode.kindDescription)",
                                                                    line: repositoriesNode.start.line, column: repositoriesNode.start.column)])
            }
            for (path, mark, value) in problems.entries(of: repositories, in: source) {
                guard let entry = value.mapping else {
                    problems.error("expected a mapping with 'type' and 'url' for '\(path)', found \(value.kindDescription)", in: source, at: value.start)
                    continue
                }
                let type = problems.string(entry["type"], for: "type", in: source)
                guard let url = problems.string(entry["url"], for: "url", in: source) else {
                    problems.error("repository '\(path)' has no 'url'", in: source, at: mark)
                    continue
                }
                guard type == "git" else {
                    problems.warn("repository '\(path)' has type '\(type ?? "none")'; modkit manages only git repositories, not imported",
                                  in: source, at: entry["type"]?.start ?? mark)
                    continue
                }
                for (key, keyMark, _) in problems.entries(of: entry, in: source) where !["type", "url", "version"].contains(key) {
                    problems.warn("repository '\(path)': '\(key)' is not carried over", in: source, at: keyMark)
                }
                let version = problems.string(entry["version"], for: "version", in: source).map(ImportedRevision.normalize)
                modules.append(ImportedModule(sourceName: path, url: url, path: path, revision: version,
                                              location: source.location(line: mark.line, column: mark.column)))
            }
        }
        try problems.throwIfFailed()
        return ImportResult(format: .vcstool, source: source.displayPath, modules: modules, warnings: problems.warnings)
    }
}
