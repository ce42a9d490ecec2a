import Foundation

/// A repo XML manifest: one `<remote>` per url prefix, a `<default>`, one `<project>` per module.
enum RepoManifestWriter {
    static func render(_ modules: [ExportedModule], defaultRevision: String?, urlBase: String?, header: String, warnings: inout [Diagnostic]) -> String {
        let (remotes, placement) = ManifestExporter.remotes(for: modules, urlBase: urlBase)
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!-- \(header) -->", "<manifest>"]
        for remote in remotes {
            lines.append("  <remote name=\"\(escape(remote.name))\" fetch=\"\(escape(remote.base))\"/>")
        }
        var defaultLine = "  <default"
        if let first = remotes.first { defaultLine += " remote=\"\(escape(first.name))\"" }
        if let defaultRevision { defaultLine += " revision=\"\(escape(defaultRevision))\"" }
        lines.append(defaultLine + "/>")
        lines.append("")
        for (module, place) in zip(modules, placement) {
            if place.rest.isEmpty { warnings.append(.warning("url '\(module.url)' has no folder to split off; repo cannot name it", module: module.name)) }
            var line = "  <project name=\"\(escape(place.rest))\" path=\"\(escape(module.path))\""
            if place.remote != remotes.first?.name { line += " remote=\"\(escape(place.remote))\"" }
            if let revision = module.revision, revision != defaultRevision { line += " revision=\"\(escape(revision))\"" }
            if !module.groups.isEmpty { line += " groups=\"\(escape(module.groups.joined(separator: ",")))\"" }
            let derived = ManifestImporter.baseName(place.rest)
            if derived == module.name {
                lines.append(line + "/>")
            } else {
                // repo has no field for a second name; an annotation keeps modkit's name across a round trip.
                lines.append(line + ">")
                lines.append("    <annotation name=\"\(RepoManifestImporter.nameAnnotation)\" value=\"\(escape(module.name))\"/>")
                lines.append("  </project>")
            }
        }
        lines.append("</manifest>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func escape(_ text: String) -> String { XMLTree.escape(text) }
}

/// A west manifest: `remotes` with `url-base`, `defaults`, and `projects` with `repo-path`, `path`, `revision`, `groups`.
enum WestManifestWriter {
    static func render(_ modules: [ExportedModule], defaultRevision: String?, urlBase: String?, groups: [String]?, header: String, warnings: inout [Diagnostic]) -> String {
        let (remotes, placement) = ManifestExporter.remotes(for: modules, urlBase: urlBase)
        let scalar = ManifestWriter.scalar
        var lines = ["# \(header)", "# Project paths are relative to the directory that holds modkit.yml.", "manifest:"]
        if let groups, !groups.isEmpty {
            // west's filter keeps a project when any of its groups is enabled, which `defaults.groups` was written to match.
            lines.append("  group-filter: [\(groups.map { scalar($0.hasPrefix("-") ? $0 : "+" + $0) }.joined(separator: ", "))]")
        }
        if !remotes.isEmpty {
            lines.append("  remotes:")
            for remote in remotes {
                lines.append("    - name: \(scalar(remote.name))")
                lines.append("      url-base: \(scalar(remote.base))")
            }
        }
        if remotes.first != nil || defaultRevision != nil {
            lines.append("  defaults:")
            if let first = remotes.first { lines.append("    remote: \(scalar(first.name))") }
            if let defaultRevision { lines.append("    revision: \(scalar(defaultRevision))") }
        }
        if modules.isEmpty {
            lines.append("  projects: []")
        } else {
            lines.append("  projects:")
        }
        for (module, place) in zip(modules, placement) {
            let name = module.project ?? module.name
            lines.append("    - name: \(scalar(name))")
            if place.remote != remotes.first?.name { lines.append("      remote: \(scalar(place.remote))") }
            if place.rest != name { lines.append("      repo-path: \(scalar(place.rest))") }
            lines.append("      path: \(scalar(module.path))")
            if let revision = module.revision, revision != defaultRevision { lines.append("      revision: \(scalar(revision))") }
            if !module.groups.isEmpty {
                for group in module.groups where group.contains(":") || group.hasPrefix("-") || group.hasPrefix("+") {
                    warnings.append(.warning("group '\(group)' is not a valid west group name", module: module.name))
                }
                lines.append("      groups: [\(module.groups.map(scalar).joined(separator: ", "))]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A vcstool `.repos` file: each module path with `type: git`, its full url and `version`.
enum VcstoolWriter {
    static func render(_ modules: [ExportedModule], header: String) -> String {
        let scalar = ManifestWriter.scalar
        var lines = ["# \(header)", "# Import with: vcs import < FILE (run where modkit.yml lives)."]
        if modules.isEmpty { return (lines + ["repositories: {}"]).joined(separator: "\n") + "\n" }
        lines.append("repositories:")
        for module in modules {
            lines.append("  \(scalar(module.path)):")
            lines.append("    type: git")
            lines.append("    url: \(scalar(module.url))")
            if let revision = module.revision { lines.append("    version: \(scalar(revision))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
