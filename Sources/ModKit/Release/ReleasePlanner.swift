import Foundation
import GitKit

/// Every reason a release cannot be planned as asked (bad overrides, understated API changes), each naming its module:
/// input the user fixes, so the command exits 2.
public struct ReleasePlanError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public var description: String { diagnostics.map { $0.rendered(colored: false) }.joined(separator: "\n") }
}

/// Works out one release module by module, dependencies first: each module's increment from its commits, its released
/// dependencies and its API, then the request's overrides, collecting every problem before `ReleasePlan.make` fails.
struct ReleasePlanner {
    let workspace: Workspace
    let request: ReleasePlan.Request
    let specs: WorkspaceSpecs
    /// The modules the request lets move on their own commits.
    let considered: Set<String>
    private(set) var released: [ReleasedModule] = []
    private(set) var modules: [Module] = []
    private(set) var problems: [Diagnostic] = []

    var manifest: Manifest { workspace.manifest }

    /// The increment a module asks for and why, before overrides.
    private struct Reason {
        var increment: VersionIncrement?
        var why = ""

        mutating func add(_ text: String) { why = (why.isEmpty ? "" : why + "; ") + text }
    }

    /// Plans `name`'s release, if it has one, after every module it depends on.
    mutating func consider(_ name: String) throws {
        guard let module = manifest.module(named: name) else { return }
        let read = VersionReader.read(module: module, in: manifest)
        guard let current = read.version else {
            if considered.contains(name) || request.overrides[name] != nil {
                problems.append(.error("no semantic version (\(read.raw.map { "'\($0)'" } ?? "none found")); set 'version:' in modkit.yml, s.version in its podspec or a VERSION file",
                                       module: name))
            }
            return
        }
        let history = try ReleaseHistory.read(module, version: current.description, workspace: workspace)
        var reason = ownChanges(module, current: current, history: history)
        let releasedDependencies = specs.dependencies(of: name).filter { dependency in released.contains { $0.name == dependency } }
        if reason.increment == nil, !releasedDependencies.isEmpty {
            reason = Reason(increment: .patch, why: "depends on " + releasedDependencies.joined(separator: ", "))
        }
        // An interface's bump is at least what its API change since its last version requires.
        var api: APIReport?
        if manifest.isInterface(name), considered.contains(name), history.previousTag != nil {
            api = try APIReport.make(module, since: current.description, workspace: workspace)
            if let api, let required = api.impact.increment, reason.increment == nil || required > reason.increment! {
                reason.increment = required
                reason.add("API \(api.impact.rawValue): \(api.changes.count) change\(api.changes.count == 1 ? "" : "s")")
            }
        }
        var next = try requestedNext(module, current: current, reason: &reason)
        let understated = api.flatMap { understatement(of: name, api: $0, current: current, next: next, reason: &reason) }
        next = implementationNext(module, current: current, next: next, reason: &reason)
        guard let next else { return }
        if next <= current {
            problems.append(.error("is at \(current); \(next) would not move its version forward", module: name))
        }
        released.append(ReleasedModule(name: name, current: current.description, next: next.description, why: reason.why,
                                       tag: ReleaseHistory.versionTag(of: module, version: next.description, in: manifest),
                                       previousTag: history.previousTag, apiChanges: api.map { $0.changes.map(\.description) }, understatedBump: understated))
        modules.append(module)
    }

    /// The increment a considered module's own Conventional Commits since its last version ask for, and a summary of them.
    private func ownChanges(_ module: Module, current: SemanticVersion, history: ReleaseHistory) -> Reason {
        guard considered.contains(module.name), !history.commits.isEmpty else { return Reason() }
        let commits = history.commits.map { ConventionalCommit(message: $0.message) }
        let kinds = ConventionalCommit.Group.allCases.compactMap { group -> String? in
            let count = commits.filter { $0.group == group }.count
            return count == 0 ? nil : group.count(count)
        }
        let since = history.previousTag.map { " since \($0)" }
            ?? " (no tag \(ReleaseHistory.versionTag(of: module, version: current.description, in: manifest)) yet)"
        return Reason(increment: commits.map(\.increment).max(),
                      why: "\(history.commits.count) commit\(history.commits.count == 1 ? "" : "s")\(since): " + kinds.joined(separator: ", "))
    }

    /// The next version the increment gives, then as `--bump` or an override `NAME=…` asks.
    private mutating func requestedNext(_ module: Module, current: SemanticVersion, reason: inout Reason) throws -> SemanticVersion? {
        let name = module.name
        let isInterface = manifest.isInterface(name)
        var next: SemanticVersion?
        if let increment = reason.increment {
            let kind = request.bump ?? increment
            next = isInterface ? InterfaceVersions.next(after: current, by: kind, pre: request.pre) : kind.next(after: current, pre: request.pre)
        }
        if let override = request.overrides[name] {
            if isInterface {
                next = try InterfaceVersions.override(override, of: name, current: current, pre: request.pre)
            } else if let exact = SemanticVersion(override) {
                next = exact
            } else if let kind = VersionIncrement(rawValue: override) {
                next = kind.next(after: current, pre: request.pre)
            } else {
                problems.append(.error("'\(name)=\(override)': \(name) is versioned x.y.z; only an interface module has x.y versions", module: name))
            }
            reason.why = reason.why.isEmpty ? "override \(name)=\(override)" : reason.why + "; override \(name)=\(override)"
        } else if let bump = request.bump, next != nil {
            reason.why += "; --bump \(bump.rawValue)"
        }
        return next
    }

    /// What the changelog records when `--allow-understated-bump` lets `next` below what the API change requires; without
    /// it, such a version is a problem.
    private mutating func understatement(of name: String, api: APIReport, current: SemanticVersion, next: SemanticVersion?,
                                         reason: inout Reason) -> String? {
        guard let required = api.required.flatMap({ SemanticVersion($0, twoParts: true) }), let chosen = next, chosen < required else { return nil }
        if request.allowUnderstatedBump == true {
            reason.why += "; understated (--allow-understated-bump)"
            return "\(chosen) understates the API change (\(api.impact.rawValue), requires \(required)); released with --allow-understated-bump"
        }
        let list = api.changes.map { "  " + $0.description }.joined(separator: "\n")
        problems.append(.error("\(chosen) understates its API change since \(current): \(api.impact.rawValue), requires \(required) or later:\n\(list)\n"
                               + "(pass --allow-understated-bump to release it anyway; the changelog records it)", module: name))
        return nil
    }

    /// An implementation shares its interface's x, at or above the interface's x.y.0 when it moves in this release.
    private mutating func implementationNext(_ module: Module, current: SemanticVersion, next: SemanticVersion?, reason: inout Reason) -> SemanticVersion? {
        guard let interface = module.implements,
              let interfaceNext = released.first(where: { $0.name == interface }).flatMap({ SemanticVersion($0.next, twoParts: true) }) else { return next }
        guard let raised = InterfaceVersions.implementationNext(next, current: current, interface: interfaceNext) else {
            problems.append(.error("implements \(interface), released as \(interfaceNext); \(module.name) \(next ?? current) would leave its x (\(interfaceNext.major))",
                                   module: module.name))
            return next
        }
        if raised != (next ?? current) {
            reason.add("implements \(interface) \(interfaceNext): at least \(InterfaceVersions.floor(for: interfaceNext))")
            return raised
        }
        return next
    }
}
