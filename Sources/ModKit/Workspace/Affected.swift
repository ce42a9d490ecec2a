import Foundation
import GitKit

/// One module `modkit affected` selects, and why.
public struct AffectedModule: Sendable, Codable, Equatable {
    public enum Reason: String, Sendable, Codable {
        /// Its own commits or files changed since the baseline.
        case changed
        /// It depends, directly or not, on a changed module.
        case dependency
    }

    public var name: String
    public var path: String
    public var reason: Reason
    /// What changed, or which dependency did: "3 commits", "local changes", "depends on Core".
    public var detail: String
}

/// `modkit affected`: the modules changed since a snapshot or a git revision, plus everything that depends
/// on them, in dependency order — what a CI job has to build and test.
public enum Affected {
    /// `since` is a snapshot name or, failing that, a revision (`origin/main`, a tag) resolved in each module's
    /// repository (the manifest repository for directory modules), compared from its merge base with HEAD.
    public static func compute(since: String, modules: [Module], workspace: Workspace,
                               dependencies: [String: [String]]) throws -> [AffectedModule] {
        let baseline = try Baseline.resolve(since, workspace: workspace)
        var changed: [String: String] = [:]
        for module in modules {
            if let detail = try baseline.change(of: module, workspace: workspace) { changed[module.name] = detail }
        }
        if case .revision = baseline, !modules.isEmpty, modules.allSatisfy({ changed[$0.name]?.hasSuffix(Baseline.notFound) == true }) {
            throw ModKitError.input("'\(since)' is neither a snapshot nor a revision of any selected module",
                                    hint: "'modkit snapshots' lists the snapshots here ('modkit sync' fetches one recorded elsewhere); a revision such as origin/main must exist in at least one repository")
        }
        let order = DependencyLevels.levels(of: modules.map(\.name), dependencies: dependencies).flatMap { $0 }
        // looked up by name, not searched for: 1,500 modules made that a million comparisons (issue 36)
        let byName = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var selected: [String: AffectedModule] = [:]
        for name in order {
            guard let module = byName[name] else { continue }
            if let detail = changed[name] {
                selected[name] = AffectedModule(name: name, path: module.path, reason: .changed, detail: detail)
            } else if let dependency = (dependencies[name] ?? []).first(where: { selected[$0] != nil }) {
                selected[name] = AffectedModule(name: name, path: module.path, reason: .dependency, detail: "depends on \(dependency)")
            }
        }
        return order.compactMap { selected[$0] }
    }
}

/// What "since" means: a recorded snapshot, or a revision to look up in each repository.
private enum Baseline {
    case snapshot(Snapshot, manifestCommit: OID)
    case revision(String)

    /// The end of the detail of a module the revision does not exist in.
    static let notFound = "counted as changed"

    static func resolve(_ since: String, workspace: Workspace) throws -> Baseline {
        if let (snapshot, commit) = try? SnapshotCatalog.load(since, in: workspace, command: "modkit affected") {
            return .snapshot(snapshot, manifestCommit: commit)
        }
        guard !since.isEmpty, !since.hasPrefix("-") else { throw ModKitError.input("'\(since)' is not a snapshot or a revision") }
        return .revision(since)
    }

    /// Why `module` counts as changed, or nil when it did not change.
    func change(of module: Module, workspace: Workspace) throws -> String? {
        let manifest = workspace.manifest
        switch module.kind {
        case .repository:
            let directory = manifest.directory(of: module).path
            guard Repository.isRepository(directory) else { return nil }
            let repository = try Repository.open(directory)
            guard case let head? = try repository.head().commit else { return nil }
            let base: OID
            switch self {
            case .snapshot(let snapshot, _):
                guard let recorded = snapshot.module(named: module.name)?.commit, let commit = OID(hex: recorded) else {
                    return "not in the snapshot"
                }
                base = commit
            case .revision(let revision):
                guard let commit = try? repository.resolveCommit(revision) else { return "\(revision) not found here; \(Baseline.notFound)" }
                base = try repository.mergeBase(head, commit) ?? commit
            }
            if base != head {
                guard repository.hasCommit(base) else {
                    return "its recorded commit \(base.short) is not in its local repository; counted as changed ('modkit sync \(module.name)' fetches it)"
                }
                let ahead = try repository.aheadBehind(local: head, upstream: base).ahead
                if ahead > 0 { return "\(ahead) commit\(ahead == 1 ? "" : "s")" }
                return "checked out elsewhere"
            }
            return try repository.status(untracked: false).isClean ? nil : "local changes"
        case .directory:
            let manifestRepository = try ManifestRepository.open(workspace, for: "modkit affected")
            let repository = manifestRepository.repository
            guard case let head? = try repository.head().commit else { return nil }
            let base: OID
            switch self {
            case .snapshot(_, let commit): base = commit
            case .revision(let revision):
                guard let commit = try? repository.resolveCommit(revision) else { return "\(revision) not found; \(Baseline.notFound)" }
                base = try repository.mergeBase(head, commit) ?? commit
            }
            let path = manifestRepository.path(module.path)
            if try repository.treeEntryID(path, in: base) != repository.treeEntryID(path, in: head) { return "files changed" }
            return try repository.status(paths: [path], untracked: false).isClean ? nil : "local changes"
        }
    }
}
