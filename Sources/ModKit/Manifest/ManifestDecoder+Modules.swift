import SpecKit
import YAMLKit

/// `modules:` — each module on its own, then the checks across modules (unique names and paths; only repository modules hold other modules).
extension ManifestDecoder {
    /// A module with the marks needed for the checks across modules.
    private struct Decoded {
        var module: Module
        var nameMark: Mark
        var pathMark: Mark?
        var implementsMark: Mark?
        var versionMark: Mark?
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
        checkImplements(decoded)
        return decoded.map(\.module)
    }

    /// One module entry, each key read on its own, in the order of `moduleKeys`; nil when it has no usable name.
    private mutating func decodeModule(_ item: YAMLNode) -> Decoded? {
        guard let mapping = item.mapping else {
            error("expected a module (a mapping with 'name' and 'path'), found \(item.kindDescription)", at: item.start)
            return nil
        }
        let written = mapping["name"]?.string.map { "module '\($0)'" } ?? "a module"
        guard let fields = schema.fields(item, allowed: Self.moduleKeys, in: written) else { return nil }
        let (name, nameMark) = decodeName(fields)
        let (path, pathMark) = decodePath(fields, called: name.map { "module '\($0)'" } ?? "module")
        var url: String?
        if let node = fields["url"] { url = decodeURL(node) }
        var revision: String?
        if let node = fields["revision"] { revision = schema.string(node, for: "revision") }
        var groups: [String] = []
        if let node = fields["groups"] { groups = decodeGroups(node) }
        var version: (value: String, mark: Mark)?
        if let node = fields["version"] { version = decodeVersion(node) }
        var test: String?
        if let node = fields["test"] { test = schema.string(node, for: "test") }
        var publish: String?
        if let node = fields["publish"] { publish = schema.string(node, for: "publish") }
        var guardLanguages: [String]?
        if let node = fields["guard"] { guardLanguages = decodeGuardLanguages(node) }
        var project: String?
        if let node = fields["project"] { project = schema.string(node, for: "project") }
        var depth: Int?
        if let node = fields["depth"] { depth = decodeDepth(node) }
        var specs: [String]?
        if let node = fields["specs"] { specs = decodeSpecs(node) }
        var implements: (value: String, mark: Mark)?
        if let node = fields["implements"], let value = schema.string(node, for: "implements") { implements = (value, node.start) }
        var guardMode: VersionGuardMode?
        if let node = fields["guard-mode"] { guardMode = decodeGuardMode(node) }

        guard let name else { return nil }
        var module = Module(name: name, url: url, path: path ?? "", revision: revision, groups: groups, version: version?.value, test: test, publish: publish,
                            guardLanguages: guardLanguages, project: project, depth: depth, location: location(mapping.start),
                            versionLocation: version.map { location($0.mark) })
        module.specs = specs
        module.implements = implements?.value
        module.guardMode = guardMode
        module.pathLocation = pathMark.map(location)
        return Decoded(module: module, nameMark: nameMark, pathMark: path == nil ? nil : pathMark, implementsMark: implements?.mark, versionMark: version?.mark)
    }

    /// `name:` when it is a package name, and where it is written (the module's mapping when it is not written as a string).
    private mutating func decodeName(_ fields: YAMLFields) -> (name: String?, mark: Mark) {
        guard let node = fields["name"] else {
            error("module is missing required key 'name'", at: fields.start, hint: "add 'name: NAME' (an identifier)")
            return (nil, fields.start)
        }
        guard let value = schema.string(node, for: "name") else { return (nil, fields.start) }
        guard Identifier.isValidModuleName(value) else {
            error("module name '\(value)' is not a package name", at: node.start,
                  hint: "use letters, digits, '_', '-' and '.', e.g. '\(Self.identifier(from: value))'")
            return (nil, node.start)
        }
        return (value, node.start)
    }

