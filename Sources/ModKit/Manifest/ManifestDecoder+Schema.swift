import Foundation
import YAMLKit

/// The schema of modkit.yml, section by section.
extension ManifestDecoder {
    /// The manifest, or nil when anything was reported.
    mutating func decode(_ root: YAMLNode?, file: URL) -> Manifest? {
        guard let root else {
            error("\(displayPath) is empty", at: Mark(line: 1, column: 1, offset: 0),
                  hint: "start it with 'version: \(Manifest.supportedSchemaVersion)' and a 'modules:' list")
            return nil
        }
        guard let top = root.mapping else {
            error("expected a mapping of settings at the top level, found \(root.kindDescription)", at: root.start,
                  hint: "start it with 'version: \(Manifest.supportedSchemaVersion)' and a 'modules:' list")
            return nil
        }
        // A newer schema may have keys this version does not know: report only the version then.
        if let node = top["version"], let number = node.int, number > Manifest.supportedSchemaVersion {
            error("this manifest needs schema version \(number); this modkit understands version \(Manifest.supportedSchemaVersion) — upgrade modkit", at: node.start)
            return nil
        }
        schema.refuseUnsupportedTags(in: root)
        guard let fields = schema.fields(root, allowed: Self.topLevelKeys, in: "modkit.yml") else { return nil }

        let schemaVersion = decodeSchemaVersion(fields)

        var workspace = file.standardizedFileURL.deletingLastPathComponent().lastPathComponent
        if let node = fields["workspace"], let value = schema.string(node, for: "workspace") { workspace = value }

        var defaults = ManifestDefaults()
        if let node = fields["defaults"] { defaults = decodeDefaults(node) }

        var templates: String?
        if let node = fields["templates"] { templates = schema.string(node, for: "templates") }

        var modules: [Module] = []
        if let node = fields["modules"] {
            modules = decodeModules(node)
        } else {
            error("missing required key 'modules'", at: top.start, hint: "add a 'modules:' list (it may be empty: 'modules: []')")
        }

        var release = DecodedRelease()
        if let node = fields["release"] { release = decodeRelease(node) }

        var imports: [ManifestImport] = []
        if let node = fields["imports"] { imports = decodeImports(node, modules: modules) }

        guard !schema.hasErrors else { return nil }
        var manifest = Manifest(schemaVersion: schemaVersion, workspace: workspace, defaults: defaults, templates: templates,
                                modules: modules, releaseSteps: release.steps, releaseBranch: release.branch,
                                releasePublish: release.publish, file: file, displayPath: displayPath)
        manifest.imports = imports
        return manifest
    }

    /// `version:`, the schema version; the supported one (after reporting why) when it is missing or not a number.
    private mutating func decodeSchemaVersion(_ fields: YAMLFields) -> Int {
        guard let node = fields["version"] else {
            error("missing required key 'version'", at: fields.start, hint: "add 'version: \(Manifest.supportedSchemaVersion)' at the top of the file")
            return Manifest.supportedSchemaVersion
        }
        guard let number = node.int else {
            error("expected an integer schema version, found \(node.string.map { "'\($0)'" } ?? node.kindDescription)", at: node.start,
                  hint: "write 'version: \(Manifest.supportedSchemaVersion)'")
            return Manifest.supportedSchemaVersion
        }
        if number < 1 {
            error("schema version \(number) does not exist; write 'version: \(Manifest.supportedSchemaVersion)'", at: node.start)
        }
        return number
    }

    /// `imports:` — each names a repository module and, optionally, the file, an allowlist and a path prefix.
    mutating func decodeImports(_ node: YAMLNode, modules: [Module]) -> [ManifestImport] {
        if node.isNull { return [] }
        guard let sequence = node.sequence else {
            error("expected a sequence for 'imports', found \(node.kindDescription)", at: node.start, hint: "write each as '- module: NAME'")
            return []
        }
        var imports: [ManifestImport] = []
        for item in sequence.items {
            guard let mapping = item.mapping, let fields = schema.fields(item, allowed: Self.importKeys, in: "an import") else {
                error("expected an import (a mapping with 'module'), found \(item.kindDescription)", at: item.start)
                continue
            }
            var name: String?
            if let moduleNode = fields["module"] {
                guard let value = schema.string(moduleNode, for: "module") else { continue }
                guard let module = modules.first(where: { $0.name == value }), module.kind == .repository else {
                    error("import of '\(value)': no repository module has that name\(DidYouMean.suffix(for: value, among: modules.map(\.name)))", at: moduleNode.start)
                    continue
                }
                name = value
            } else if fields["file"] == nil {
                error("an import needs 'module' (whose west.yml to follow) or 'file' (a manifest of this workspace)", at: mapping.start)
                continue
            }
            let called = name.map { "module '\($0)'" } ?? "the workspace"
            var entry = ManifestImport(module: name)
            if let v = fields["file"], let file = schema.string(v, for: "file") {
                if case .success(let path) = RelativePath.normalize(file), !path.isEmpty {
                    entry.file = path
                } else {
                    error("import file '\(file)' must be a path inside \(called)", at: v.start)
                }
            }
            if let v = fields["name-allowlist"] { entry.nameAllowlist = schema.strings(v, for: "name-allowlist", nullAllowed: true).map(\.value) }
            if let v = fields["name-blocklist"] { entry.nameBlocklist = schema.strings(v, for: "name-blocklist", nullAllowed: true).map(\.value) }
            if let v = fields["path-allowlist"] { entry.pathAllowlist = schema.strings(v, for: "path-allowlist", nullAllowed: true).map(\.value) }
            if let v = fields["path-blocklist"] { entry.pathBlocklist = schema.strings(v, for: "path-blocklist", nullAllowed: true).map(\.value) }
            if let v = fields["path-prefix"], let prefix = schema.string(v, for: "path-prefix") {
                if case .success(let path) = RelativePath.normalize(prefix) {
                    entry.pathPrefix = path.isEmpty ? nil : path
                } else {
                    error("'path-prefix' '\(prefix)' must be a path inside the workspace", at: v.start)
                }
            }
            imports.append(entry)
        }
        return imports
    }

