import Foundation

/// Follows `imports:` when modkit.yml is loaded: reads each named module's west manifest from its work tree, when it is
/// there, and appends the projects it lists (filtered by its allowlists and blocklists, placed under `path-prefix`), recursively
/// through their own `import:`. A project the workspace already has (by project name) is not added again: the importing
/// manifest wins, as in west.
enum WestImports {
    /// How many manifests deep imports are followed, against cycles.
    static let maxLevels = 8

    private struct Pending {
        var entry: ManifestImport
        var level: Int
        var prefix: String?
        /// Every import on the way here: a project must pass the filters of each.
        var filters: [ManifestImport]
    }

    static func follow(into manifest: inout Manifest) {
        var usedNames = Set(manifest.modules.map(\.name))
        var byProject: [String: String] = [:]
        for module in manifest.modules { byProject[module.project ?? module.name] = module.name }
        var paths = PathNesting()
        for (index, module) in manifest.modules.enumerated() { paths.add(module.path, index: index) }
        var queue = manifest.imports.map { Pending(entry: $0, level: 0, prefix: $0.pathPrefix, filters: [$0]) }
        var followed: Set<String> = []
        while !queue.isEmpty {
            let pending = queue.removeFirst()
            let directory: URL, shownDirectory: String
            if let name = pending.entry.module {
                guard let holder = manifest.module(named: name) else { continue }
                (directory, shownDirectory) = (manifest.directory(of: holder), holder.path)
            } else {
                (directory, shownDirectory) = (manifest.root, "")
            }
            guard ContainedPath.problem(shownDirectory, in: manifest.root) == nil,
                  ImportSource.inside(pending.entry.file, directory: directory) != nil else {
                let holder = shownDirectory.isEmpty ? "the workspace" : shownDirectory
                manifest.importNotes.append("cannot follow the import of '\(pending.entry.file)': it names a file outside \(holder)")
                continue
            }
            for (file, shown) in manifestFiles(pending.entry.file, in: directory, shownAs: shownDirectory)
            where followed.insert(file.standardizedFileURL.path).inserted {
                let result: ImportResult
                do {
                    result = try WestImporter.read(try ImportSource.read(file, displayPath: shown))
                } catch {
                    manifest.importNotes.append("cannot follow the import of \(shown): \(error.diagnostics.first?.description ?? "unreadable")")
                    continue
                }
                add(result, from: shown, pending, into: &manifest, queue: &queue, usedNames: &usedNames, byProject: &byProject, paths: &paths)
            }
        }
    }

    /// `file` in `directory` when it is there: the file itself, or the `.yml` files of a directory in name order.
    private static func manifestFiles(_ file: String, in directory: URL, shownAs shownDirectory: String) -> [(URL, String)] {
        let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
        let shown = file.hasPrefix("/") ? file : DisplayPath.join(shownDirectory, file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [(url, shown)] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".yml") }.sorted()
        return names.filter { ImportSource.inside(file + "/" + $0, directory: directory) != nil }
            .map { (url.appendingPathComponent($0), DisplayPath.join(shown, $0)) }
    }

    /// Appends the projects of one imported manifest and queues its own imports.
    private static func add(_ result: ImportResult, from shown: String, _ pending: Pending, into manifest: inout Manifest, queue: inout [Pending],
                            usedNames: inout Set<String>, byProject: inout [String: String], paths: inout PathNesting) {
        for imported in result.modules {
            guard byProject[imported.sourceName] == nil else { continue }
            let joined = pending.prefix.map { DisplayPath.join($0, imported.path) } ?? imported.path
            let filtered = (try? RelativePath.normalize(joined).get()) ?? joined
            guard pending.filters.allSatisfy({ WestImportFilter.allows($0, name: imported.sourceName, path: filtered) }) else { continue }
            guard case .success(let path) = RelativePath.normalize(joined), !path.isEmpty,
                  paths.earliestCollision(with: path, allows: { _, _ in true }) == nil else {
                manifest.importNotes.append("\(shown): project '\(imported.sourceName)' at '\(joined)' is not added: its path is taken or outside the workspace")
                continue
            }
            let name = ManifestWriter.unique(ManifestWriter.identifier(from: imported.sourceName), among: &usedNames)
            let module = Module(name: name, url: imported.url, path: path, revision: imported.revision, groups: imported.groups,
                                project: imported.sourceName, depth: imported.depth, location: imported.location ?? SourceLocation(file: shown, line: 1, column: 1))
            paths.add(path, index: manifest.modules.count)
            manifest.modules.append(module)
            manifest.importedModules.insert(name)
            byProject[imported.sourceName] = name
        }
        guard pending.level + 1 < maxLevels else {
            if !result.imports.isEmpty { manifest.importNotes.append("\(shown): imports deeper than \(maxLevels) manifests are not followed") }
            return
        }
        for nested in result.imports {
            var entry = nested
            if let project = nested.module {
                guard let holder = byProject[project] else { continue }
                entry.module = holder
            }
            queue.append(Pending(entry: entry, level: pending.level + 1,
                                 prefix: [pending.prefix, nested.pathPrefix].compactMap { $0 }.joined(separator: "/").nilIfEmpty,
                                 filters: pending.filters + [nested]))
        }
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