    /// `path:` normalised, and where it is written (also when the path itself was refused); `called` names the module.
    private mutating func decodePath(_ fields: YAMLFields, called: String) -> (path: String?, mark: Mark?) {
        guard let node = fields["path"] else {
            error("\(called) is missing required key 'path'", at: fields.start,
                  hint: "add 'path: DIR', the module's directory relative to the workspace root")
            return (nil, nil)
        }
        guard let value = schema.string(node, for: "path") else { return (nil, nil) }
        return (checkedPath(value, at: node.start), node.start)
    }

    private mutating func decodeURL(_ node: YAMLNode) -> String? {
        guard let value = schema.string(node, for: "url") else { return nil }
        if case .invalid(let why) = ModuleURL.classify(value) {
            error("'\(value)' is not a url: \(why)", at: node.start,
                  hint: "use scheme://host/path, user@host:path, a local path, or a name relative to 'url-base'")
            return nil
        }
        return value
    }

    /// `groups:` without repeats; a name that would not survive `-g a,b` is reported.
    private mutating func decodeGroups(_ node: YAMLNode) -> [String] {
        var groups: [String] = []
        for (group, mark) in schema.strings(node, for: "groups") {
            if group.contains(where: { $0.isWhitespace || $0 == "," }) {
                error("group name '\(group)' contains white space or ','", at: mark, hint: "list several groups as '[a, b]'")
            } else if !groups.contains(group) {
                groups.append(group)
            }
        }
        return groups
    }

    /// `version:` when it is a semantic version (x.y is allowed here; `checkImplements` allows it only for an interface).
    private mutating func decodeVersion(_ node: YAMLNode) -> (value: String, mark: Mark)? {
        guard let value = schema.string(node, for: "version") else { return nil }
        guard SemanticVersion(value, twoParts: true) != nil else {
            error("version '\(value)' is not a semantic version", at: node.start,
                  hint: "write MAJOR.MINOR.PATCH, e.g. '1.0.0', optionally with '-beta.1' or '+build'")
            return nil
        }
        return (value, node.start)
    }

    /// `guard:` — the known languages, without repeats.
    private mutating func decodeGuardLanguages(_ node: YAMLNode) -> [String] {
        var languages: [String] = []
        for (language, mark) in schema.strings(node, for: "guard") {
            if Self.guardLanguages.contains(language) {
                if !languages.contains(language) { languages.append(language) }
            } else {
                error("unknown guard language '\(language)'\(DidYouMean.suffix(for: language, among: Self.guardLanguages))", at: mark,
                      hint: "guard languages: \(Self.guardLanguages.joined(separator: ", "))")
            }
        }
        return languages
    }

    private mutating func decodeDepth(_ node: YAMLNode) -> Int? {
        if let value = node.int, value > 0 { return value }
        error("expected a positive number of commits for 'depth', found \(node.string.map { "'\($0)'" } ?? node.kindDescription)", at: node.start,
              hint: "write e.g. 'depth: 1', or remove the key to fetch the whole history")
        return nil
    }

    /// `specs:` — spec files modkit reads, as normalised paths inside the module, without repeats.
    private mutating func decodeSpecs(_ node: YAMLNode) -> [String] {
        var specs: [String] = []
        for (value, mark) in schema.strings(node, for: "specs") {
            guard case .success(let relative) = RelativePath.normalize(value), !relative.isEmpty else {
                error("spec file '\(value)' must be a path inside the module", at: mark, hint: "write it relative to the module's directory, e.g. 'Example/Podfile'")
                continue
            }
            guard SpecFileKind(fileName: relative) != nil else {
                error("'\(value)' is not a spec file modkit reads", at: mark,
                      hint: "list *.podspec, *.podspec.json, Podfile, Package.swift, Cartfile or Cartfile.private files")
                continue
            }
            if !specs.contains(relative) { specs.append(relative) }
        }
        return specs
    }

    private mutating func decodeGuardMode(_ node: YAMLNode) -> VersionGuardMode? {
        guard let value = schema.string(node, for: "guard-mode") else { return nil }
        guard let mode = VersionGuardMode(rawValue: value) else {
            error("unknown guard mode '\(value)'\(DidYouMean.suffix(for: value, among: Self.guardModes))", at: node.start,
                  hint: "guard modes: \(Self.guardModes.joined(separator: ", "))")
            return nil
        }
        return mode
    }

