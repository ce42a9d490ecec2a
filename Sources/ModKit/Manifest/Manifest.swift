import Foundation

/// Workspace-wide settings from `defaults:`; every module falls back to them.
public struct ManifestDefaults: Sendable, Hashable {
    public var remote: String
    /// Nil means the remote's default branch.
    public var revision: String?
    public var urlBase: String?
    public var tagFormat: String
    public var dirTagFormat: String
    public var versionTagFormat: String
    public var generatedDir: String
    /// `defaults.groups`: which modules a plain `modkit sync` takes, read in order (`-G` drops group G, `G` takes it back); nil takes all.
    public var groups: [String]?

    public init(remote: String = "origin", revision: String? = nil, urlBase: String? = nil, tagFormat: String = "{workspace}/{snapshot}", dirTagFormat: String = "{module}/{version}", versionTagFormat: String = "{version}", generatedDir: String = "Generated", groups: [String]? = nil) {
        self.remote = remote
        self.revision = revision
        self.urlBase = urlBase
        self.tagFormat = tagFormat
        self.dirTagFormat = dirTagFormat
        self.versionTagFormat = versionTagFormat
        self.generatedDir = generatedDir
        self.groups = groups
    }
}

/// One entry of `modules:`: a repository of its own (with `url`) or a directory of the manifest repository.
public struct Module: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case repository, directory
    }

    public var name: String
    /// The url as written; `Manifest.url(of:)` resolves it.
    public var url: String?
    /// Normalised, relative to the workspace root, no trailing slash.
    public var path: String
    public var revision: String?
    public var groups: [String]
    /// The `version:` written in the manifest, already checked to be semantic.
    public var version: String?
    /// A shell command that tests the module, run in its directory.
    public var test: String?
    /// A shell command that publishes a released version (e.g. `pod trunk push`), run in its directory after the push.
    public var publish: String?
    /// Languages of guard files to write ("c", "swift"); nil means all.
    public var guardLanguages: [String]?
    /// The project name in the manifest it was imported from (`project:`), which `modkit export` writes back.
    public var project: String?
    /// `depth:`: how many commits of history a clone fetches; nil fetches all.
    public var depth: Int?
    /// Where the module's `- name:` item starts.
    public var location: SourceLocation
    /// Where its `version:` value is, when there is one.
    public var versionLocation: SourceLocation?
    /// The spec files `specs:` lists, relative to the module's directory; nil: the spec files at its root.
    public var specs: [String]? = nil
    /// `implements:`: the interface module this module implements; that module is then versioned x.y and this one shares its x.
    public var implements: String? = nil
    /// `guard-mode:` as written; nil takes `effectiveGuardMode`'s default.
    public var guardMode: VersionGuardMode? = nil
    /// Where its `path:` value is in the manifest, for errors about the directory it names.
    public var pathLocation: SourceLocation? = nil

    public var kind: Kind { url == nil ? .directory : .repository }

    /// The guard mode this module uses for `dependency`: its `guard-mode:`, else `interface` for the module it implements, else `exact`.
    public func guardMode(for dependency: String) -> VersionGuardMode {
        if let guardMode { return guardMode }
        return implements == dependency ? .interface : .exact
    }

    public init(name: String, url: String? = nil, path: String, revision: String? = nil, groups: [String] = [], version: String? = nil, test: String? = nil, publish: String? = nil, guardLanguages: [String]? = nil, project: String? = nil, depth: Int? = nil, location: SourceLocation = SourceLocation(file: ManifestLoader.fileName, line: 1, column: 1), versionLocation: SourceLocation? = nil) {
        self.name = name
        self.url = url
        self.path = path
        self.revision = revision
        self.groups = groups
        self.version = version
        self.test = test
        self.publish = publish
        self.guardLanguages = guardLanguages
        self.project = project
        self.depth = depth
        self.location = location
        self.versionLocation = versionLocation
    }
}

/// How the guards of a dependent module compare a dependency's version: equal, at least, or the interface x.y rule.
public enum VersionGuardMode: String, Sendable, Hashable, CaseIterable {
    case exact, minimum, interface
}

/// One step of `release: { steps: [...] }`: a built-in step by name or `{run: CMD}`.
public struct ReleaseStep: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case builtin(String)
        case run(String)
    }

    /// The built-in steps in their default order.
    public static let builtinNames = ["preflight", "bump", "changelog", "pin", "guard", "test", "commit", "tag", "push", "publish"]

    public var kind: Kind
    public var location: SourceLocation?

    public init(kind: Kind, location: SourceLocation? = nil) {
        self.kind = kind
        self.location = location
    }
}

/// Where each module name first appears in `Manifest.modules`, and which names a module `implements:`; built once per
/// array of modules. Copies of a manifest share it until one changes its modules, which gives that copy a new one.
private final class ModuleLookup: @unchecked Sendable {
    private let lock = NSLock()
    private var built: (byName: [String: Int], interfaces: Set<String>)?

    func positions(of modules: [Module]) -> (byName: [String: Int], interfaces: Set<String>) {
        lock.withLock {
            if let built { return built }
            var byName: [String: Int] = [:]
            for (position, module) in modules.enumerated() where byName[module.name] == nil { byName[module.name] = position }
            let made = (byName, Set(modules.compactMap(\.implements)))
            built = made
            return made
        }
    }
}

