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

/// The result for one module: its plan and the files written, or why it could not be guarded.
public struct GuardOutcome: Sendable {
    public var module: String
    public var plan: GuardPlan?
    public var written: [GuardFile] = []
    /// Why the module was not guarded, e.g. a version that is not known; nil on success.
    public var problem: String?

    /// True when `--check` must fail for this module.
    public var needsAttention: Bool { problem != nil || !(plan?.isUpToDate ?? true) }
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
    public static func run(_ workspace: [GuardModule], selected: Set<String>? = nil, generatedDir: String, mode: GuardMode) -> [GuardOutcome] {
        workspace.filter { selected?.contains($0.module) ?? true }.map { module in
            var outcome = GuardOutcome(module: module.name)
            do {
                let spec = try spec(for: module, in: workspace).get()
                let plan = try GuardWriter.plan(spec, moduleDirectory: module.directory, generatedDir: generatedDir, languages: module.languages)
                outcome.plan = plan
                if mode == .write { outcome.written = try GuardWriter.apply(plan) }
            } catch {
                outcome.problem = "\(error)"
            }
            return outcome
        }
    }
}

/// Why a module's guard spec could not be built.
public struct GuardSpecProblem: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
