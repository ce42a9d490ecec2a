import Foundation
import YAMLKit

/// The checks on a new module's name, path and kind, each problem reported with what to do.
extension Scaffolder {
    static func checkNames(_ names: [String], manifest: Manifest, problems: inout [Diagnostic]) {
        var seen = Set<String>()
        for name in names where seen.insert(name).inserted {
            if !Identifier.isValidModuleName(name) {
                problems.append(.error("module name '\(name)' is not a package name",
                                       hint: "use letters, digits, '_', '-' and '.', e.g. '\(ManifestDecoder.identifier(from: name))'"))
            } else if let reserved = ReservedWords.reservation(of: Identifier.derived(from: name)) {
                problems.append(.error("module name '\(name)' is \(reserved); the module would not compile",
                                       hint: "choose another name, e.g. '\(name)Kit'"))
            } else if let existing = manifest.module(named: name) {
                problems.append(.error("the workspace already has a module named '\(name)' (at \(existing.path))", at: existing.location,
                                       hint: "choose another name"))
            }
        }
    }

    /// The new module's path relative to the workspace root: `requested` normalised, else next to the existing
    /// modules of its kind (a directory module must not land in a folder the manifest repository ignores for clones).
    static func modulePath(_ requested: String?, name: String, kind: Module.Kind, manifest: Manifest) throws -> String {
        if let requested {
            switch RelativePath.normalize(requested) {
            case .success(let path) where !path.isEmpty: return path
            case .success, .failure(.empty): throw ModKitError.input("--path '\(requested)' is the workspace root", hint: "give the module a directory of its own")
            case .failure(.absolute): throw ModKitError.input("--path '\(requested)' is not inside the workspace")
            case .failure(.escapes): throw ModKitError.input("--path '\(requested)' escapes the workspace", hint: "modules must lie below the directory of modkit.yml")
            case .failure(.control(let scalar)):
                throw ModKitError.input("--path \"\(StringEscaping.yamlDoubleQuoted(requested))\" holds the control character \(RelativePath.describe(scalar))")
            }
        }
        // The folder most existing modules of the same kind share, e.g. `Libs`.
        let sameKind = manifest.modules.filter { $0.kind == kind }
        var counts: [String: Int] = [:]
        var order: [String] = []
        for module in sameKind.isEmpty ? manifest.modules : sameKind {
            let parent = RelativePath.parent(of: module.path)
            if counts[parent] == nil { order.append(parent) }
            counts[parent, default: 0] += 1
        }
        let parent = order.max { counts[$0]! < counts[$1]! || (counts[$0]! == counts[$1]! && order.firstIndex(of: $0)! > order.firstIndex(of: $1)!) } ?? ""
        return parent.isEmpty ? name : parent + "/" + name
    }

    static func checkPaths(_ paths: [String], names: [String], kind: Module.Kind, manifest: Manifest, problems: inout [Diagnostic]) {
        for (index, path) in paths.enumerated() {
            let first = path.prefix { $0 != "/" }
            if first == ".modkit" || first == ".git" {
                problems.append(.error("module path '\(path)' lies inside the private directory '\(first)'"))
                continue
            }
            if let problem = ContainedPath.problem(path, in: manifest.root) {
                problems.append(.error(problem.message, hint: problem.hint))
                continue
            }
            if FileManager.default.fileExists(atPath: manifest.root.appendingPathComponent(path).path) {
                problems.append(.error("\(path) already exists; modkit new creates a module only in a new directory",
                                       hint: "choose another name or --path, or remove \(path)"))
            }
            for module in manifest.modules {
                if RelativePath.isInside(path, module.path) {
                    problems.append(.error("module path '\(path)' lies inside module '\(module.name)' at '\(module.path)'; "
                        + Self.whyNotInside(module, kind: kind), at: module.location, hint: "choose a --path outside '\(module.path)'"))
                } else if RelativePath.isInside(module.path, path) {
                    problems.append(.error("module path '\(path)' contains module '\(module.name)' at '\(module.path)'; "
                        + "modkit new creates a module only in a new directory", at: module.location))
                }
            }
            for other in paths[..<index] where RelativePath.isInside(path, other) || RelativePath.isInside(other, path) {
                problems.append(.error("modules '\(names[index])' and the one at '\(other)' would nest"))
            }
        }
    }

    /// Why a new module of `kind` cannot be made inside `outer`.
    private static func whyNotInside(_ outer: Module, kind: Module.Kind) -> String {
        switch (outer.kind, kind) {
        case (.directory, _):
            return "'\(outer.name)' is a directory module, and only repository modules can hold other modules"
        case (.repository, .directory):
            return "a directory module is part of the manifest repository, so it cannot lie in the work tree of repository module '\(outer.name)'"
        case (.repository, .repository):
            return "modkit new does not create a repository inside another one's work tree (add it to modkit.yml with its url and run modkit sync)"
        }
    }

    /// `--dir` / `--repo`, else: a repository with `--remote`, a directory in a workspace with directory modules (or none), else a repository.
    static func moduleKind(_ request: ScaffoldRequest, manifest: Manifest) throws -> Module.Kind {
        if let kind = request.kind {
            if kind == .directory, request.remote != nil {
                throw ModKitError.input("--remote needs a repository module; it cannot be used with --dir")
            }
            return kind
        }
        if request.remote != nil { return .repository }
        if manifest.modules.isEmpty || manifest.modules.contains(where: { $0.kind == .directory }) { return .directory }
        return .repository
    }

    /// `remote` as the manifest writes it: relative to `url-base` when it lies below it and reads back as the same url.
    static func manifestURL(for remote: String, manifest: Manifest) -> String {
        guard var base = manifest.defaults.urlBase, !base.isEmpty else { return remote }
        while base.hasSuffix("/") { base.removeLast() }
        let separator = base.hasSuffix(":") ? "" : "/"
        guard remote.hasPrefix(base + separator) else { return remote }
        let relative = String(remote.dropFirst(base.count + separator.count))
        guard ModuleURL.classify(relative) == .relativeName,
              manifest.url(of: Module(name: "_", url: relative, path: "_")) == remote else { return remote }
        return relative
    }
}
