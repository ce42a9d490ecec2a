import Foundation
import GitKit

/// A step of the release checklist: a built-in one or a custom `run:` command from the manifest.
public enum ReleaseStepKind: Sendable, Equatable {
    case preflight, bump, changelog, pin, `guard`, test, commit, tag, push, publish
    case run(String)

    public static let defaultOrder: [ReleaseStepKind] = [.preflight, .bump, .changelog, .pin, .guard, .test, .commit, .tag, .push, .publish]

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
        case "publish": self = .publish
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
        case .publish: return "publish"
        case .run(let command): return "run: \(command)"
        }
    }

    /// One line saying what the step does, for `--markdown` and help.
    public var purpose: String {
        switch self {
        case .preflight: return "every repository clean, on its branch, not behind its remote; no tag to create exists locally or on a remote"
        case .bump: return "each released module's own next version in its spec files"
        case .changelog: return "a section in each CHANGELOG.md from the module's commits since its previous version"
        case .pin: return "dependency requirements pinned to exact versions"
        case .guard: return "version guards regenerated"
        case .test: return "each module's test command, in dependency order"
        case .commit: return "one commit per touched repository, of the files the release changed only"
        case .tag: return "each released module's version tag, and the snapshot tag in every repository"
        case .push: return "branches, then tags"
        case .publish: return "each released module's publish command, in dependency order"
        case .run(let command): return "`\(command)`"
        }
    }
}

/// One tag a release creates, and the repository it goes in.
public struct ReleaseTag: Sendable, Codable, Equatable {
    public var name: String
    /// The repository relative to the workspace root ("." for the manifest repository).
    public var repository: String
    /// The module it belongs to; nil for the snapshot tag of the manifest repository.
    public var module: String?
    public var kind: Kind

    public enum Kind: String, Sendable, Codable { case version, snapshot }

    /// The repository as output names it.
    public var place: String { repository == "." ? "the manifest repository" : repository }
}

/// One released module: where its version goes from and why.
public struct ReleasedModule: Sendable, Codable, Equatable {
    public var name: String
    public var current: String
    public var next: String
    /// Why it is released: its commits, a released dependency, or an override.
    public var why: String
    /// Its version tag (`version-tag-format`, or `dir-tag-format` for a directory module).
    public var tag: String
    /// The tag of its previous version, when there is one (where its changelog starts).
    public var previousTag: String?
    /// An interface module's API changes since its previous version (`modkit api`), which its changelog lists.
    public var apiChanges: [String]? = nil
    /// Set when `--allow-understated-bump` let a version below what the API change requires through; the changelog says so.
    public var understatedBump: String? = nil
}

/// What one release does: the snapshot name, each released module at its own next version (dependencies first),
/// every tag it creates, and the steps. Once made it is saved with the release's state and never recomputed.
public struct ReleasePlan: Sendable {
    public var name: String
    public var released: [ReleasedModule]
    public var tags: [ReleaseTag]
    public var steps: [ReleaseStepKind]
    /// The branch the release is cut on (`release: branch:`), nil to commit on each repository's current branch.
    public var branch: String?
    /// Released modules of the manifest, in the plan's order.
    public var modules: [Module]

    public func entry(_ module: String) -> ReleasedModule? { released.first { $0.name == module } }

    /// What the user asked for: version overrides, a default increment, a pre-release id, modules to consider.
    public struct Request: Sendable, Codable, Equatable {
        public var overrides: [String: String] = [:]
        public var bump: VersionIncrement?
        public var pre: String?
        public var modules: [String] = []
        public var groups: [String] = []
        /// `--allow-understated-bump`: an override below what an interface's API change requires is taken, and recorded.
        public var allowUnderstatedBump: Bool? = nil

        public init(overrides: [String: String] = [:], bump: VersionIncrement? = nil, pre: String? = nil, modules: [String] = [], groups: [String] = []) {
            self.overrides = overrides
            self.bump = bump
            self.pre = pre
            self.modules = modules
            self.groups = groups
        }

        public var isEmpty: Bool { self == Request() }

        /// `NAME=VERSION` / `NAME=patch|minor|major` arguments become overrides, plain names restrict the release to those modules.
        public static func parse(_ arguments: [String], bump: String?, pre: String?, groups: [String]) throws -> Request {
            var request = Request(groups: groups)
            if let bump {
                guard let increment = VersionIncrement(rawValue: bump) else {
                    throw ModKitError.input("--bump takes patch, minor or major, not '\(bump)'")
                }
                request.bump = increment
            }
            if let pre {
                guard SemanticVersion("0.0.0-\(pre)") != nil, !pre.contains(".") else {
                    throw ModKitError.input("--pre takes a pre-release name such as beta or rc, not '\(pre)'")
                }
                request.pre = pre
            }
            for argument in arguments {
                guard let equals = argument.firstIndex(of: "=") else {
                    request.modules.append(argument)
                    continue
                }
                let name = String(argument[..<equals]), value = String(argument[argument.index(after: equals)...])
                guard VersionIncrement(rawValue: value) != nil || SemanticVersion(value, twoParts: true) != nil else {
                    throw ModKitError.input("'\(argument)': \(value) is neither a semantic version nor patch, minor or major",
                                            hint: "e.g. \(name)=1.0.2 or \(name)=minor")
                }
                request.overrides[name] = value
            }
            return request
        }
    }

    /// The steps of the manifest's `release:` checklist, or the default.
    static func steps(of manifest: Manifest) -> [ReleaseStepKind] {
        manifest.releaseSteps.map { configured in
            configured.compactMap { step -> ReleaseStepKind? in
                switch step.kind {
                case .builtin(let name): return ReleaseStepKind(builtin: name)
                case .run(let command): return .run(command)
                }
            }
        } ?? ReleaseStepKind.defaultOrder
    }

