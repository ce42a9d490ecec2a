import Foundation
import GitKit
import YAMLKit

/// Reads another tool's manifest into modules for `modkit.yml`: detects the format, runs its importer, then makes names,
/// paths and urls fit modkit's rules — every module it cannot keep is named in a warning, never dropped silently.
public enum ManifestImporter {
    /// Files looked for when the path given is a directory, in this order.
    static let candidates: [(String, ImportFormat)] = [
        (".gitmodules", .submodules), ("west.yml", .west), (".repo/manifest.xml", .repo), ("default.xml", .repo), ("manifest.xml", .repo),
    ]

    /// Reads `path` (a file, or a directory holding one of the known files) as `format`, or as the format its content shows.
    public static func read(_ path: URL, displayPath: String, format: ImportFormat? = nil, workspaceRoot: URL, exact: Bool) throws(ManifestError) -> ImportResult {
        let (file, shown) = try locate(path, displayPath: displayPath)
        let source = try ImportSource.read(file, displayPath: shown)
        var result: ImportResult
        let detected: ImportFormat
        if let format { detected = format } else { detected = try detect(source) }
        switch detected {
        case .submodules: result = try SubmoduleImporter.read(source, exact: exact)
        case .repo: result = try RepoManifestImporter.read(source)
        case .west: result = try WestImporter.read(source)
        case .vcstool: result = try VcstoolImporter.read(source)
        }
        finish(&result, workspaceRoot: workspaceRoot.standardizedFileURL, exact: exact)
        return result
    }

