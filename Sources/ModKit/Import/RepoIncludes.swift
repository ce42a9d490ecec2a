import Foundation

/// Paths as messages show them, split and joined on "/" only (Foundation's NSString path methods trap on some inputs).
enum DisplayPath {
    /// "a/b/c.xml" → "a/b"; "c.xml" → "".
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// The layout of a `repo` checkout around `.repo/manifest.xml`: the manifests repository and the local manifests.
struct RepoCheckout {
    /// The directory holding `.repo`: project paths are relative to it.
    let top: URL
    let repoDirectory: URL
    let repoDisplay: String
    /// `.repo/manifests`, where the manifest's includes are looked for.
    let manifests: URL
    let manifestsDisplay: String

    /// The checkout `manifest` is the `.repo/manifest.xml` of, or nil for any other file.
    init?(manifest: ImportSource) {
        let directory = manifest.url.deletingLastPathComponent()
        let manifests = directory.appendingPathComponent("manifests", isDirectory: true)
        var isDirectory: ObjCBool = false
        guard directory.lastPathComponent == ".repo", manifest.url.lastPathComponent == "manifest.xml",
              FileManager.default.fileExists(atPath: manifests.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        top = directory.deletingLastPathComponent()
        repoDirectory = directory
        repoDisplay = DisplayPath.parent(of: manifest.displayPath)
        self.manifests = manifests
        manifestsDisplay = DisplayPath.join(repoDisplay, "manifests")
    }

    /// The checkout whose `.repo/manifests` holds `manifest`, a file imported directly rather than through the checkout's
    /// `.repo/manifest.xml` (so without its local manifests); nil for any other file.
    init?(holdingManifest manifest: ImportSource) {
        let manifests = manifest.url.deletingLastPathComponent()
        let directory = manifests.deletingLastPathComponent()
        guard manifests.lastPathComponent == "manifests", directory.lastPathComponent == ".repo",
              FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.xml").path) else { return nil }
        top = directory.deletingLastPathComponent()
        repoDirectory = directory
        manifestsDisplay = DisplayPath.parent(of: manifest.displayPath)
        let shown = DisplayPath.parent(of: manifestsDisplay)
        // A path given from inside `.repo/manifests` does not name `.repo`: messages then name it in full.
        repoDisplay = shown == ".repo" || shown.hasSuffix("/.repo") ? shown : directory.path
        self.manifests = manifests
    }

    /// `.repo/local_manifests/*.xml` in name order, as repo merges them, with how messages name them.
    func localManifests() -> [(URL, String)] {
        let directory = repoDirectory.appendingPathComponent("local_manifests", isDirectory: true)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".xml") }.sorted()
        return names.map { (directory.appendingPathComponent($0), DisplayPath.join(DisplayPath.join(repoDisplay, "local_manifests"), $0)) }
    }
}

/// Expands `<include>`s in place. Each file is read once: a file included a second time adds nothing (it is reported),
/// so a chain that includes twice at every level stays linear instead of doubling; a file that includes itself is an error.
struct RepoIncludes {
    /// Where `<include name=…>` is looked for, and how messages name that directory.
    var directory: URL
    var displayDirectory: String
    /// Files already expanded, with where they were first included.
    private var expanded: [String: String] = [:]

    init(directory: URL, displayDirectory: String) {
        self.directory = directory
        self.displayDirectory = displayDirectory
    }

    /// The elements of `source` with its includes expanded, each with the file it comes from.
    mutating func expand(_ source: ImportSource, problems: inout ImportProblems) throws(ManifestError) -> [RepoManifestImporter.Located] {
        var elements: [RepoManifestImporter.Located] = []
        try expand(source, groups: [], chain: [], into: &elements, problems: &problems)
        return elements
    }

    private mutating func expand(_ source: ImportSource, groups: [String], chain: [String],
                                 into elements: inout [RepoManifestImporter.Located], problems: inout ImportProblems) throws(ManifestError) {
        let root: XMLElementNode
        do {
            root = try XMLTree.parse(source.text)
        } catch {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "invalid XML: \(error.message)", line: error.line, column: error.column)])
        }
        guard root.name == "manifest" else {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "expected <manifest> as the root element, found <\(root.name)>", line: root.line, column: root.column)])
        }
        let path = source.url.standardizedFileURL.path
        expanded[path] = expanded[path] ?? source.displayPath
        let chain = chain + [path]
        for element in root.children {
            guard element.name == "include" else {
                elements.append(RepoManifestImporter.Located(element: element, source: source, includeGroups: groups))
                continue
            }
            RepoManifestImporter.warnUnknownAttributes(element, in: source, problems: &problems)
            guard let name = element["name"], !name.isEmpty else {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "<include> needs a 'name'", line: element.line, column: element.column)])
            }
            guard let url = ImportSource.inside(name, directory: directory)?.standardizedFileURL else {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "<include name=\"\(name)\"> names a file outside \(displayDirectory.isEmpty ? "the manifests repository" : displayDirectory)",
                                                                    line: element.line, hint: "an include names a file of the manifests repository, relative to \(directory.path)")])
            }
            if chain.contains(url.path) {
                throw ManifestError(diagnostics: [source.diagnostic(
                    .error, "<include name=\"\(name)\"> includes itself\(url.path == path ? "" : " through the files that include it")", line: element.line,
                    hint: "remove this <include>")])
            }
            if let first = expanded[url.path] {
                problems.warn("<include name=\"\(name)\"> includes \(first) again; its elements count once", in: source, line: element.line, column: element.column)
                continue
            }
            let included: ImportSource
            do {
                included = try ImportSource.read(url, displayPath: name.hasPrefix("/") ? name : DisplayPath.join(displayDirectory, name))
            } catch {
                throw ManifestError(diagnostics: [source.diagnostic(.error, "cannot include '\(name)': \(url.path) cannot be read", line: element.line, column: element.column,
                                                                    hint: "repo looks for included files in \(directory.path)")])
            }
            try expand(included, groups: groups + RepoManifestImporter.splitGroups(element["groups"]), chain: chain, into: &elements, problems: &problems)
        }
    }
}