    /// The plan saved with a release's state, against the manifest as it is now.
    public static func restore(_ state: ReleaseState, workspace: Workspace) throws -> ReleasePlan {
        let manifest = workspace.manifest
        let modules = try state.released.map { entry in
            guard let module = manifest.module(named: entry.name) else {
                throw ModKitError.input("the saved release \(state.name) releases \(entry.name), which modkit.yml no longer lists",
                                        hint: "put it back, or discard the release with 'modkit release \(state.name) --abandon'")
            }
            return module
        }
        let steps = Self.steps(of: manifest)
        guard steps.map(\.name) == state.steps else {
            throw ModKitError.input("the release checklist in modkit.yml changed since release \(state.name) started (it was: \(state.steps.joined(separator: ", ")))",
                                    hint: "restore 'release: steps:', or discard the release with 'modkit release \(state.name) --abandon'")
        }
        return ReleasePlan(name: state.name, released: state.released, tags: state.tags, steps: steps, branch: state.branch, modules: modules)
    }

    /// Computes each module's next version from its Conventional Commits since its own last version tag, applies the
    /// request, adds a patch release for every module whose dependency is released, and lists every tag to create.
    /// Throws `ReleasePlanError` with every problem found when the request cannot be planned.
    public static func make(name: String, request: Request, workspace: Workspace) throws -> ReleasePlan {
        let manifest = workspace.manifest
        guard Repository.isValidTagName(name), !name.contains("{"), !name.hasPrefix("-") else {
            throw ModKitError.input("'\(name)' is not a valid release name: it becomes the snapshot tag", hint: "use a name like 2024.6 or 3.1.0")
        }
        let considered = Set(try workspace.modules(named: request.modules, groups: request.groups).map(\.name))
        _ = try workspace.modules(named: Array(request.overrides.keys).sorted())
        let specs = WorkspaceSpecs.load(workspace)
        let order: [String]
        switch DependencyGraph.order(specs) {
        case .success(let sorted): order = sorted
        case .failure(let cycle): throw ModKitError(cycle.description, hint: cycle.steps.joined(separator: "; "))
        }
        var planner = ReleasePlanner(workspace: workspace, request: request, specs: specs, considered: considered)
        for name in order { try planner.consider(name) }
        var problems = planner.problems
        if !problems.isEmpty {
            problems[problems.count - 1].hint = "override a module's version with NAME=VERSION"
            throw ReleasePlanError(diagnostics: problems)
        }
        let branch = manifest.releaseBranch?.replacingOccurrences(of: "{snapshot}", with: name)
        var plan = ReleasePlan(name: name, released: planner.released, tags: [], steps: steps(of: manifest), branch: branch, modules: planner.modules)
        plan.tags = plan.plannedTags(manifest)
        for tag in plan.directoryVersionTags(workspace) { plan.tags.insert(tag, at: plan.released.count) }
        return plan
    }

    /// The snapshot also tags each unreleased directory module at its version when that tag does not exist yet.
    func directoryVersionTags(_ workspace: Workspace) -> [ReleaseTag] {
        let manifest = workspace.manifest
        let manifestRepository = try? ManifestRepository.open(workspace, for: "modkit release")
        return manifest.modules.filter { $0.kind == .directory && entry($0.name) == nil }.compactMap { module in
            guard let version = VersionReader.read(module: module, in: manifest).version?.description else { return nil }
            let tag = ReleaseHistory.versionTag(of: module, version: version, in: manifest)
            guard (try? manifestRepository?.repository.tagTarget(tag)) ?? nil == nil else { return nil }
            return ReleaseTag(name: tag, repository: ".", module: module.name, kind: .version)
        }
    }

    /// Every tag the run creates: version tags where a module is released, the snapshot tag in every repository.
    func plannedTags(_ manifest: Manifest) -> [ReleaseTag] {
        var tags: [ReleaseTag] = []
        for entry in released {
            guard let module = manifest.module(named: entry.name) else { continue }
            tags.append(ReleaseTag(name: entry.tag, repository: module.kind == .repository ? module.path : ".", module: module.name, kind: .version))
        }
        tags.append(ReleaseTag(name: name, repository: ".", module: nil, kind: .snapshot))
        for module in manifest.modules where module.kind == .repository {
            let tag = Snapshot.tagName(format: manifest.defaults.tagFormat, workspace: manifest.workspace, snapshot: name, module: module.name,
                                       version: entry(module.name)?.next ?? VersionReader.read(module: module, in: manifest).raw)
            tags.append(ReleaseTag(name: tag, repository: module.path, module: module.name, kind: .snapshot))
        }
        return tags
    }

    /// The plan as a table: module, current → next, why; then every tag.
    public func table() -> String {
        guard !released.isEmpty else { return "Release \(name): no module has changes since its last version; nothing to release\n" }
        let rows = [["module", "current", "next", "why"]] + released.map { [$0.name, $0.current, $0.next, $0.why] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = ["Release \(name)" + (branch.map { " on branch \($0)" } ?? "") + ":"]
        for row in rows {
            lines.append("  " + (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[3])
        }
        for entry in released {
            guard let changes = entry.apiChanges, !changes.isEmpty else { continue }
            lines.append("API changes of \(entry.name) since \(entry.current):")
            lines += changes.map { "  " + $0 }
            if let understated = entry.understatedBump { lines.append("  " + understated) }
        }
        lines.append("Tags to create:")
        lines += tags.map { "  \($0.name) in \($0.place)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
