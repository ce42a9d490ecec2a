import Foundation
import GitKit

/// Reads a Google `repo` XML manifest: remotes, the default, projects, includes, removals and extensions.
enum RepoManifestImporter {
    private struct Remote {
        var name: String
        var fetch: String
        var revision: String?
        var line: Int
        var source: ImportSource
    }

    private struct Project {
        var name: String
        var path: String
        var remote: String?
        var revision: String?
        var groups: [String]
        var preferredName: String?
        var line: Int
        var source: ImportSource
    }

    /// The annotation `modkit export` writes when a module's name is not the one its project name would give.
    static let nameAnnotation = "modkit-name"

    /// An element of the manifest after includes are expanded, with the file it came from and groups its `<include>` adds.
    private struct Located {
        var element: XMLElementNode
        var source: ImportSource
        var includeGroups: [String]
    }

    static let elementAttributes: [String: Set<String>] = [
        "remote": ["name", "fetch", "revision"],
        "default": ["remote", "revision"],
        "project": ["name", "path", "remote", "revision", "groups"],
        "extend-project": ["name", "path", "dest-path", "groups", "revision", "remote"],
        "remove-project": ["name", "path", "optional"],
        "include": ["name", "groups"],
    ]

    static func read(_ source: ImportSource) throws(ManifestError) -> ImportResult {
        var problems = ImportProblems()
        var elements: [Located] = []
        try expand(source, groups: [], chain: [], into: &elements, problems: &problems)

        var remotes: [String: Remote] = [:]
        var defaultRemote: String?
        var defaultRevision: String?
        var defaultLine: Int?
        for located in elements {
            let element = located.element, file = located.source
            warnUnknownAttributes(element, in: file, problems: &problems)
            switch element.name {
            case "remote":
                guard let name = element["name"], let fetch = element["fetch"] else {
                    problems.error("<remote> needs 'name' and 'fetch'", in: file, line: element.line)
                    continue
                }
                let remote = Remote(name: name, fetch: fetch, revision: element["revision"], line: element.line, source: file)
                if let first = remotes[name], first.fetch != fetch || first.revision != remote.revision {
                    problems.error("remote '\(name)' is declared twice with different attributes (first at \(first.source.displayPath):\(first.line))",
                                   in: file, line: element.line)
                }
                remotes[name] = remote
            case "default":
                if let defaultLine {
                    problems.error("a second <default> (the first is at line \(defaultLine))", in: file, line: element.line)
                }
                defaultLine = element.line
                defaultRemote = element["remote"]
                defaultRevision = element["revision"]
            default:
                break
            }
        }

        var projects: [Project] = []
        // name and path → index in `projects`, rebuilt after the rare elements that change or remove projects.
        var declared: [String: Int] = [:]
        func key(_ name: String, _ path: String) -> String { "\(name)\u{0}\(path)" }
        func reindex() {
            declared = [:]
            for (index, project) in projects.enumerated() where declared[key(project.name, project.path)] == nil {
                declared[key(project.name, project.path)] = index
            }
        }
        for located in elements {
            let element = located.element, file = located.source
            switch element.name {
            case "project":
                guard let name = element["name"], !name.isEmpty else {
                    problems.error("<project> needs a 'name'", in: file, line: element.line)
                    continue
                }
                let path = element["path"] ?? name
                if let clash = declared[key(name, path)].map({ projects[$0] }) {
                    problems.error("project '\(name)' at '\(path)' is declared twice (first at \(clash.source.displayPath):\(clash.line))",
                                   in: file, line: element.line)
                    continue
                }
                let annotation = element.children.first { $0.name == "annotation" && $0["name"] == nameAnnotation }
                declared[key(name, path)] = projects.count
                projects.append(Project(name: name, path: path, remote: element["remote"], revision: element["revision"],
                                        groups: splitGroups(element["groups"]) + located.includeGroups,
                                        preferredName: annotation?["value"], line: element.line, source: file))
                for child in element.children where !(child.name == "annotation" && child["name"] == nameAnnotation) {
                    let what = child.name == "project" ? "nested <project name=\"\(child["name"] ?? "")\"> is not imported (modkit modules do not nest)"
                        : "<\(child.name)\(child["src"].map { " src=\"\($0)\"" } ?? "")\(child["dest"].map { " dest=\"\($0)\"" } ?? "")> of project '\(name)' is not carried over"
                    problems.warn(what, in: file, line: child.line,
                                  hint: child.name == "copyfile" || child.name == "linkfile" ? "copy or link the file in a build step, or commit it where it is needed" : nil)
                }
            case "extend-project":
                guard let name = element["name"] else {
                    problems.error("<extend-project> needs a 'name'", in: file, line: element.line)
                    continue
                }
                let matches = projects.indices.filter { projects[$0].name == name && (element["path"] == nil || projects[$0].path == element["path"]) }
                if matches.isEmpty {
                    problems.warn("<extend-project name=\"\(name)\"> names no project declared before it; ignored", in: file, line: element.line)
                }
                for index in matches {
                    if let dest = element["dest-path"] { projects[index].path = dest }
                    if let revision = element["revision"] { projects[index].revision = revision }
                    if let remote = element["remote"] { projects[index].remote = remote }
                    for group in splitGroups(element["groups"]) where !projects[index].groups.contains(group) {
                        projects[index].groups.append(group)
                    }
                }
                reindex()
            case "remove-project":
                guard let name = element["name"] ?? element["path"] else {
                    problems.error("<remove-project> needs a 'name' or 'path'", in: file, line: element.line)
                    continue
                }
                let before = projects.count
                projects.removeAll { project in
                    (element["name"] == nil || project.name == element["name"]) && (element["path"] == nil || project.path == element["path"])
                }
                reindex()
                if projects.count == before, element["optional"] != "true" {
                    problems.warn("<remove-project> '\(name)' names no project declared before it", in: file, line: element.line)
                }
            case "remote", "default", "include":
                break
            case "notice":
                problems.warn("<notice> is not carried over", in: file, line: element.line)
            default:
                problems.warn("<\(element.name)> is not carried over", in: file, line: element.line)
            }
        }

        let manifestURL = manifestRepositoryURL(of: source)
        var fetchURLs: [String: String] = [:]
        let usedRemotes = Set(projects.compactMap { $0.remote ?? defaultRemote })
        for (name, remote) in remotes.sorted(by: { $0.value.line < $1.value.line }) where usedRemotes.contains(name) || name == defaultRemote {
            fetchURLs[name] = resolvedFetch(remote, manifestURL: manifestURL, problems: &problems)
        }
        var modules: [ImportedModule] = []
        for project in projects {
            guard let remoteName = project.remote ?? defaultRemote else {
                problems.error("project '\(project.name)' has no remote and <default> names none", in: project.source, line: project.line)
                continue
            }
            guard let base = fetchURLs[remoteName], let remote = remotes[remoteName] else {
                problems.error("project '\(project.name)' uses remote '\(remoteName)', which is not declared\(DidYouMean.suffix(for: remoteName, among: Array(remotes.keys)))",
                               in: project.source, line: project.line)
                continue
            }
            let revision = (project.revision ?? remote.revision ?? defaultRevision).map(ImportedRevision.normalize)
            var module = ImportedModule(sourceName: project.name, url: join(base, project.name), path: project.path, revision: revision,
                                        groups: project.groups, location: project.source.location(line: project.line))
            module.preferredName = project.preferredName
            if module.groups.contains("notdefault") {
                problems.warn("project '\(project.name)' is in group 'notdefault', which means nothing special to modkit: 'modkit sync' syncs it unless '-g' selects other groups",
                              in: project.source, line: project.line)
            }
            module.groups = module.groups.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
            modules.append(module)
        }
        try problems.throwIfFailed()
        let urlBase = defaultRemote.flatMap { fetchURLs[$0] }
        return ImportResult(format: .repo, source: source.displayPath, modules: modules,
                            defaultRevision: defaultRevision.map(ImportedRevision.normalize), urlBase: urlBase, warnings: problems.warnings)
    }

    /// Parses `source` and appends its elements, with included files expanded in place.
    private static func expand(_ source: ImportSource, groups: [String], chain: [String], into elements: inout [Located], problems: inout ImportProblems) throws(ManifestError) {
        let root: XMLElementNode
        do {
            root = try XMLTree.parse(source.text)
        } catch {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "invalid XML: \(error.message)", line: error.line, column: error.column)])
        }
        guard root.name == "manifest" else {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "expected <manifest> as the root element, found <\(root.name)>", line: root.line)])
        }
        let chain = chain + [source.url.standardizedFileURL.path]
        for element in root.children {
            guard element.name == "include" else {
                elements.append(Located(element: element, source: source, includeGroups: groups))
                continue
            }
            warnUnknownAttributes(element, in: source, problems: &problems)
            guard let name = element["name"] else {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "<include> needs a 'name'", line: element.line)])
            }
            let url = URL(fileURLWithPath: name, relativeTo: source.url.deletingLastPathComponent()).standardizedFileURL
            if chain.contains(url.path) {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "<include name=\"\(name)\"> includes itself (directly or through other files)", line: element.line)])
            }
            let shown = (source.displayPath as NSString).deletingLastPathComponent
            let included: ImportSource
            do {
                included = try ImportSource.read(url, displayPath: shown.isEmpty ? name : shown + "/" + name)
            } catch {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "cannot include '\(name)': \(url.path) cannot be read", line: element.line)])
            }
            try expand(included, groups: groups + splitGroups(element["groups"]), chain: chain, into: &elements, problems: &problems)
        }
    }

    private static func warnUnknownAttributes(_ element: XMLElementNode, in source: ImportSource, problems: inout ImportProblems) {
        guard let known = elementAttributes[element.name] else { return }
        for attribute in element.attributes where !known.contains(attribute.name) {
            problems.warn("attribute \(attribute.name)=\"\(attribute.value)\" of <\(element.name)\(element["name"].map { " name=\"\($0)\"" } ?? "")> is not carried over",
                          in: source, line: element.line)
        }
    }

    /// repo groups are separated by commas or white space; the implicit `all`, `default`, `name:…` and `path:…` are left out.
    private static func splitGroups(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            .filter { $0 != "all" && $0 != "default" && !$0.hasPrefix("name:") && !$0.hasPrefix("path:") }
    }

    private static func join(_ base: String, _ name: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + name
    }

    private static func resolvedFetch(_ remote: Remote, manifestURL: String?, problems: inout ImportProblems) -> String {
        guard RelativeURL.isRepoRelative(remote.fetch) else { return remote.fetch }
        if let manifestURL { return RelativeURL.resolveRepo(remote.fetch, against: manifestURL) }
        let directory = remote.source.url.deletingLastPathComponent().path
        problems.warn("remote '\(remote.name)' has the relative fetch url '\(remote.fetch)' and the manifest repository has no 'origin'; resolved against \(directory)",
                      in: remote.source, line: remote.line)
        return RelativeURL.resolveRepo(remote.fetch, against: directory + "/manifest")
    }

    /// The url of the git repository holding the manifest (repo resolves relative `fetch` urls against it).
    private static func manifestRepositoryURL(of source: ImportSource) -> String? {
        guard let repository = try? Repository.discover(from: source.url.deletingLastPathComponent().path) else { return nil }
        return (try? repository.remoteURL("origin")) ?? nil
    }
}
