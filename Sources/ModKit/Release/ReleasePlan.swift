import Foundation

/// A step of the release checklist: a built-in one or a custom `run:` command from the manifest.
public enum ReleaseStepKind: Sendable, Equatable {
    case preflight, bump, changelog, pin, `guard`, test, commit, tag, push
    case run(String)

    public static let defaultOrder: [ReleaseStepKind] = [.preflight, .bump, .changelog, .pin, .guard, .test, .commit, .tag, .push]

    init?(builtin name: String) {
        switch name {
        case "preflight": self = .preflight
        case "bump": self = .bump
        case "changelog": self = .changelog
        case "pin": self = .pin
        case "guard": self = .guard
        case "test": self = .test
        case "commit": self = .commit
        case "tag": self = .tag
        case "push": self = .push
        default: return nil
        }
    }

    /// The step's name in output, the state file and `--from`.
    public var name: String {
        switch self {
        case .preflight: return "preflight"
        case .bump: return "bump"
        case .changelog: return "changelog"
        case .pin: return "pin"
        case .guard: return "guard"
        case .test: return "test"
        case .commit: return "commit"
        case .tag: return "tag"
        case .push: return "push"
        case .run(let command): return "run: \(command)"
        }
    }

    /// One line saying what the step does, for `--markdown` and help.
    public var purpose: String {
        switch self {
        case .preflight: return "every repository clean, on its manifest branch, not behind its remote, reachable for push"
        case .bump: return "new version in each released module's spec files"
        case .changelog: return "a section in each CHANGELOG.md from the commits since the previous snapshot"
        case .pin: return "dependency requirements pinned to exact versions"
        case .guard: return "version guards regenerated"
        case .test: return "each module's test command, in dependency order"
        case .commit: return "one commit per touched repository"
        case .tag: return "snapshot and version tags in every repository"
        case .push: return "branches, then tags"
        case .run(let command): return "`\(command)`"
        }
    }
}

/// What one release will do: the version, the released modules in dependency order, the steps.
public struct ReleasePlan: Sendable {
    public var version: SemanticVersion
    /// Released modules, dependencies first.
    public var modules: [Module]
    public var steps: [ReleaseStepKind]
    /// Modules that are not released but depend on a released one (their requirements need a bump too).
    public var dependents: [(module: String, dependsOn: [String])]

    /// Validates the version, orders the selected modules by dependency, and reads the checklist from the manifest.
    public static func make(version text: String, modules names: [String], groups: [String], workspace: Workspace) throws -> ReleasePlan {
        guard let version = SemanticVersion(text) else {
            throw ModKitError.input("'\(text)' is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.2.0 or 2.0.0-beta.1)")
        }
        let selected = try workspace.modules(named: names, groups: groups)
        let specs = WorkspaceSpecs.load(workspace)
        let order: [String]
        switch DependencyGraph.order(specs) {
        case .success(let sorted): order = sorted
        case .failure(let cycle): throw ModKitError(cycle.description, hint: cycle.steps.joined(separator: "; "))
        }
        let selectedNames = Set(selected.map(\.name))
        let released = order.compactMap { name in selected.first { $0.name == name } }
        let dependents = order.filter { !selectedNames.contains($0) }.compactMap { name -> (String, [String])? in
            let on = specs.dependencies(of: name).filter(selectedNames.contains)
            return on.isEmpty ? nil : (name, on)
        }
        let steps = workspace.manifest.releaseSteps.map { configured in
            configured.compactMap { step -> ReleaseStepKind? in
                switch step.kind {
                case .builtin(let name): return ReleaseStepKind(builtin: name)
                case .run(let command): return .run(command)
                }
            }
        } ?? ReleaseStepKind.defaultOrder
        return ReleasePlan(version: version, modules: released, steps: steps, dependents: dependents)
    }
}