    /// The normalised path, or nil after reporting why it cannot be a module's directory.
    private mutating func checkedPath(_ value: String, at mark: Mark) -> String? {
        switch RelativePath.modulePath(value) {
        case .success(let path): return path
        case .failure(let problem):
            error(problem.message, at: mark, hint: problem.hint)
            return nil
        }
    }

    private mutating func checkUniqueNames(_ decoded: [Decoded]) {
        var seen: [String: Decoded] = [:]
        var identifiers: [String: Decoded] = [:]
        for entry in decoded {
            let identifier = Identifier.derived(from: entry.module.name)
            if let first = seen[entry.module.name] {
                error("duplicate module name '\(entry.module.name)'; module names must be unique", at: entry.nameMark,
                      note: YAMLNote(message: "'\(entry.module.name)' is first defined here", mark: first.nameMark))
            } else if let first = identifiers[identifier] {
                error("module names '\(first.module.name)' and '\(entry.module.name)' both become the identifier '\(identifier)' in generated code", at: entry.nameMark,
                      hint: "rename one of them", note: YAMLNote(message: "'\(first.module.name)' is defined here", mark: first.nameMark))
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
            let note = YAMLNote(message: "module '\(a.name)' is here", mark: earlier.pathMark!)
            if a.path == b.path {
                error("module '\(b.name)' has the same path as module '\(a.name)' ('\(b.path)')", at: later.pathMark!,
                      hint: "give each module a directory of its own", note: note)
            } else {
                let (outer, inner) = RelativePath.isInside(b.path, a.path) ? (a, b) : (b, a)
                let relation = inner.name == b.name ? "module path '\(b.path)' lies inside module '\(a.name)' at '\(a.path)'"
                    : "module path '\(b.path)' contains module '\(a.name)' at '\(a.path)'"
                if outer.kind == .directory {
                    error("\(relation); '\(outer.name)' is a directory module, and only repository modules can hold other modules", at: later.pathMark!, note: note)
                } else {
                    error("\(relation); '\(inner.name)' is a directory module, part of the manifest repository, so it cannot lie in the work tree of repository module '\(outer.name)'",
                          at: later.pathMark!, hint: "give '\(inner.name)' a 'url' of its own, or move it out of '\(outer.path)'", note: note)
                }
            }
        }
    }

    /// `implements:` names another module of the workspace, and that module is an interface: it implements none itself.
    private mutating func checkImplements(_ decoded: [Decoded]) {
        let names = decoded.map(\.module.name)
        let interfaces = Set(decoded.compactMap(\.module.implements))
        for entry in decoded {
            if let version = entry.module.version, let mark = entry.versionMark, SemanticVersion(version) == nil, !interfaces.contains(entry.module.name) {
                error("version '\(version)' is not a semantic version; only an interface module (one another module implements) has an x.y version", at: mark,
                      hint: "write MAJOR.MINOR.PATCH, e.g. '\(version).0'")
            }
            guard let interface = entry.module.implements, let mark = entry.implementsMark else { continue }
            guard names.contains(interface) else {
                error("module '\(entry.module.name)' implements '\(interface)', which is not a module of this workspace\(DidYouMean.suffix(for: interface, among: names))", at: mark,
                      hint: "name the interface module's 'name:'")
                continue
            }
            if interface == entry.module.name {
                error("module '\(interface)' cannot implement itself", at: mark, hint: "name the interface module it implements")
            } else if interfaces.contains(entry.module.name) {
                let implementer = decoded.first { $0.module.implements == entry.module.name }!
                error("module '\(entry.module.name)' is an interface (module '\(implementer.module.name)' implements it), and an interface cannot implement another", at: mark,
                      hint: "remove 'implements:' here, or let '\(implementer.module.name)' implement '\(interface)' directly",
                      note: YAMLNote(message: "'\(implementer.module.name)' implements it here", mark: implementer.implementsMark!))
            }
        }
    }

    /// `my-module` → `my_module`, `2fa` → `_2fa`: a suggestion for a name that is not an identifier.
    static func identifier(from name: String) -> String {
        Identifier.derived(from: name)
    }
}
