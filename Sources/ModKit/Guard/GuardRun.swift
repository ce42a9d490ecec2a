import Foundation

/// One guarded unit as guard sees it: a workspace module, or one pod of a module with several podspecs.
public struct GuardModule: Sendable, Hashable {
    /// The module's name, or the pod's: guard symbols and file names derive from it.
    public var name: String
    /// The workspace module it belongs to (its own name unless it is a pod); selecting that module selects it.
    public var module: String
    public var directory: URL
    /// The module's current version; nil when none is known (the module is then reported, not guarded).
    public var version: SemanticVersion?
    public var languages: Set<GuardLanguage>
    /// Names of the units it depends on (modules, or pods of a module with several podspecs); other names are ignored.
    public var dependencies: [String]
    /// The guard mode of each dependency that is not compared exactly (`guard-mode:`, or `interface` for the module it implements).
    public var modes: [String: VersionGuardMode] = [:]

    public init(name: String, module: String? = nil, directory: URL, version: SemanticVersion?,
                languages: Set<GuardLanguage> = Set(GuardLanguage.allCases), dependencies: [String] = []) {
        self.name = name
        self.module = module ?? name
        self.directory = directory
        self.version = version
        self.languages = languages
        self.dependencies = dependencies
    }
}

/// What `modkit guard` is asked to do.
public enum GuardMode: Sendable {
    /// Write stale and missing files.
    case write
    /// Write nothing; report stale and missing files (`--check`, `--dry-run`).
    case check
}

/// What `modkit guard` did (or, with `--check` and `--dry-run`, would do) for one module beside its outcome: `updated`
/// when a file was or would be written, `upToDate`, or `failed` (the module could not be guarded).
public struct GuardFacts: Sendable, Encodable, Equatable {
    /// One guard file: its path relative to the workspace, and whether it was (or would be) created or updated.
    public struct File: Sendable, Encodable, Equatable {
        public var path: String
        public var outcome: ModuleOutcome
    }

    public var files: [File] = []
    /// The module's guard files and how those on disk compare; nil when it could not be guarded. Not in JSON.
    public var plan: GuardPlan?
    /// The files this run wrote. Not in JSON.
    public var written: [GuardFile] = []

    private enum CodingKeys: String, CodingKey { case files }
}

/// Runs guard over a workspace: builds each module's ``GuardSpec`` from the workspace versions, then plans and (maybe) writes.
public enum GuardRun {
    /// The spec of `module`: each dependency required at its current workspace version; nil with a reason when a version is missing.
    public static func spec(for module: GuardModule, in workspace: [GuardModule]) -> Result<GuardSpec, GuardSpecProblem> {
        guard let version = module.version else { return .failure(GuardSpecProblem("no version known for \(module.name)")) }
        let byName = Dictionary(workspace.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var dependencies: [GuardDependency] = []
        for name in module.dependencies where name != module.name {
            guard let dependency = byName[name] else { continue }
            guard let dependencyVersion = dependency.version else {
                return .failure(GuardSpecProblem("\(module.name) depends on \(name), whose version is not known"))
            }
            dependencies.append(GuardDependency(name: name, version: dependencyVersion, languages: dependency.languages, mode: module.modes[name] ?? .exact))
        }
        return .success(GuardSpec(name: module.name, version: version, dependencies: dependencies))
    }

    /// Plans every unit of the modules in `selected` (all when nil) and, in `.write` mode, writes what changed; one module's failure does not stop the others.
    /// Paths in the results are relative to `root` (absolute without it). After the last write of a Swift guard it waits
    /// into the next second once (`settle`, `GuardWriter.settle()`), not once per unit: 9 pods took 8 s when each waited.
    public static func run(_ workspace: [GuardModule], selected: Set<String>? = nil, generatedDir: String, mode: GuardMode,
                           root: URL? = nil, settle: () -> Void = GuardWriter.settle) -> [ModuleResult<GuardFacts>] {
        let results = planAndWrite(workspace, selected: selected, generatedDir: generatedDir, mode: mode, root: root)
        if results.contains(where: { $0.written.contains { $0.language == .swift } }) { settle() }
        return results
    }

    private static func planAndWrite(_ workspace: [GuardModule], selected: Set<String>?, generatedDir: String, mode: GuardMode,
                             root: URL?) -> [ModuleResult<GuardFacts>] {
        let relative = { (url: URL) in root.map { RelativePath.of(url, under: $0) } ?? url.path }
        return workspace.filter { selected?.contains($0.module) ?? true }.map { module in
            var result = ModuleResult(name: module.name, path: relative(module.directory), outcome: .upToDate, detail: "up to date", facts: GuardFacts())
            do {
                let spec = try spec(for: module, in: workspace).get()
                let plan = try GuardWriter.plan(spec, moduleDirectory: module.directory, generatedDir: generatedDir, languages: module.languages)
                result.plan = plan
                result.files = plan.files.map { GuardFacts.File(path: relative($0.url), outcome: $0.outcome) }
                if mode == .write { result.written = try GuardWriter.apply(plan, settle: false) }
                let changed = plan.changes.count
                if changed > 0 {
                    result.outcome = .updated
                    result.detail = "\(changed) guard file\(changed == 1 ? "" : "s")"
                }
            } catch {
                result.outcome = .failed
                result.detail = "\(error)"
                result.diagnostics = [.error(result.detail, module: module.name)]
            }
            return result
        }
    }
}

/// Why a module's guard spec could not be built.
public struct GuardSpecProblem: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