    /// The file to read: `path` itself, or the first known manifest inside the directory `path`.
    static func locate(_ path: URL, displayPath: String) throws(ManifestError) -> (URL, String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
            throw ManifestError(diagnostics: [.error("\(displayPath) does not exist")])
        }
        guard isDirectory.boolValue else { return (path, displayPath) }
        let prefix = displayPath == "." ? "" : displayPath.hasSuffix("/") ? displayPath : displayPath + "/"
        for (name, _) in candidates where FileManager.default.fileExists(atPath: path.appendingPathComponent(name).path) {
            return (path.appendingPathComponent(name), prefix + name)
        }
        let repos = ((try? FileManager.default.contentsOfDirectory(atPath: path.path)) ?? []).filter { $0.hasSuffix(".repos") }.sorted()
        if let first = repos.first { return (path.appendingPathComponent(first), prefix + first) }
        throw ManifestError(diagnostics: [.error("\(displayPath) holds no .gitmodules, west.yml, repo manifest or .repos file",
                                                 hint: "pass the manifest file itself: 'modkit init --import FILE'")])
    }

    /// The format the content shows: XML is a repo manifest, `[submodule "…"]` is .gitmodules, YAML with `manifest:` is west, with `repositories:` vcstool.
    static func detect(_ source: ImportSource) throws(ManifestError) -> ImportFormat {
        let trimmed = source.text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<") { return .repo }
        let lines = source.lines.lines.map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains(where: { $0.hasPrefix("[submodule") }) || source.url.lastPathComponent == ".gitmodules" { return .submodules }
        if let root = try? YAML.parse(source.text), let mapping = root.mapping {
            if mapping["manifest"] != nil { return .west }
            if mapping["repositories"] != nil { return .vcstool }
        }
        let name = source.url.lastPathComponent
        if name.hasSuffix(".repos") { return .vcstool }
        if name == "west.yml" { return .west }
        if name.hasSuffix(".xml") { return .repo }
        throw ManifestError(diagnostics: [.error("cannot tell which tool \(source.displayPath) belongs to",
                                                 at: source.location(line: 1),
                                                 hint: "name it with '--from submodules|repo|west|vcstool'")])
    }

    /// Rebases paths onto the workspace root, keeps only modules modkit can hold, reads exact commits, and picks names, url-base and default revision.
    static func finish(_ result: inout ImportResult, workspaceRoot: URL, exact: Bool) {
        var kept = keptModules(of: &result, workspaceRoot: workspaceRoot, exact: exact)
        assignNames(&kept)
        result.modules = kept
        var outside: [Diagnostic] = []
        result.imports = followedImports(result.imports, modules: kept, workspaceRoot: workspaceRoot, outside: &outside)
        result.warnings += outside
        result.warnings = inFileOrder(result.warnings)

        if result.urlBase == nil { result.urlBase = commonParent(kept.map(\.url)) }
        let revisions = kept.compactMap(\.revision)
        if let declared = result.defaultRevision, revisions.contains(declared) {
            // keep the manifest's own default when modules still follow it
        } else {
            let shared = ManifestWriter.mostCommon(revisions.filter { !ImportedRevision.isCommit($0) })
            result.defaultRevision = shared.flatMap { candidate in revisions.filter { $0 == candidate }.count >= 2 ? candidate : nil }
        }
    }

    /// The modules modkit can hold, with paths relative to the workspace root (and, with `exact`, at the commit checked
    /// out); each one left out is named in a warning added to `result`.
    private static func keptModules(of result: inout ImportResult, workspaceRoot: URL, exact: Bool) -> [ImportedModule] {
        var kept: [ImportedModule] = []
        var keptPaths = PathNesting()  // the paths of `kept`, by index
        for var module in result.modules {
            func skip(_ message: String, hint: String? = nil) {
                result.warnings.append(Diagnostic(severity: .warning, message: message, location: module.location,
                                                  sourceLine: nil, hint: hint))
            }
            let called = "'\(module.sourceName)'"
            if let base = result.baseDirectory?.standardizedFileURL, base.path != workspaceRoot.path {
                let full = base.appendingPathComponent(module.path).standardizedFileURL.path
                let rootPrefix = workspaceRoot.path.hasSuffix("/") ? workspaceRoot.path : workspaceRoot.path + "/"
                guard full.hasPrefix(rootPrefix) else {
                    skip("\(called) lies at \(full), outside the workspace \(workspaceRoot.path); not imported",
                         hint: "run 'modkit init --import' in a directory that holds it")
                    continue
                }
                module.path = String(full.dropFirst(rootPrefix.count))
            }
            switch RelativePath.modulePath(module.path) {
            case .success(let path):
                module.path = path
            case .failure(let problem):
                skip("\(called): \(problem.message); not imported", hint: problem.hint)
                continue
            }
            if case .invalid(let why) = ModuleURL.classify(module.url) {
                skip("\(called) has the url '\(module.url)', which is not a url (\(why)); not imported")
                continue
            }
            // Repository modules may nest, as repo and west projects do; only the same path twice cannot be kept.
            if let other = keptPaths.earliestCollision(with: module.path, index: kept.count, allows: { _, _ in true }).map({ kept[$0] }) {
                skip("\(called) at '\(module.path)' has the same path as '\(other.sourceName)'; not imported")
                continue
            }
            if exact, result.format != .submodules {
                readExactCommit(of: &module, root: workspaceRoot, warnings: &result.warnings)
            }
            keptPaths.add(module.path, index: kept.count)
            kept.append(module)
        }
        return kept
    }

    /// The imports still followed: one of a kept module, under its modkit name, or a `self: import` file inside the
    /// workspace, made relative to its root; each file outside is named in `outside`.
    private static func followedImports(_ imports: [ManifestImport], modules: [ImportedModule], workspaceRoot: URL,
                                        outside: inout [Diagnostic]) -> [ManifestImport] {
        let names = Dictionary(modules.map { ($0.sourceName, $0.name) }, uniquingKeysWith: { first, _ in first })
        let rootPrefix = workspaceRoot.path.hasSuffix("/") ? workspaceRoot.path : workspaceRoot.path + "/"
        return imports.compactMap { entry in
            var entry = entry
            if let project = entry.module {
                guard let name = names[project] else { return nil }
                entry.module = name
            } else if entry.file.hasPrefix(rootPrefix) {
                entry.file = String(entry.file.dropFirst(rootPrefix.count))
            } else {
                outside.append(Diagnostic(severity: .warning, message: "'self: import' reads \(entry.file), outside the workspace \(workspaceRoot.path); not followed"))
                return nil
            }
            return entry
        }
    }

    /// Warnings grouped by file (in the order files first appear), then by line; warnings without a line keep their place at the end of their file.
    static func inFileOrder(_ warnings: [Diagnostic]) -> [Diagnostic] {
        var fileOrder: [String: Int] = [:]
        for warning in warnings {
            let file = warning.location?.file ?? ""
            if fileOrder[file] == nil { fileOrder[file] = fileOrder.count }
        }
        return warnings.enumerated().sorted { a, b in
            let l = a.element.location, r = b.element.location
            let lk = (fileOrder[l?.file ?? ""]!, l?.line ?? .max), rk = (fileOrder[r?.file ?? ""]!, r?.line ?? .max)
            return lk != rk ? lk < rk : a.offset < b.offset
        }.map(\.element)
    }

    /// With `--exact`, a module already cloned in the workspace is recorded at its HEAD commit.
    private static func readExactCommit(of module: inout ImportedModule, root: URL, warnings: inout [Diagnostic]) {
        let directory = root.appendingPathComponent(module.path).path
        guard Repository.isRepository(directory), let repository = try? Repository.open(directory), let head = try? repository.head() else {
            warnings.append(Diagnostic(severity: .warning,
                                       message: "--exact: '\(module.sourceName)' is not cloned at \(module.path); keeping revision '\(module.revision ?? "(remote default)")'",
                                       location: module.location))
            return
        }
        switch head {
        case .branch(_, let commit), .detached(let commit):
            if let revision = module.revision, revision != commit.hex { module.notes.append("revision \(revision) in the imported manifest") }
            module.revision = commit.hex
        case .unborn:
            break
        }
    }

    /// Identifiers from the last path component of each source name (`platform/build/soong` → `soong`), made unique;
    /// a clash takes the component before it (`build_soong`), then a number.
    static func assignNames(_ modules: inout [ImportedModule]) {
        assignNamesInOrder(&modules)
    }

    /// The name a source name gives before clashes are resolved: `platform/build/soong.git` → `soong`.
    static func baseName(_ sourceName: String) -> String {
        var source = sourceName
        if source.hasSuffix(".git") { source = String(source.dropLast(4)) }
        return ManifestWriter.identifier(from: String(source.split(separator: "/").last ?? "Module"))
    }

    private static func assignNamesInOrder(_ modules: inout [ImportedModule]) {
        var used: Set<String> = []
        for index in modules.indices {
            var source = modules[index].sourceName
            if source.hasSuffix(".git") { source = String(source.dropLast(4)) }
            let parts = source.split(separator: "/").map(String.init)
            if let preferred = modules[index].preferredName, Identifier.isValid(preferred), !used.contains(preferred) {
                used.insert(preferred)
                modules[index].name = preferred
                continue
            }
            var name = ManifestWriter.identifier(from: parts.last ?? "Module")
            if used.contains(name), parts.count >= 2 {
                name = ManifestWriter.identifier(from: parts.suffix(2).joined(separator: "_"))
            }
            modules[index].name = ManifestWriter.unique(name, among: &used)
        }
    }

    /// The folder most urls live in, when at least two share it.
    static func commonParent(_ urls: [String]) -> String? {
        let parents = urls.compactMap { url -> String? in
            guard let slash = url.lastIndex(of: "/"), slash != url.startIndex else { return nil }
            let parent = String(url[..<slash])
            return parent.hasSuffix(":") || parent.hasSuffix("/") || !parent.contains("/") ? nil : parent
        }
        guard let best = ManifestWriter.mostCommon(parents), parents.filter({ $0 == best }).count >= 2 else { return nil }
        return best
    }
}

