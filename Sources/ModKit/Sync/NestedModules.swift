import Foundation
import GitKit

/// Repository modules that lie inside other repository modules' work trees, as repo and west allow: `sync` clones
/// the outer ones first and keeps the inner paths out of the outer repository's status through its `.git/info/exclude`
/// (a file of the clone, never a tracked file).
enum NestedModules {
    /// Runs `body` on the modules wave by wave, outer modules before the modules inside them, and returns the results in
    /// the order of `modules`. After each wave the excludes of the outer repositories are brought up to date.
    static func inWaves(_ modules: [Module], of manifest: Manifest, _ body: ([Module]) -> [ModuleSyncResult]) -> [ModuleSyncResult] {
        let all = manifest.modules.filter { $0.kind == .repository }
        let outers = enclosing(all)
        let selected = Set(modules.map(\.name))
        var level: [String: Int] = [:]
        func depth(_ name: String) -> Int {
            if let known = level[name] { return known }
            let value = outers[name].map { depth($0) + 1 } ?? 0
            level[name] = value
            return value
        }
        var results: [String: ModuleSyncResult] = [:]
        let waves = Dictionary(grouping: modules) { $0.kind == .repository ? depth($0.name) : 0 }
        for wave in waves.keys.sorted() {
            var runnable: [Module] = []
            for module in waves[wave]! {
                if let outer = outers[module.name].flatMap(manifest.module(named:)), !isCloned(outer, in: manifest),
                   !selected.contains(outer.name) || results[outer.name]?.outcome == .failed {
                    results[module.name] = ModuleSyncResult(
                        name: module.name, path: module.path, outcome: .failed,
                        detail: "lies inside module '\(outer.name)' at \(outer.path), which is not cloned; sync '\(outer.name)' first",
                        error: "module '\(outer.name)' is not cloned")
                } else {
                    runnable.append(module)
                }
            }
            for result in body(runnable) { results[result.name] = result }
            excludeInnerPaths(all, outers: outers, in: manifest)
        }
        return modules.compactMap { results[$0.name] }
    }

    /// For each repository module inside another, the name of the innermost repository module holding it.
    static func enclosing(_ modules: [Module]) -> [String: String] {
        let byPath = Dictionary(modules.map { ($0.path, $0.name) }, uniquingKeysWith: { first, _ in first })
        var result: [String: String] = [:]
        for module in modules {
            var path = Substring(module.path)
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                if let outer = byPath[String(path)] {
                    result[module.name] = outer
                    break
                }
            }
        }
        return result
    }

    /// Adds `/inner/path/` to the `.git/info/exclude` of every cloned outer repository for the modules nested in it.
    static func excludeInnerPaths(_ modules: [Module], outers: [String: String], in manifest: Manifest) {
        var inner: [String: [String]] = [:]
        for module in modules {
            guard let outerName = outers[module.name], let outer = manifest.module(named: outerName) else { continue }
            inner[outerName, default: []].append(String(module.path.dropFirst(outer.path.count + 1)))
        }
        for (outerName, paths) in inner {
            guard let outer = manifest.module(named: outerName), isCloned(outer, in: manifest),
                  let repository = try? Repository.open(manifest.directory(of: outer).path) else { continue }
            let info = URL(fileURLWithPath: repository.gitDir).appendingPathComponent("info", isDirectory: true)
            try? FileManager.default.createDirectory(at: info, withIntermediateDirectories: true)
            _ = try? GitIgnore.add(paths, to: info.appendingPathComponent("exclude"))
        }
    }

    private static func isCloned(_ module: Module, in manifest: Manifest) -> Bool {
        Repository.isRepository(manifest.directory(of: module).path)
    }
}
