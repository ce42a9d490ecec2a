import SpecKit
import YAMLKit

/// `modules:` — each module on its own, then the checks across modules (unique names and paths; only repository modules hold other modules).
extension ManifestDecoder {
    /// A module with the marks needed for the checks across modules.
    private struct Decoded {
        var module: Module
        var nameMark: Mark
        var pathMark: Mark?
    }

    mutating func decodeModules(_ node: YAMLNode) -> [Module] {
        if node.isNull { return [] }
        guard let sequence = node.sequence else {
            error("expected a sequence of modules for 'modules', found \(node.kindDescription)", at: node.start,
                  hint: "write each module as '- name: NAME' with 'path: DIR' below it")
            return []
        }
        var decoded: [Decoded] = []
        for item in sequence.items {
            if let module = decodeModule(item) { decoded.append(module) }
        }
        checkUniqueNames(decoded)
        checkPaths(decoded)
        return decoded.map(\.module)
    }

    private mutating func decodeModule(_ item: YAMLNode) -> Decoded? {
        guard let mapping = item.mapping else {
            error("expected a module (a mapping with 'name' and 'path'), found \(item.kindDescription)", at: item.start)
            return nil
        }
        let fields = fields(of: mapping, allowed: Self.moduleKeys, in: "in a module")
        var name: String?
        var nameMark = mapping.start
        if let node = fields["name"]?.value, let value = string(node, for: "name") {
            nameMark = node.start
            if Identifier.isValidModuleName(value) {
                name = value
            } else {
                error("module name '\(value)' is not a package name", at: node.start,
                      hint: "use letters, digits, '_', '-' and '.', e.g. '\(Self.identifier(from: value))'")
            }
        } else if fields["name"] == nil {
            error("module is missing required key 'name'", at: mapping.start, hint: "add 'name: NAME' (an identifier)")
        }
        let called = name.map { "module '\($0)'" } ?? "module"

        var path: String?
        var pathMark: Mark?
        if let node = fields["path"]?.value, let value = string(node, for: "path") {
            pathMark = node.start
            path = checkedPath(value, at: node.start)
        } else if fields["path"] == nil {
            error("\(called) is missing required key 'path'", at: mapping.start,
                  hint: "add 'path: DIR', the module's directory relative to the workspace root")
        }

        var url: String?
        if let node = fields["url"]?.value, let value = string(node, for: "url") {
            if case .invalid(let why) = ModuleURL.classify(value) {
                error("'\(value)' is not a url: \(why)", at: node.start,
                      hint: "use scheme://host/path, user@host:path, a local path, or a name relative to 'url-base'")
            } else {
                url = value
            }
        }
        var revision: String?
        if let node = fields["revision"]?.value { revision = string(node, for: "revision") }
        var groups: [String] = []
        if let node = fields["groups"]?.value, let values = strings(node, for: "groups") {
            for (group, mark) in values {
                if group.contains(where: { $0.isWhitespace || $0 == "," }) {
                    error("group name '\(group)' contains white space or ','", at: mark, hint: "list several groups as '[a, b]'")
                } else if !groups.contains(group) {
                    groups.append(group)
                }
            }
        }
        var version: String?
        var versionLocation: SourceLocation?
        if let node = fields["version"]?.value, let value = string(node, for: "version") {
            if SemanticVersion(value) != nil {
                version = value
                versionLocation = location(node.start)
            } else {
                error("version '\(value)' is not a semantic version", at: node.start,
                      hint: "write MAJOR.MINOR.PATCH, e.g. '1.0.0', optionally with '-beta.1' or '+build'")
            }
        }
        var test: String?
        if let node = fields["test"]?.value { test = string(node, for: "test") }
        var publish: String?
        if let node = fields["publish"]?.value { publish = string(node, for: "publish") }
        var guardLanguages: [String]?
        if let node = fields["guard"]?.value, let values = strings(node, for: "guard") {
            var languages: [String] = []
            for (language, mark) in values {
                if Self.guardLanguages.contains(language) {
                    if !languages.contains(language) { languages.append(language) }
                } else {
                    error("unknown guard language '\(language)'\(DidYouMean.suffix(for: language, among: Self.guardLanguages))", at: mark,
                          hint: "guard languages: \(Self.guardLanguages.joined(separator: ", "))")
                }
            }
            guardLanguages = languages
        }

        var project: String?
        if let node = fields["project"]?.value { project = string(node, for: "project") }
        var depth: Int?
        if let node = fields["depth"]?.value {
            if let value = node.int, value > 0 {
                depth = value
            } else {
                error("expected a positive number of commits for 'depth', found \(node.string.map { "'\($0)'" } ?? node.kindDescription)", at: node.start,
                      hint: "write e.g. 'depth: 1', or remove the key to fetch the whole history")
            }
        }

        var specs: [String]?
        if let node = fields["specs"]?.value, let values = strings(node, for: "specs") {
            specs = []
            for (value, mark) in values {
                guard case .success(let relative) = RelativePath.normalize(value), !relative.isEmpty else {
                    error("spec file '\(value)' must be a path inside the module", at: mark, hint: "write it relative to the module's directory, e.g. 'Example/Podfile'")
                    continue
                }
                guard SpecFileKind(fileName: relative) != nil else {
                    error("'\(value)' is not a spec file modkit reads", at: mark,
                          hint: "list *.podspec, *.podspec.json, Podfile, Package.swift, Cartfile or Cartfile.private files")
                    continue
                }
                if !specs!.contains(relative) { specs!.append(relative) }
            }
        }

        guard let name else { return nil }
        var module = Module(name: name, url: url, path: path ?? "", revision: revision, groups: groups, version: version, test: test, publish: publish,
                            guardLanguages: guardLanguages, project: project, depth: depth, location: location(mapping.start), versionLocation: versionLocation)
        module.specs = specs
        return Decoded(module: module, nameMark: nameMark, pathMark: path == nil ? nil : pathMark)
    }

