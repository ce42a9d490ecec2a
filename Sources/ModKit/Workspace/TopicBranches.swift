import Foundation
import GitKit

/// One topic branch of one repository, as `modkit branches` lists it.
public struct TopicBranchState: Sendable, Codable, Equatable {
    public var branch: String
    public var current: Bool
    /// Commits on the branch that the manifest revision lacks, and the other way round.
    public var ahead: Int
    public var behind: Int
    public var upstream: String?
    /// Commits no remote-tracking branch of the module's remote holds: what `push` would send.
    public var unpushed: Int
    /// Every commit of the branch is in the manifest revision: `prune` deletes it.
    public var merged: Bool
}

/// The topic branches of one repository (a module's, or the manifest repository for directory modules).
public struct RepositoryBranches: Sendable, Codable, Equatable {
    /// nil for the manifest repository.
    public var module: String?
    public var path: String
    /// The manifest revision the branches are compared with.
    public var base: String?
    public var branches: [TopicBranchState]
    public var error: String?
}

/// Topic branches across repositories: `modkit branches`, `push`, `abandon` and `prune`.
public enum TopicBranches {
    /// The repositories of `modules`: each repository module's, and the manifest repository once when a
    /// directory module is among them (they share it), as `modkit start` does.
    static func repositories(of modules: [Module], workspace: Workspace) -> [Site] {
        let manifest = workspace.manifest
        var sites = modules.filter { $0.kind == .repository }.map {
            Site(module: $0.name, path: $0.path, directory: manifest.directory(of: $0), revision: manifest.revision(of: $0))
        }
        if modules.contains(where: { $0.kind == .directory }) {
            sites.append(Site(module: nil, path: ".", directory: manifest.root, revision: nil))
        }
        return sites
    }

    struct Site: Sendable {
        var module: String?
        var path: String
        var directory: URL
        /// The manifest revision (nil: the remote's default branch).
        var revision: String?
    }

    public static func list(_ modules: [Module], workspace: Workspace, jobs: Int) -> [RepositoryBranches] {
        let remote = workspace.manifest.defaults.remote
        return Parallel.map(repositories(of: modules, workspace: workspace), jobs: jobs) { site in
            var entry = RepositoryBranches(module: site.module, path: site.path, base: nil, branches: [], error: nil)
            guard Repository.isRepository(site.directory.path) else { return entry }
            do {
                let view = try BranchView(site, remote: remote)
                entry.base = view.base?.label
                entry.branches = try view.topicBranches().map(view.state)
            } catch {
                entry.error = ErrorText.describe(error)
            }
            return entry
        }
    }

    /// Pushes `branch` (nil: each repository's current topic branch) where it has commits of its own, and sets
    /// its upstream.
    public static func push(_ branch: String?, modules: [Module], workspace: Workspace, jobs: Int) -> [ModuleResult<BranchFacts>] {
        let remote = workspace.manifest.defaults.remote
        return act(on: modules, workspace: workspace, jobs: jobs, branch: branch) { view, name in
            let state = try view.state(name)
            if state.upstream != nil, state.unpushed == 0 { return (.upToDate, "\(name) is pushed") }
            if state.ahead == 0 { return (.skipped, "no commits on \(name)") }
            let results = try view.repository.push(remote: remote, refspecs: ["refs/heads/\(name):refs/heads/\(name)"])
            if let rejected = results.first(where: { $0.error != nil }) {
                return (.failed, "\(remote) refused \(name): \(rejected.error ?? "")" +
                        (rejected.error?.contains("fast-forward") == true ? "; pull its commits first" : ""))
            }
            let tip = try view.repository.branchTarget(name)!
            if try view.repository.reference("refs/remotes/\(remote)/\(name)") != tip {
                try view.repository.setReference("refs/remotes/\(remote)/\(name)", to: tip, force: true, logMessage: "modkit push")
            }
            if state.upstream == nil { try view.repository.setUpstream(branch: name, to: "\(remote)/\(name)") }
            return (.pushed, "pushed \(state.unpushed) commit\(state.unpushed == 1 ? "" : "s") to \(remote)/\(name)")
        }
    }

    /// Deletes `branch` where no commit of it would be lost; a checked-out one is left for the manifest revision first.
    public static func abandon(_ branch: String, modules: [Module], workspace: Workspace, jobs: Int) -> [ModuleResult<BranchFacts>] {
        act(on: modules, workspace: workspace, jobs: jobs, branch: branch) { view, name in
            let state = try view.state(name)
            if state.unpushed > 0, !state.merged {
                return (.kept, "\(state.unpushed) commit\(state.unpushed == 1 ? "" : "s") on \(name) pushed nowhere; 'modkit push \(name)' first, or 'git branch -D \(name)' to drop them")
            }
            if state.current {
                if let reason = try view.leave() { return (.kept, "\(name) is checked out and \(reason)") }
            }
            try view.repository.deleteReference("refs/heads/\(name)")
            return (.deleted, "deleted \(name)" + (state.current ? "; now on \(view.base?.label ?? "the manifest revision")" : ""))
        }
    }