/// A validated `modkit.yml`: the workspace, its defaults and its modules in manifest order.
public struct Manifest: Sendable {
    public static let supportedSchemaVersion = 1
    /// Placeholders the tag formats may use.
    public static let tagPlaceholders = ["workspace", "snapshot", "module", "version"]

    public var schemaVersion: Int
    public var workspace: String
    public var defaults: ManifestDefaults
    public var templates: String?
    public var modules: [Module] { didSet { lookup = ModuleLookup() } }
    /// `module(named:)` and `isInterface(_:)` by hash, built on first use after `modules` changes: commands ask them once
    /// per module, which by scanning `modules` made a workspace of 8,000 modules take 20 s to list.
    private var lookup = ModuleLookup()
    /// `imports:`, followed when the manifest is loaded.
    public var imports: [ManifestImport] = []
    /// The modules `imports:` added, by name (they are in `modules` too, after the written ones).
    public var importedModules: Set<String> = []
    /// What could not be followed in `imports:`, one line each, for commands to show.
    public var importNotes: [String] = []
    /// Nil when the manifest has no `release:`, meaning the default checklist.
    public var releaseSteps: [ReleaseStep]?
    /// `release: branch:`, e.g. `release/{snapshot}`: the branch a release is cut on in every released repository.
    public var releaseBranch: String?
    /// `release: publish:`: the publish command of modules without their own.
    public var releasePublish: String?
    /// Absolute path of modkit.yml.
    public var file: URL
    /// The directory holding modkit.yml: the workspace root.
    public var root: URL
    /// How diagnostics name the file.
    public var displayPath: String

    public init(schemaVersion: Int = Manifest.supportedSchemaVersion, workspace: String, defaults: ManifestDefaults = ManifestDefaults(), templates: String? = nil, modules: [Module], releaseSteps: [ReleaseStep]? = nil, releaseBranch: String? = nil, releasePublish: String? = nil, file: URL, displayPath: String? = nil) {
        self.schemaVersion = schemaVersion
        self.workspace = workspace
        self.defaults = defaults
        self.templates = templates
        self.modules = modules
        self.releaseSteps = releaseSteps
        self.releaseBranch = releaseBranch
        self.releasePublish = releasePublish
        self.file = file.standardizedFileURL
        self.root = self.file.deletingLastPathComponent()
        self.displayPath = displayPath ?? ManifestLoader.fileName
    }

    public func module(named name: String) -> Module? {
        lookup.positions(of: modules).byName[name].map { modules[$0] }
    }

    /// True for a module that another module `implements:`: it is versioned x.y and its API decides its bumps.
    public func isInterface(_ name: String) -> Bool {
        lookup.positions(of: modules).interfaces.contains(name)
    }

    /// The modules implementing `interface`, in manifest order.
    public func implementations(of interface: String) -> [Module] {
        modules.filter { $0.implements == interface }
    }

    /// The guard mode `module` uses for `dependency`: its `guard-mode:`, else `interface` when it implements that dependency, else `exact`.
    public func guardMode(of module: Module, for dependency: String) -> VersionGuardMode {
        module.guardMode(for: dependency)
    }

    /// The url to clone from: a bare relative url joins `url-base` with "/" (or, without one, is a path from the workspace root); `./` and `../` paths are from the workspace root; everything else is unchanged.
    public func url(of module: Module) -> String? {
        guard let url = module.url else { return nil }
        switch ModuleURL.classify(url) {
        case .remote, .scpLike, .absolutePath, .invalid:
            return url
        case .relativePath:
            return root.appendingPathComponent(url).standardizedFileURL.path
        case .relativeName:
            guard let base = defaults.urlBase, !base.isEmpty else {
                return root.appendingPathComponent(url).standardizedFileURL.path
            }
            var trimmed = Substring(base)
            while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            return trimmed.hasSuffix(":") ? trimmed + url : trimmed + "/" + url
        }
    }

    /// The module's publish command: its own `publish:`, else `release: publish:`.
    public func publishCommand(of module: Module) -> String? {
        module.publish ?? releasePublish
    }

    public func revision(of module: Module) -> String? {
        module.revision ?? defaults.revision
    }

    public func directory(of module: Module) -> URL {
        module.path.isEmpty ? root : root.appendingPathComponent(module.path, isDirectory: true)
    }

    /// The modules a plain `modkit sync` takes: every module, then `defaults.groups` in order — `-G` leaves out the
    /// modules in group G, `G` takes back those of them in G (repo's `notdefault`, west's `group-filter`).
    public func inDefaultGroups(_ modules: [Module]) -> [Module] {
        guard let selection = defaults.groups, !selection.isEmpty else { return modules }
        return modules.filter { module in
            var taken = true
            for entry in selection {
                if entry.hasPrefix("-") {
                    if module.groups.contains(String(entry.dropFirst())) { taken = false }
                } else if module.groups.contains(entry) {
                    taken = true
                }
            }
            return taken
        }
    }
}
