import YAMLKit

/// Reads a vcstool `.repos` file: `repositories:` maps each path to `type`, `url` and `version`.
enum VcstoolImporter {
    static func read(_ source: ImportSource) throws(ManifestError) -> ImportResult {
        var reader = YAMLImportReader(source)
        let root = try reader.root(expecting: "a vcstool file ('repositories:')")
        guard let repositoriesNode = root.mapping?["repositories"] else {
            throw reader.fatal("expected a mapping with the key 'repositories' (a vcstool .repos file)", at: root.start)
        }
        _ = reader.schema.fields(root, allowed: ["repositories"], in: source.displayPath, unknown: .warning { "top-level key '\($0)' is not carried over" })
        if !repositoriesNode.isNull, repositoriesNode.mapping == nil {
            throw reader.fatal("expected a mapping of paths for 'repositories', found \(repositoriesNode.kindDescription)", at: repositoriesNode.start)
        }
        var modules: [ImportedModule] = []
        for (path, key, value) in reader.schema.namedEntries(repositoriesNode, for: "repositories", item: "repository") {
            guard value.mapping != nil else {
                reader.schema.report("expected a mapping with 'type' and 'url' for '\(path)', found \(value.kindDescription)", at: value.start)
                continue
            }
            let type = reader.string(value["type"], for: "type")
            guard type == "git" else {
                reader.schema.warn("repository '\(path)' has type '\(type ?? "none")'; modkit manages only git repositories, not imported",
                                   at: value["type"]?.start ?? key.start)
                continue
            }
            guard let fields = reader.schema.fields(value, allowed: ["type", "url", "version"], in: "repository '\(path)'",
                                                    unknown: .warning { "repository '\(path)': '\($0)' is not carried over" }) else { continue }
            guard let url = reader.string(fields["url"], for: "url") else {
                if fields["url"] == nil || fields["url"]?.isNull == true { reader.schema.report("repository '\(path)' has no 'url'", at: key.start) }
                continue
            }
            let version = reader.string(fields["version"], for: "version").map(ImportedRevision.normalize)
            modules.append(ImportedModule(sourceName: path, url: url, path: path, revision: version, location: reader.location(key.start)))
        }
        return ImportResult(format: .vcstool, source: source.displayPath, modules: modules, warnings: try reader.warnings())
    }
}
