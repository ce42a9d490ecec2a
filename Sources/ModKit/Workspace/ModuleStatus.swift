import Foundation
import GitKit

/// The state of one module's working copy, as `modkit status` shows it.
/// The facts of a status row: `name`, `path` and `state` are the row's own keys, so only the rest is in JSON.
public struct ModuleStatus: Sendable, Encodable, Equatable {
    public enum State: String, Sendable, Codable {
        /// The working copy exists and could be read.
        case ok
        /// A repository module whose directory does not exist yet (`modkit sync` clones it).
        case notCloned = "not cloned"
        /// A directory module whose folder is missing from the manifest repository.
        case missing
        /// The working copy exists but could not be read (not a repository, broken, …).
        case error
    }

    public var name: String
    public var kind: Module.Kind
    public var path: String
    public var state: State
    /// The checked-out branch, or nil when HEAD is detached.
    public var branch: String?
    /// The full commit id HEAD points at (nil on an unborn branch).
    public var commit: String?
    public var detached: Bool = false
    public var upstream: String?
    public var ahead: Int?
    public var behind: Int?
    /// Commits no remote-tracking branch holds, counted where there is no upstream to compare with: a topic
    /// branch never pushed, or commits made on a detached HEAD.
    public var unpushed: Int?
    /// On a branch other than the manifest branch: how far it has fallen behind the manifest branch's remote tip.
    public var behindBase: Int?
    /// Detached exactly at the manifest revision (a tag or commit id), as `modkit sync` leaves it.
    public var atRevision: Bool?
    public var staged = 0
    public var modified = 0
    public var untracked = 0
    public var conflicted = 0
    public var version: String?
    public var error: String?

    private enum CodingKeys: String, CodingKey {
        case kind, branch, commit, detached, upstream, ahead, behind, unpushed, behindBase, atRevision, staged, modified, untracked, conflicted, version
    }

    /// Nothing to report: readable, nothing to commit, nothing to push, nothing behind, and not detached
    /// away from the manifest revision.
    public var isClean: Bool {
        state == .ok && staged == 0 && modified == 0 && untracked == 0 && conflicted == 0
            && (ahead ?? 0) == 0 && (behind ?? 0) == 0 && (unpushed ?? 0) == 0 && (behindBase ?? 0) == 0
            && (!detached || atRevision == true)
    }
}

extension Module.Kind: Codable {}

/// Reads the status of workspace modules in parallel, one repository handle per worker.
public enum StatusReader {
    public static func read(_ modules: [Module], in workspace: Workspace, jobs: Int) -> [ModuleResult<ModuleStatus>] {
        let manifest = workspace.manifest
        let finished = FinishedRepositories()
        defer { finished.free() }
        return Parallel.map(modules, jobs: jobs) { module in
            read(module, manifest: manifest, finished: finished)
        }.map { $0.result() }
    }

    /// The manifest repository's own row: its branch, what it has not pushed (a snapshot commit after
    /// `modkit tag`), and its local changes; nil when the workspace is not in a git repository.
    public static func readManifestRepository(of workspace: Workspace) -> ModuleResult<ModuleStatus>? {
        manifestStatus(of: workspace)?.result(isManifest: true)
    }

    private static func manifestStatus(of workspace: Workspace) -> ModuleStatus? {
        var status = ModuleStatus(name: workspace.manifest.workspace, kind: .directory, path: ".", state: .ok)
        do {
            guard let repository = try Repository.discover(from: workspace.root.path) else { return nil }
            try repository.freezeConfiguration()
            try readHead(of: repository, into: &status, remote: nil, revision: nil)
            apply(try repository.status(), to: &status)
        } catch {
            status.state = .error
            status.error = "\(error)"
        }
        return status
    }

    static func read(_ module: Module, manifest: Manifest, finished: FinishedRepositories? = nil) -> ModuleStatus {
        var status = ModuleStatus(name: module.name, kind: module.kind, path: module.path, state: .ok)
        let directory = manifest.directory(of: module)
        status.version = VersionReader.read(module: module, in: manifest).version?.description
        guard FileManager.default.fileExists(atPath: directory.path) else {
            status.state = module.kind == .repository ? .notCloned : .missing
            return status
        }
        // A superproject's fresh clone leaves an empty folder for each submodule: nothing is cloned there yet. A folder
        // with a `.git` is not empty, and one stat says so without listing it (1,431 modules: every status).
        if module.kind == .repository, !FileManager.default.fileExists(atPath: directory.appendingPathComponent(".git").path),
           (try? FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty) == true {
            status.state = .notCloned
            return status
        }
        do {
            switch module.kind {
            case .repository:
                // One open, not an isRepository probe and then an open: each parses the config files.
                let repository: Repository
                do {
                    repository = try Repository.open(directory.path)
                    try repository.freezeConfiguration()  // status only reads
                } catch let error as GitError where error.code == .notFound {
                    status.state = .error
                    status.error = "\(module.path) exists but is not a git repository"
                    return status
                }
                finished?.keep(repository)
                try readHead(of: repository, into: &status, remote: manifest.defaults.remote, revision: manifest.revision(of: module))
                apply(try repository.status(), to: &status)
            case .directory:
                guard let repository = try Repository.discover(from: directory.path) else {
                    status.state = .error
                    status.error = "\(module.path) is not inside a git repository"
                    return status
                }
                try repository.freezeConfiguration()
                finished?.keep(repository)
                try readHead(of: repository, into: &status, remote: nil, revision: nil)
                let relative = relativePath(of: directory, in: repository)
                apply(try repository.status(paths: [relative]), to: &status)
            }
        } catch {
            status.state = .error
            status.error = "\(error)"
        }
        return status
    }