    /// The normalised path, or nil after reporting why it cannot be a module's directory.
    private mutating func checkedPath(_ value: String, at mark: Mark) -> String? {
        switch RelativePath.normalize(value) {
        case .failure(.absolute):
            error("module path '\(value)' is absolute", at: mark, hint: "write it relative to the workspace root (the directory of modkit.yml)")
        case .failure(.escapes):
            error("module path '\(value)' escapes the workspace", at: mark, hint: "modules must lie below the directory of modkit.yml")
        case .failure(.empty), .success(""):
            error("module path '\(value)' is the workspace root", at: mark, hint: "give the module a directory of its own below the workspace root")
        case .success(let path):
            let first = path.prefix { $0 != "/" }
            if first == ".modkit" || first == ".git" {
                error("module path '\(value)' lies inside the private directory '\(first)'", at: mark, hint: "choose another directory")
                return nil
            }
            return path
        }
        return nil
    }

    private mutating func checkUniqueNames(_ decoded: [Decoded]) {
        var seen: [String: Decoded] = [:]
        var identifiers: [String: Decoded] = [:]
        for entry in decoded {
            let identifier = Identifier.derived(from: entry.module.name)
            if let first = seen[entry.module.name] {
                error("duplicate module name '\(entry.module.name)'; module names must be unique", at: entry.nameMark,
                      notes: [diagnostic(.note, "'\(entry.module.name)' is first defined here", at: first.nameMark)])
            } else if let first = identifiers[identifier] {
                error("module names '\(first.module.name)' and '\(entry.module.name)' both become the identifier '\(identifier)' in generated code", at: entry.nameMark,
                      hint: "rename one of them", notes: [diagnostic(.note, "'\(first.module.name)' is defined here", at: first.nameMark)])
            } else {
                seen[entry.module.name] = entry
                identifiers[identifier] = entry
            }
        }
    }

    /// Each colliding module reported once, at the later one, naming the earliest module it collides with: the same
    /// path, or one path inside the other where the outer one is not a repository module (repo and west nest projects
    /// inside other projects' work trees; a directory module is part of the manifest repository and cannot hold one).
    private mutating func checkPaths(_ decoded: [Decoded]) {
        let placed = decoded.filter { $0.pathMark != nil }
        let collisions = PathNesting.earliestCollisions(placed.map(\.module.path)) { outer, inner in
            placed[outer].module.kind == .repository && placed[inner].module.kind == .repository
        }
        for (later, collision) in zip(placed, collisions) {
            guard let collision else { continue }
            let earlier = placed[collision]
            let a = earlier.module, b = later.module
            let note = [diagnostic(.note, "module '\(a.name)' is here", at: earlier.pathMark!)]
            if a.path == b.path {
                error("module '\(b.name)' has the same path as module '\(a.name)' ('\(b.path)')", at: later.pathMark!,
                      hint: "give each module a directory of its own", notes: note)
            } else {
                let (outer, inner) = RelativePath.isInside(b.path, a.path) ? (a, b) : (b, a)
                let relation = inner.name == b.name ? "module path '\(b.path)' lies inside module '\(a.name)' at '\(a.path)'"
                    : "module path '\(b.path)' contains module '\(a.name)' at '\(a.path)'"
                if outer.kind == .directory {
                    error("\(relation); '\(outer.name)' is a directory module, and only repository modules can hold other modules", at: later.pathMark!, notes: note)
                } else {
                    error("\(relation); '\(inner.name)' is a directory module, part of the manifest repository, so it cannot lie in the work tree of repository module '\(outer.name)'",
                          at: later.pathMark!, hint: "give '\(inner.name)' a 'url' of its own, or move it out of '\(outer.path)'", notes: note)
                }
            }
        }
    }

    /// `my-module` → `my_module`, `2fa` → `_2fa`: a suggestion for a name that is not an identifier.
    static func identifier(from name: String) -> String {
        Identifier.derived(from: name)
    }
}