    mutating func decodeDefaults(_ node: YAMLNode) -> ManifestDefaults {
        var defaults = ManifestDefaults()
        guard node.mapping != nil, let fields = schema.fields(node, allowed: Self.defaultsKeys, in: "'defaults'") else {
            error("expected a mapping for 'defaults', found \(node.kindDescription)", at: node.start)
            return defaults
        }
        if let v = fields["remote"], let s = schema.string(v, for: "remote") { defaults.remote = s }
        if let v = fields["revision"], let s = schema.string(v, for: "revision") { defaults.revision = s }
        if let v = fields["url-base"], let s = schema.string(v, for: "url-base") {
            switch ModuleURL.classify(s) {
            case .remote, .scpLike, .absolutePath:
                defaults.urlBase = s
            case .invalid(let why):
                error("'\(s)' is not a url: \(why)", at: v.start, hint: "write 'url-base' as scheme://host/path, user@host:path or an absolute path")
            case .relativePath, .relativeName:
                error("'url-base' must be an absolute url, not '\(s)'", at: v.start, hint: "write it as scheme://host/path, user@host:path or an absolute path")
            }
        }
        if let v = fields["tag-format"], let s = tagFormat(v, for: "tag-format") { defaults.tagFormat = s }
        if let v = fields["dir-tag-format"], let s = tagFormat(v, for: "dir-tag-format") { defaults.dirTagFormat = s }
        if let v = fields["version-tag-format"], let s = tagFormat(v, for: "version-tag-format") { defaults.versionTagFormat = s }
        if let v = fields["generated-dir"], let s = schema.string(v, for: "generated-dir") {
            switch RelativePath.normalize(s) {
            case .success(let path) where !path.isEmpty: defaults.generatedDir = path
            case .success: error("'generated-dir' must name a directory inside each module, not '\(s)'", at: v.start)
            case .failure: error("'generated-dir' must be a path relative to each module, not '\(s)'", at: v.start)
            }
        }
        if let v = fields["groups"] {
            defaults.groups = schema.strings(v, for: "groups").compactMap { value, mark in
                let name = value.hasPrefix("-") ? String(value.dropFirst()) : value
                guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == "," }) else {
                    error("'\(value)' in 'defaults: groups' is not a group name or '-name'", at: mark, hint: "write e.g. 'groups: [-notdefault, -optional]'")
                    return nil
                }
                return value
            }
        }
        return defaults
    }

    /// What `release:` says: the steps (nil: the default checklist), the release branch, the default publish command.
    struct DecodedRelease {
        var steps: [ReleaseStep]?
        var branch: String?
        var publish: String?
    }

    mutating func decodeRelease(_ node: YAMLNode) -> DecodedRelease {
        var release = DecodedRelease()
        guard node.mapping != nil, let releaseFields = schema.fields(node, allowed: Self.releaseKeys, in: "'release'") else {
            error("expected a mapping with 'steps', 'branch' or 'publish' for 'release', found \(node.kindDescription)", at: node.start)
            return release
        }
        if let value = releaseFields["branch"], let branch = schema.string(value, for: "branch") {
            if branch.contains("{"), !branch.replacingOccurrences(of: "{snapshot}", with: "").allSatisfy({ $0 != "{" && $0 != "}" }) {
                error("'branch' may use only the placeholder {snapshot}", at: value.start, hint: "e.g. 'branch: release/{snapshot}'")
            } else {
                release.branch = branch
            }
        }
        if let value = releaseFields["publish"] { release.publish = schema.string(value, for: "publish") }
        guard let stepsNode = releaseFields["steps"] else { return release }
        guard let sequence = stepsNode.sequence else {
            error("expected a sequence of steps for 'steps', found \(stepsNode.kindDescription)", at: stepsNode.start)
            return release
        }
        var steps: [ReleaseStep] = []
        for item in sequence.items {
            if let step = item.mapping, let stepFields = schema.fields(item, allowed: ["run"], in: "a release step") {
                guard let run = stepFields["run"] else {
                    // Unknown keys were reported already; only an empty step still needs saying.
                    if step.entries.isEmpty {
                        error("a custom release step needs 'run: COMMAND'", at: step.start)
                    }
                    continue
                }
                if let command = schema.string(run, for: "run") {
                    steps.append(ReleaseStep(kind: .run(command), location: location(item.start)))
                }
            } else if let name = schema.string(item, for: "steps") {
                if ReleaseStep.builtinNames.contains(name) {
                    steps.append(ReleaseStep(kind: .builtin(name), location: location(item.start)))
                } else {
                    error("unknown release step '\(name)'\(DidYouMean.suffix(for: name, among: ReleaseStep.builtinNames))", at: item.start,
                          hint: "built-in steps: \(ReleaseStep.builtinNames.joined(separator: ", ")); or '{run: COMMAND}'")
                }
            }
        }
        release.steps = steps
        return release
    }
}
