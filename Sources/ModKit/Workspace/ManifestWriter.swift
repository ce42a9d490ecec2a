import Foundation
import YAMLKit

/// Writes the commented `modkit.yml` that `modkit init` creates from discovered repositories.
public enum ManifestWriter {
    public static func render(workspace: String, repositories: [DiscoveredRepository]) -> String {
        let named = uniqueNames(for: repositories)
        let withURL = named.filter { $0.repository.url != nil }
        let urlBase = commonURLBase(withURL.compactMap(\.repository.url))
        let defaultRevision = mostCommon(withURL.compactMap(\.repository.revision))

        var lines = [
            "# modkit.yml — the modules of \(workspace), managed by modkit.",
            "# Written by 'modkit init'; edit freely. 'modkit --help' lists what modkit can do with it.",
            "version: 1                       # schema version of this file",
            "workspace: \(scalar(workspace))",
            "",
            "defaults:",
            "  remote: origin                 # remote name used in module repositories",
        ]
        if let defaultRevision {
            lines.append("  revision: \(scalar(defaultRevision))   # branch, tag or commit 'modkit sync' checks out")
        }
        if let urlBase {
            lines.append("  url-base: \(scalar(urlBase))   # relative module urls resolve against it")
        }
        lines.append("  tag-format: \"{workspace}/{snapshot}\"   # snapshot tag in every module repository (never a bare version)")
        lines.append("")
        if named.isEmpty {
            lines.append("modules: []                      # add modules as '- name: Core' / 'url: …' / 'path: Libs/Core'")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("modules:")
        for (name, repository) in named {
            guard var url = repository.url else {
                lines.append("  # \(repository.path) has no remote: add its url and uncomment.")
                lines.append("  # - name: \(name)")
                lines.append("  #   url: …")
                lines.append("  #   path: \(scalar(repository.path))")
                continue
            }
            if let urlBase, url.hasPrefix(urlBase + "/") { url = String(url.dropFirst(urlBase.count + 1)) }
            lines.append("  - name: \(name)")
            lines.append("    url: \(scalar(url))")
            lines.append("    path: \(scalar(repository.path))")
            if let revision = repository.revision, revision != defaultRevision {
                lines.append("    revision: \(scalar(revision))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The commented `modkit.yml` for modules imported from another tool's manifest; notes become comments next to their module.
    public static func render(workspace: String, imported: ImportResult, exact: Bool = false) -> String {
        var lines = importedHeader(workspace: workspace, imported: imported, exact: exact)
        if imported.modules.isEmpty {
            lines.append("modules: []                      # nothing could be imported; see the warnings")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("modules:")
        for module in imported.modules {
            lines += entry(for: module, of: imported)
        }
        if !imported.imports.isEmpty {
            lines += importsSection(imported.imports)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The comment saying where the modules come from, the schema version, the workspace and its defaults.
    private static func importedHeader(workspace: String, imported: ImportResult, exact: Bool) -> [String] {
        var lines = [
            "# modkit.yml — the modules of \(workspace), managed by modkit.",
            "# Imported by 'modkit init --import' from \(imported.source) (\(imported.format.label))\(exact ? " at exact commits" : "");",
            "# edit freely. 'modkit --help' lists what modkit can do with it.",
            "version: 1                       # schema version of this file",
            "workspace: \(scalar(workspace))",
            "",
            "defaults:",
            "  remote: origin                 # remote name used in module repositories",
        ]
        if let revision = imported.defaultRevision {
            lines.append("  revision: \(scalar(revision))   # branch, tag or commit 'modkit sync' checks out")
        }
        if let urlBase = imported.urlBase {
            lines.append("  url-base: \(scalar(urlBase))   # relative module urls resolve against it")
        }
        lines.append("  tag-format: \"{workspace}/{snapshot}\"   # snapshot tag in every module repository (never a bare version)")
        if let groups = imported.defaultGroups {
            lines.append("  groups: [\(groups.map(scalar).joined(separator: ", "))]   # what a plain 'modkit sync' takes, as \(imported.format == .west ? "west's group-filter" : "repo's default groups") do; '-g' overrides")
        }
        lines.append("")
        return lines
    }

    /// One module's entry: its url relative to the url-base where that reads back the same, and only what differs from the defaults.
    private static func entry(for module: ImportedModule, of imported: ImportResult) -> [String] {
        var url = module.url
        if let urlBase = imported.urlBase, url.hasPrefix(urlBase + "/") {
            let rest = String(url.dropFirst(urlBase.count + 1))
            if ModuleURL.classify(rest) == .relativeName { url = rest }
        }
        let keepsProject = imported.format == .repo || imported.format == .west
        var nameLine = "  - name: \(module.name)"
        if module.name != module.sourceName, !keepsProject {
            nameLine += "   # \(imported.format == .vcstool ? "vcstool path" : "submodule") '\(comment(module.sourceName))'"
        }
        var lines = [nameLine]
        if module.name != module.sourceName, keepsProject {
            lines.append("    project: \(scalar(module.sourceName))   # its name in the \(imported.format.label); 'modkit export' writes it back")
        }
        lines.append("    url: \(scalar(url))")
        lines.append("    path: \(scalar(module.path))")
        if let revision = module.revision, revision != imported.defaultRevision {
            lines.append("    revision: \(scalar(revision))")
        }
        if !module.groups.isEmpty {
            lines.append("    groups: [\(module.groups.map { YAML.scalar($0, in: .flow) }.joined(separator: ", "))]")
        }
        if let depth = module.depth {
            lines.append("    depth: \(depth)")
        }
        for note in module.notes {
            lines.append("    # \(comment(note))")
        }
        return lines
    }

    /// `imports:` for west's `import:` and `self: import`, with the filters each carries.
    private static func importsSection(_ imports: [ManifestImport]) -> [String] {
        var lines = [
            "",
            "# west 'import:': each module's own manifest is read whenever modkit.yml is, once the module is cloned;",
            "# 'modkit sync' clones it first, then the modules it lists.",
            "imports:",
        ]
        for entry in imports {
            if let module = entry.module {
                lines.append("  - module: \(scalar(module))")
                if entry.file != "west.yml" { lines.append("    file: \(scalar(entry.file))") }
            } else {
                lines.append("  - file: \(scalar(entry.file))   # west 'self: import', relative to this file")
            }
            for (key, list) in [("name-allowlist", entry.nameAllowlist), ("path-allowlist", entry.pathAllowlist),
                                ("name-blocklist", entry.nameBlocklist), ("path-blocklist", entry.pathBlocklist)] {
                if let list { lines.append("    \(key): [\(list.map { YAML.scalar($0, in: .flow) }.joined(separator: ", "))]") }
            }
            if let prefix = entry.pathPrefix { lines.append("    path-prefix: \(scalar(prefix))") }
        }
        return lines
    }

    /// Text safe inside a `#` comment: one line.
    static func comment(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Module names from the last path component, made into unique identifiers.
    static func uniqueNames(for repositories: [DiscoveredRepository]) -> [(name: String, repository: DiscoveredRepository)] {
        var used: Set<String> = []
        return repositories.map { repository in
            let name = unique(identifier(from: String(repository.path.split(separator: "/").last ?? "Module")), among: &used)
            return (name, repository)
        }
    }

    /// `base`, or `base_2`, `base_3`… — the first not in `used`, which it is then added to.
    static func unique(_ base: String, among used: inout Set<String>) -> String {
        var name = base
        var counter = 2
        while used.contains(name) {
            name = "\(base)_\(counter)"
            counter += 1
        }
        used.insert(name)
        return name
    }

    static func identifier(from text: String) -> String {
        var result = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        if result.isEmpty || result.first!.isNumber { result = "_" + result }
        return result
    }

    /// The folder part shared by every url, when there are at least two and it is the same for all.
    static func commonURLBase(_ urls: [String]) -> String? {
        guard urls.count >= 2 else { return nil }
        let bases = Set(urls.map { url -> String in
            guard let slash = url.lastIndex(of: "/") else { return "" }
            return String(url[..<slash])
        })
        guard bases.count == 1, let base = bases.first, base.contains("/"), !base.hasSuffix(":") else { return nil }
        return base
    }

    static func mostCommon(_ values: [String]) -> String? {
        let counts = Dictionary(values.map { ($0, 1) }, uniquingKeysWith: +)
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    /// A YAML scalar in a block mapping: plain when that reads back as the same string, double-quoted otherwise.
    static func scalar(_ text: String) -> String { YAML.scalar(text) }
}
