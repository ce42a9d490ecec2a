import Foundation
import GitKit

/// Repository modules that lie inside other repository modules' work trees, as repo and west allow: `sync` clones
/// the outer ones first and keeps the inner paths out of the outer repository's status through its `.git/info/exclude`
/// (a file of the clone, never a tracked file).
enum NestedModules {
    /// Runs `body` on the modules wave by wave, outer modules before the modules inside them, and returns the results in
    /// the order of `modules`. After each wave the excludes of the outer repositories are brought up to date.
    static func inWaves(_ modules: [Module], of manifest: Manifest, _ body: ([Module]) -> [ModuleResult<SyncFacts>]) -> [ModuleResult<SyncFacts>] {
        let all = manifest.modules.filter { $0.kind == .repository }
        let outers = enclosing(all)
        let selected = Set(modules.map(\.name))
        let level = Dictionary(zip(all.map(\.name), nestingLevels(all.map(\.path))), uniquingKeysWith: { first, _ in first })
        var results: [String: ModuleResult<SyncFacts>] = [:]
        let waves = Dictionary(grouping: modules) { level[$0.name] ?? 0 }
        for wave in waves.keys.sorted() {
            var runnable: [Module] = []
            for module in waves[wave]! {
                if let outer = outers[module.name].flatMap(manifest.module(named:)), !isCloned(outer, in: manifest),
                   !selected.contains(outer.name) || results[outer.name]?.outcome == .failed {
                    results[module.name] = ModuleResult<SyncFacts>(
                        name: module.name, path: module.path, outcome: .failed,
                        detail: "lies inside module '\(outer.name)' at \(outer.path), which is not cloned; sync '\(outer.name)' first",
                        diagnostics: [.error("module '\(outer.name)' is not cloned", module: module.name)], facts: SyncFacts())
                } else {
                    runnable.append(module)
                }
            }
            for result in body(runnable) { results[result.name ?? result.path] = result }
            for (outer, failure) in excludeInnerPaths(all.map(\.path), directory: { manifest.directory(ofPath: $0) }) {
                guard let module = all.first(where: { $0.path == outer }), var result = results[module.name] else { continue }
                let warning = "the modules inside it are not kept out of its status (\(failure))"
                result.detail += "; " + warning
                result.warn(warning)
                results[module.name] = result
            }
        }
        return modules.compactMap { results[$0.name] }
    }

    /// Runs `body` on `items` (repositories at `path(item)` below the workspace root) wave by wave, each repository
    /// before the ones inside its work tree, and returns the results in the order of `items`. `body` returns one
    /// result per item of its wave, in order. After each wave `afterWave` runs (to bring excludes up to date).
    static func mapInWaves<Item, Result>(_ items: [Item], path: (Item) -> String, afterWave: () -> Void = {},
                                         _ body: ([Item]) -> [Result]) -> [Result] {
        let paths = items.map(path)
        let levels = nestingLevels(paths)
        var results = [Result?](repeating: nil, count: items.count)
        for level in Set(levels).sorted() {
            let indices = items.indices.filter { levels[$0] == level }
            for (index, result) in zip(indices, body(indices.map { items[$0] })) { results[index] = result }
            afterWave()
        }
        return results.compactMap { $0 }
    }

    /// For each path, how many of the other paths enclose it (0 for a repository inside no other).
    static func nestingLevels(_ paths: [String]) -> [Int] {
        let outers = enclosingPaths(paths)
        var level: [String: Int] = [:]
        func depth(_ path: String) -> Int {
            if let known = level[path] { return known }
            let value = outers[path].map { depth($0) + 1 } ?? 0
            level[path] = value
            return value
        }
        return paths.map(depth)
    }

    /// For each path inside another of `paths`, the innermost path holding it.
    static func enclosingPaths(_ paths: [String]) -> [String: String] {
        let known = Set(paths)
        var result: [String: String] = [:]
        for candidate in paths {
            var path = Substring(candidate)
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                if known.contains(String(path)) {
                    result[candidate] = String(path)
                    break
                }
            }
        }
        return result
    }

    /// For each repository module inside another, the name of the innermost repository module holding it.
    static func enclosing(_ modules: [Module]) -> [String: String] {
        let nameByPath = Dictionary(modules.map { ($0.path, $0.name) }, uniquingKeysWith: { first, _ in first })
        var result: [String: String] = [:]
        for (inner, outer) in enclosingPaths(modules.map(\.path)) {
            guard let outerName = nameByPath[outer] else { continue }
            for module in modules where module.path == inner { result[module.name] = outerName }
        }
        return result
    }

    /// Adds `/inner/path/` to the `.git/info/exclude` of every cloned repository among `paths` for the paths inside it;
    /// `directory` gives a path's directory.
    /// Returns, by outer path, why its exclude file could not be brought up to date (an outer path that is not a
    /// repository yet is no failure: it is excluded once cloned).
    @discardableResult
    static func excludeInnerPaths(_ paths: [String], directory: (String) -> URL) -> [String: String] {
        var inner: [String: [String]] = [:]
        for (path, outer) in enclosingPaths(paths) { inner[outer, default: []].append(String(path.dropFirst(outer.count + 1))) }
        var failures: [String: String] = [:]
        for (outer, paths) in inner {
            let outerDirectory = directory(outer).path
            guard Repository.isRepository(outerDirectory) else { continue }
            do {
                let repository = try Repository.open(outerDirectory)
                let info = URL(fileURLWithPath: repository.gitDir).appendingPathComponent("info", isDirectory: true)
                try FileManager.default.createDirectory(at: info, withIntermediateDirectories: true)
                _ = try GitIgnore.add(paths.sorted(), to: info.appendingPathComponent("exclude"))
            } catch {
                failures[outer] = "\(outer)/.git/info/exclude: \(ErrorText.describe(error))"
            }
        }
        return failures
    }

    private static func isCloned(_ module: Module, in manifest: Manifest) -> Bool {
        Repository.isRepository(manifest.directory(of: module).path)
    }
}