    /// Deletes every topic branch whose commits are all in the manifest revision.
    public static func prune(_ modules: [Module], workspace: Workspace, jobs: Int) -> [ModuleResult<BranchFacts>] {
        let remote = workspace.manifest.defaults.remote
        return Parallel.map(repositories(of: modules, workspace: workspace), jobs: jobs) { site -> [ModuleResult<BranchFacts>] in
            guard Repository.isRepository(site.directory.path) else { return [] }
            do {
                let view = try BranchView(site, remote: remote)
                return try view.topicBranches().compactMap { name in
                    let state = try view.state(name)
                    guard state.merged else { return nil }
                    if state.current {
                        return ModuleResult(name: site.module, path: site.path, outcome: .kept,
                                                  detail: "\(name) is merged but checked out; 'modkit abandon \(name)' leaves it", facts: BranchFacts(branch: name))
                    }
                    try view.repository.deleteReference("refs/heads/\(name)")
                    return ModuleResult(name: site.module, path: site.path, outcome: .deleted,
                                              detail: "deleted \(name) (merged into \(view.base?.label ?? "the manifest revision"))", facts: BranchFacts(branch: name))
                }
            } catch {
                return [ModuleResult(name: site.module, path: site.path, outcome: .failed, detail: ErrorText.describe(error), facts: BranchFacts(branch: nil))]
            }
        }.flatMap { $0 }
    }

    /// Runs `body` for `branch` (or the current topic branch) in every repository that has it.
    private static func act(on modules: [Module], workspace: Workspace, jobs: Int, branch: String?,
                            _ body: @escaping @Sendable (BranchView, String) throws -> (ModuleOutcome, String)) -> [ModuleResult<BranchFacts>] {
        let remote = workspace.manifest.defaults.remote
        return Parallel.map(repositories(of: modules, workspace: workspace), jobs: jobs) { site in
            var result = ModuleResult(name: site.module, path: site.path, outcome: .skipped, detail: "", facts: BranchFacts(branch: branch))
            guard Repository.isRepository(site.directory.path) else {
                result.detail = "not cloned"
                return result
            }
            do {
                let view = try BranchView(site, remote: remote)
                guard let name = try branch ?? view.currentTopicBranch() else {
                    result.detail = "not on a topic branch"
                    return result
                }
                result.branch = name
                guard try view.repository.branchTarget(name) != nil else {
                    result.detail = "no branch \(name)"
                    return result
                }
                (result.outcome, result.detail) = try body(view, name)
            } catch {
                result.outcome = .failed
                result.detail = ErrorText.describe(error)
            }
            return result
        }
    }
}

/// One repository's branches seen against its manifest revision.
struct BranchView {
    let repository: Repository
    let remote: String
    let base: RevisionTarget?

    init(_ site: TopicBranches.Site, remote: String) throws {
        repository = try Repository.open(site.directory.path)
        self.remote = remote
        base = try? RevisionTarget.resolve(site.revision, remote: remote, in: repository)
    }

    /// Local branches other than the manifest branch.
    func topicBranches() throws -> [String] {
        try repository.localBranches().filter { $0 != base?.branchName }.sorted()
    }

    func currentTopicBranch() throws -> String? {
        guard case .branch(let name, _) = try repository.head(), name != base?.branchName else { return nil }
        return name
    }

    func state(_ name: String) throws -> TopicBranchState {
        let tip = try repository.branchTarget(name)!
        var ahead = 0, behind = 0
        if let base {
            (ahead, behind) = try repository.aheadBehind(local: tip, upstream: base.commit)
        } else {
            ahead = try repository.log(from: tip).count
        }
        let remoteTips = try repository.references(withPrefix: "refs/remotes/\(remote)/").map(\.target)
        let unpushed = try repository.log(from: tip, excluding: remoteTips).count
        let current = try currentTopicBranch() == name
        return TopicBranchState(branch: name, current: current, ahead: ahead, behind: behind,
                                upstream: try repository.upstream(ofBranch: name), unpushed: unpushed, merged: base != nil && ahead == 0)
    }

    /// Checks out the manifest revision so that the current branch can go; the reason when it cannot.
    func leave() throws -> String? {
        guard try repository.status(untracked: false).isClean else { return "has local changes" }
        guard let base else { return "the manifest revision is not fetched (run 'modkit sync')" }
        switch base {
        case .branch(let name, let commit):
            if try repository.branchTarget(name) == nil {
                try repository.createBranch(name, at: commit)
                try repository.setUpstream(branch: name, to: "\(remote)/\(name)")
            }
            try WorkTreeMove.perform(repository, to: try repository.branchTarget(name) ?? commit, branch: name,
                                     logMessage: "modkit: leave topic branch for \(name)")
        case .tag(_, let commit), .commit(let commit):
            try WorkTreeMove.perform(repository, to: commit, branch: nil, logMessage: "modkit: leave topic branch")
        }
        return nil
    }
}