    /// Repositories the scan is done with, freed together when the last worker has finished. Freeing one unmaps
    /// its pack files, and while other workers run each unmap interrupts their cores to flush address
    /// translations (measured: about 6% of the CPU time of a 100-module status on two cores). Each one held keeps
    /// its pack file open, so at most `capacity` wait: past that the worker that adds one frees the batch, and open
    /// descriptors stay bounded however many modules there are (issue 36).
    final class FinishedRepositories: @unchecked Sendable {
        private let lock = NSLock()
        private var repositories: [Repository] = []
        let capacity: Int

        init(capacity: Int = 256) {
            self.capacity = capacity
        }

        func keep(_ repository: Repository) {
            let full = lock.withLock { () -> [Repository] in
                repositories.append(repository)
                guard repositories.count >= capacity else { return [] }
                defer { repositories = [] }
                return repositories
            }
            withExtendedLifetime(full) {}
        }

        /// How many wait to be freed.
        var count: Int { lock.withLock { repositories.count } }

        /// Frees them on the calling thread, once the workers are done.
        func free() {
            let held = lock.withLock { () -> [Repository] in
                defer { repositories = [] }
                return repositories
            }
            withExtendedLifetime(held) {}
        }
    }

    /// Branch, upstream and what is unpushed; `revision` is the module's manifest revision in `remote`.
    private static func readHead(of repository: Repository, into status: inout ModuleStatus, remote: String?, revision: String?) throws {
        switch try repository.head() {
        case .branch(let name, let commit):
            status.branch = name
            status.commit = commit.hex
            if let (upstream, target) = try repository.tracking(ofBranch: name) {
                status.upstream = upstream
                if let target {
                    // Most modules sit exactly at their upstream: no history walk needed then.
                    let counts = target == commit ? (ahead: 0, behind: 0)
                        : try repository.aheadBehind(local: commit, upstream: target)
                    status.ahead = counts.ahead
                    status.behind = counts.behind
                }
            } else {
                status.unpushed = try unpushed(commit, in: repository)
            }
            if let remote, let revision, revision != name,
               let base = try repository.remoteBranchTarget(remote: remote, branch: revision), base != commit {
                status.behindBase = try repository.aheadBehind(local: commit, upstream: base).behind
            }
        case .detached(let commit):
            status.detached = true
            status.commit = commit.hex
            if let revision {
                let tagged = try repository.reference("refs/tags/\(revision)") != nil
                    ? try? repository.resolveCommit("refs/tags/\(revision)") : nil
                status.atRevision = tagged == commit || revision == commit.hex
            }
            if status.atRevision != true { status.unpushed = try unpushed(commit, in: repository) }
        case .unborn(let branch):
            status.branch = branch
        }
    }

    /// Commits reachable from `commit` that no remote-tracking branch or tag holds (tags count as published:
    /// fetched and local ones look alike); 0 in a repository that has neither.
    private static func unpushed(_ commit: OID, in repository: Repository) throws -> Int {
        let published = try repository.references(withPrefix: "refs/remotes/").map(\.target)
            + repository.references(withPrefix: "refs/tags/").map(\.target)
        guard !published.isEmpty else { return 0 }
        return try repository.log(from: commit, excluding: published).count
    }

    private static func apply(_ summary: StatusSummary, to status: inout ModuleStatus) {
        status.staged = summary.staged
        status.modified = summary.modified
        status.untracked = summary.untracked
        status.conflicted = summary.conflicted
    }

    private static func relativePath(of directory: URL, in repository: Repository) -> String {
        guard let workdir = repository.workdir else { return "." }
        let root = URL(fileURLWithPath: workdir).resolvingSymlinksInPath().path
        let path = directory.resolvingSymlinksInPath().path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : "."
    }
}
