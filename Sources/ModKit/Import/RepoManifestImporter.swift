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

    /// The annotation `modkit export` writes when a module's name is not the one its project name would give.
    static let nameAnnotation = "modkit-name"

    /// An element of the manifest after includes are expanded, with the file it came from and groups its `<include>` adds.
    struct Located {
        var element: XMLElementNode
        var source: ImportSource
        var includeGroups: [String]
    }

    static let elementAttributes: [String: Set<String>] = [
        "remote": ["name", "fetch", "revision"],
        "default": ["remote", "revision"],
        "project": ["name", "path", "remote", "revision", "groups", "clone-depth"],
        "extend-project": ["name", "path", "dest-path", "groups", "revision", "remote"],
        "remove-project": ["name", "path", "optional"],
        "include": ["name", "groups"],
    ]

    /// The remotes and the `<default>` the manifest declares.
    private struct Remotes {
        var byName: [String: Remote] = [:]
        var defaultRemote: String?
        var defaultRevision: String?
    }

    static func read(_ source: ImportSource) throws(ManifestError) -> ImportResult {
        var problems = ImportProblems()
        let checkout = RepoCheckout(manifest: source)
        let (elements, merged) = try expandedElements(source, checkout: checkout, problems: &problems)
        let remotes = readRemotes(elements, problems: &problems)
        let (table, declaredAny) = declareProjects(elements, problems: &problems)
        let projects = table.projects
        let manifestURL = manifestRepositoryURL(in: checkout?.manifests ?? source.url.deletingLastPathComponent())
        let fetchURLs = resolvedFetchURLs(remotes, usedBy: projects, manifestURL: manifestURL, problems: &problems)
        let modules = importedModules(projects, remotes: remotes, fetchURLs: fetchURLs, problems: &problems)
        if !declaredAny {
            problems.error("\(source.displayPath) declares no <project>\(merged.isEmpty ? "" : " (nor do the local manifests merged with it)")",
                           in: source, line: 1,
                           hint: "import the manifest that declares the projects (e.g. default.xml), not one that only extends or removes them")
        }
        try problems.throwIfFailed()
        let urlBase = remotes.defaultRemote.flatMap { fetchURLs[$0] }
        var result = ImportResult(format: .repo, source: source.displayPath, modules: modules,
                                  defaultRevision: remotes.defaultRevision.map(ImportedRevision.normalize), urlBase: urlBase, warnings: problems.warnings)
        // repo syncs every project except those in 'notdefault' unless asked for other groups.
        if modules.contains(where: { $0.groups.contains("notdefault") }) { result.defaultGroups = ["-notdefault"] }
        result.mergedFiles = merged
        result.baseDirectory = checkout?.top
        return result
    }

    /// The elements of the manifest with its includes expanded, then those of the local manifests of a `.repo` checkout
    /// (whose display paths are returned as the files merged).
    private static func expandedElements(_ source: ImportSource, checkout: RepoCheckout?,
                                         problems: inout ImportProblems) throws(ManifestError) -> (elements: [Located], merged: [String]) {
        var includes = RepoIncludes(directory: checkout?.manifests ?? source.url.deletingLastPathComponent(),
                                    displayDirectory: checkout?.manifestsDisplay ?? DisplayPath.parent(of: source.displayPath))
        var elements = try includes.expand(source, problems: &problems)
        var merged: [String] = []
        if let checkout {
            // repo reads each local manifest after the manifest, in name order, with includes relative to `.repo`.
            includes.directory = checkout.repoDirectory
            includes.displayDirectory = checkout.repoDisplay
            for (file, shown) in checkout.localManifests() {
                elements += try includes.expand(try ImportSource.read(file, displayPath: shown), problems: &problems)
                merged.append(shown)
            }
        } else if let bypassed = RepoCheckout(holdingManifest: source) {
            warnUnmergedLocalManifests(of: bypassed, source: source, problems: &problems)
        }
        return (elements, merged)
    }

    /// A file of `.repo/manifests` imported on its own leaves the checkout's local manifests out, which repo would merge:
    /// one warning names them and how to include them.
    private static func warnUnmergedLocalManifests(of checkout: RepoCheckout, source: ImportSource, problems: inout ImportProblems) {
        let left = checkout.localManifests().map(\.1)
        guard !left.isEmpty else { return }
        let one = left.count == 1
        let folder = DisplayPath.parent(of: checkout.repoDisplay)
        problems.warn(.warning("\(source.displayPath) is imported on its own: the local manifest\(one ? "" : "s") \(left.joined(separator: ", ")) "
                               + "\(one ? "is" : "are") not merged with it",
                               hint: "repo merges local manifests with \(DisplayPath.join(checkout.repoDisplay, "manifest.xml")); to include "
                                   + "\(one ? "it" : "them"), import that file or the checkout folder (\(folder.isEmpty ? "." : folder))"))
    }

    /// The first pass: `<remote>` and `<default>` (and every element's attributes modkit does not carry over).
    private static func readRemotes(_ elements: [Located], problems: inout ImportProblems) -> Remotes {
        var remotes = Remotes()
        var defaultLine: Int?
        for located in elements {
            let element = located.element, file = located.source
            warnUnknownAttributes(element, in: file, problems: &problems)
            switch element.name {
            case "remote":
                guard let name = element["name"], let fetch = element["fetch"] else {
                    problems.error("<remote> needs 'name' and 'fetch'", in: file, line: element.line, column: element.column)
                    continue
                }
                let remote = Remote(name: name, fetch: fetch, revision: element["revision"], line: element.line, source: file)
                if let first = remotes.byName[name], first.fetch != fetch || first.revision != remote.revision {
                    problems.error("remote '\(name)' is declared twice with different attributes (first at \(first.source.displayPath):\(first.line))",
                                   in: file, line: element.line, column: element.column)
                }
                remotes.byName[name] = remote
            case "default":
                if let defaultLine {
                    problems.error("a second <default> (the first is at line \(defaultLine))", in: file, line: element.line, column: element.column)
                }
                defaultLine = element.line
                remotes.defaultRemote = element["remote"]
                remotes.defaultRevision = element["revision"]
            default:
                break
            }
        }
        return remotes
    }

    /// The second pass: projects declared, extended and removed in document order; true when any `<project>` is declared.
    private static func declareProjects(_ elements: [Located], problems: inout ImportProblems) -> (table: RepoProjectTable, declaredAny: Bool) {
        var table = RepoProjectTable()
        var declaredAny = false
        for located in elements {
            let element = located.element, file = located.source
            switch element.name {
            case "project":
                declaredAny = true
                declare(element, in: file, parent: nil, includeGroups: located.includeGroups, into: &table, problems: &problems)
            case "extend-project":
                extend(element, in: file, table: &table, problems: &problems)
            case "remove-project":
                guard let name = element["name"] ?? element["path"] else {
                    problems.error("<remove-project> needs a 'name' or 'path'", in: file, line: element.line, column: element.column)
                    continue
                }
                if table.remove(name: element["name"], path: element["path"]) == 0, element["optional"] != "true" {
                    problems.warn("<remove-project> '\(name)' names no project declared before it", in: file, line: element.line, column: element.column)
                }
            case "remote", "default", "include":
                break
            case "notice":
                problems.warn("<notice> is not carried over", in: file, line: element.line, column: element.column)
            default:
                problems.warn("<\(element.name)> is not carried over", in: file, line: element.line, column: element.column)
            }
        }
        return (table, declaredAny)
    }

    /// `<extend-project>`: changes the projects declared before it with that name (and path, when given).
    private static func extend(_ element: XMLElementNode, in file: ImportSource, table: inout RepoProjectTable, problems: inout ImportProblems) {
        guard let name = element["name"] else {
            problems.error("<extend-project> needs a 'name'", in: file, line: element.line, column: element.column)
            return
        }
        let changed = table.update(name: name, path: element["path"]) { project in
            if let dest = element["dest-path"] { project.path = dest }
            if let revision = element["revision"] { project.revision = revision }
            if let remote = element["remote"] { project.remote = remote }
            for group in splitGroups(element["groups"]) where !project.groups.contains(group) {
                project.groups.append(group)
            }
        }
        if changed == 0 {
            problems.warn("<extend-project name=\"\(name)\"> names no project declared before it; ignored", in: file, line: element.line, column: element.column)
        }
    }

    /// The fetch url of each remote a project or the default uses, resolved in declaration order.
    private static func resolvedFetchURLs(_ remotes: Remotes, usedBy projects: [RepoProjectTable.Project], manifestURL: String?,
                                          problems: inout ImportProblems) -> [String: String] {
        var fetchURLs: [String: String] = [:]
        let usedRemotes = Set(projects.compactMap { $0.remote ?? remotes.defaultRemote })
        for (name, remote) in remotes.byName.sorted(by: { $0.value.line < $1.value.line }) where usedRemotes.contains(name) || name == remotes.defaultRemote {
            fetchURLs[name] = resolvedFetch(remote, manifestURL: manifestURL, problems: &problems)
        }
        return fetchURLs
    }

    /// A module for each project whose remote is known.
    private static func importedModules(_ projects: [RepoProjectTable.Project], remotes: Remotes, fetchURLs: [String: String],
                                        problems: inout ImportProblems) -> [ImportedModule] {
        var modules: [ImportedModule] = []
        for project in projects {
            guard let remoteName = project.remote ?? remotes.defaultRemote else {
                problems.error("project '\(project.name)' has no remote and <default> names none", in: project.source, line: project.line)
                continue
            }
            guard let base = fetchURLs[remoteName], let remote = remotes.byName[remoteName] else {
                problems.error("project '\(project.name)' uses remote '\(remoteName)', which is not declared\(DidYouMean.suffix(for: remoteName, among: Array(remotes.byName.keys)))",
                               in: project.source, line: project.line)
                continue
            }
            let revision = (project.revision ?? remote.revision ?? remotes.defaultRevision).map(ImportedRevision.normalize)
            var module = ImportedModule(sourceName: project.name, url: join(base, project.name), path: project.path, revision: revision,
                                        groups: project.groups, location: project.source.location(line: project.line))
            module.preferredName = project.preferredName
            module.depth = project.cloneDepth
            module.groups = module.groups.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
            modules.append(module)
        }
        return modules
    }

    /// Declares a `<project>` and the projects nested in it (repo joins their names and paths onto the parent's).
    private static func declare(_ element: XMLElementNode, in file: ImportSource, parent: RepoProjectTable.Project?, includeGroups: [String],
                                into table: inout RepoProjectTable, problems: inout ImportProblems) {
        guard let ownName = element["name"], !ownName.isEmpty else {
            problems.error("<project> needs a 'name'", in: file, line: element.line, column: element.column)
            return
        }
        let name = parent.map { $0.name + "/" + ownName } ?? ownName
        let ownPath = element["path"] ?? ownName
        let path = parent.map { $0.path + "/" + ownPath } ?? ownPath
        if let clash = table.existing(name: name, path: path) {
            problems.error("project '\(name)' at '\(path)' is declared twice (first at \(clash.source.displayPath):\(clash.line))",
                           in: file, line: element.line, column: element.column)
            return
        }
        var cloneDepth: Int?
        if let text = element["clone-depth"] {
            if let depth = Int(text), depth > 0 {
                cloneDepth = depth
            } else {
                problems.error("clone-depth=\"\(text)\" of project '\(name)' is not a positive number", in: file, line: element.line, column: element.column)
            }
        }
        let annotation = element.children.first { $0.name == "annotation" && $0["name"] == nameAnnotation }
        let project = RepoProjectTable.Project(
            name: name, path: path, remote: element["remote"] ?? parent?.remote, revision: element["revision"] ?? parent?.revision,
            groups: splitGroups(element["groups"]) + (parent?.groups ?? includeGroups), cloneDepth: cloneDepth ?? parent?.cloneDepth,
            preferredName: annotation?["value"], line: element.line, source: file)
        table.add(project)
        for child in element.children where !(child.name == "annotation" && child["name"] == nameAnnotation) {
            if child.name == "project" {
                declare(child, in: file, parent: project, includeGroups: includeGroups, into: &table, problems: &problems)
                continue
            }
            let what = "<\(child.name)\(child["src"].map { " src=\"\($0)\"" } ?? "")\(child["dest"].map { " dest=\"\($0)\"" } ?? "")> of project '\(name)' is not carried over"
            problems.warn(what, in: file, line: child.line, column: child.column,
                          hint: child.name == "copyfile" || child.name == "linkfile" ? "copy or link the file in a build step, or commit it where it is needed" : nil)
        }
    }

    static func warnUnknownAttributes(_ element: XMLElementNode, in source: ImportSource, problems: inout ImportProblems) {
        guard let known = elementAttributes[element.name] else { return }
        let named = element["name"].map { " name=\"\($0)\"" } ?? ""
        for attribute in element.attributes where !known.contains(attribute.name) {
            problems.warn("attribute \(attribute.name)=\"\(attribute.value)\" of <\(element.name)\(named)> is not carried over",
                          in: source, line: element.line, column: element.column)
        }
    }

    /// repo groups are separated by commas or white space; the implicit `all`, `default`, `name:…` and `path:…` are left out.
    static func splitGroups(_ text: String?) -> [String] {
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
    private static func manifestRepositoryURL(in directory: URL) -> String? {
        guard let repository = try? Repository.discover(from: directory.path) else { return nil }
        return (try? repository.remoteURL("origin")) ?? nil
    }
}
