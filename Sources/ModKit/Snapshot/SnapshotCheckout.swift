import Foundation
import GitKit

/// How `modkit checkout` places repositories.
public struct CheckoutOptions: Sendable {
    /// A new branch at the recorded commit in every repository; nil leaves them detached.
    public var branch: String?
    /// Leave the manifest repository where it is.
    public var modulesOnly: Bool

    public init(branch: String? = nil, modulesOnly: Bool = false) {
        self.branch = branch
        self.modulesOnly = modulesOnly
    }
}

/// What `modkit checkout` did to one repository.
public struct CheckoutResult: Sendable, Codable, Equatable {
    public enum Outcome: String, Sendable, Codable {
        case moved, unchanged, cloned, failed
    }

    /// nil for the manifest repository.
    public var module: String?
    public var path: String
    /// The commit checked out now (the recorded one, or the module's tag when the commit has vanished).
    public var commit: String?
    public var previousCommit: String?
    public var outcome: Outcome
    public var detail: String
    /// A `refs/modkit/backup/…` ref holding a detached HEAD that the move would have left unreachable.
    public var backup: String?
}

/// What `modkit checkout` did.
public struct CheckoutReport: Sendable, Codable {
    public var snapshot: String
    /// The commit of the snapshot tag in the manifest repository.
    public var snapshotCommit: String
    public var branch: String?
    public var results: [CheckoutResult]
    public var warnings: [String]

    public var failed: Bool { results.contains { $0.outcome == .failed } }
}

/// `modkit checkout SNAPSHOT`: every repository back at its recorded commit; nothing moves unless everything can.
public enum SnapshotCheckout {
    public static func checkout(_ name: String, workspace: Workspace, options: CheckoutOptions, jobs: Int,
                                networkJobs: Int) throws -> CheckoutReport {
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit checkout")
        let (snapshot, snapshotCommit) = try SnapshotCatalog.load(name, in: manifestRepository)
        if let branch = options.branch, !Repository.isValidTagName(branch) || branch.hasPrefix("-") {
            throw ModKitError.input("'\(branch)' is not a valid branch name")
        }
        let remote = workspace.manifest.defaults.remote
        let targets = snapshot.modules.filter { $0.kind == .repository }.map { recorded in
            var entry = recorded
            // Snapshots from before tags were recorded used the former default, the snapshot name itself.
            if entry.tag == nil { entry.tag = Snapshot.tagName(format: Snapshot.formerTagFormat, snapshot: name, module: entry.name, version: entry.version) }
            return ModuleTarget(entry: entry, directory: workspace.manifest.directory(ofPath: entry.path), remote: remote)
        }

        // 1. Every repository clean (and free for --branch) before anything moves.
        var problems = Parallel.map(targets, jobs: jobs) { $0.preflight(branch: options.branch) }.flatMap { $0 }
        if !options.modulesOnly {
            let repository = manifestRepository.repository
            if !(try repository.status(untracked: false).isClean) {
                problems.append("manifest repository: uncommitted changes (commit or stash them, or pass --modules-only)")
            }
            if let branch = options.branch, let existing = try repository.branchTarget(branch), existing != snapshotCommit {
                problems.append("manifest repository: branch \(branch) already exists at \(existing.short)")
            }
        }
        if !problems.isEmpty { throw SnapshotFailure(problems: problems, notes: ["nothing was moved"]) }

        // 2. Every recorded commit present (fetching, cloning, or falling back to the module's tag).
        let resolved = Parallel.map(targets, jobs: networkJobs) { $0.resolve() }
        problems = resolved.flatMap(\.problems)
        var warnings = resolved.flatMap(\.warnings)
        if !problems.isEmpty {
            let cloned = resolved.filter(\.cloned).count
            throw SnapshotFailure(problems: problems, notes: ["nothing was moved" + (cloned > 0 ? " (\(cloned) missing module repositories were cloned)" : "")])
        }
        let current = Set(snapshot.modules.map(\.name))
        for module in workspace.manifest.modules where !current.contains(module.name) {
            warnings.append("\(module.name) is not in snapshot \(name); left as it is")
        }

        // 3. Move.
        let stamp = Syncer.backupStamp(Date())
        var results = Parallel.map(resolved, jobs: jobs) { $0.move(branch: options.branch, stamp: stamp) }
        if !options.modulesOnly {
            var result = CheckoutResult(module: nil, path: ".", commit: snapshotCommit.hex, outcome: .failed, detail: "")
            do {
                let moved = try Mover.move(manifestRepository.repository, to: snapshotCommit, branch: options.branch, stamp: stamp)
                result.outcome = moved.previous == nil ? .unchanged : .moved
                result.previousCommit = moved.previous?.hex
                result.backup = moved.backup
                result.detail = moved.detail + " (tag \(name))"
            } catch {
                result.detail = ErrorText.describe(error)
            }
            results.append(result)
        }
        return CheckoutReport(snapshot: name, snapshotCommit: snapshotCommit.hex, branch: options.branch, results: results,
                              warnings: warnings)
    }
}

/// Moves one repository to a commit, detached or on a new branch, saving an unreachable detached HEAD first.
enum Mover {
    /// `previous` is nil when the repository already was there.
    static func move(_ repository: Repository, to commit: OID, branch: String?, stamp: String) throws
        -> (previous: OID?, backup: String?, detail: String) {
        let head = try repository.head()
        if let branch {
            if case .branch(branch, commit) = head { return (nil, nil, "on \(branch) at \(commit.short)") }
            let backup = try HeadBackup.saveIfUnreachable(repository, head: head, stamp: stamp, command: "modkit checkout")
            if try repository.branchTarget(branch) == nil { try repository.createBranch(branch, at: commit) }
            try repository.checkoutBranch(branch)
            return (head.commit ?? commit, backup, "on new branch \(branch) at \(commit.short)")
        }
        if case .detached(commit) = head { return (nil, nil, "detached at \(commit.short)") }
        let backup = try HeadBackup.saveIfUnreachable(repository, head: head, stamp: stamp, command: "modkit checkout")
        try repository.checkoutDetached(commit)
        return (head.commit ?? commit, backup, "detached at \(commit.short)")
    }
}

/// One repository module of the snapshot on its way back to the recorded commit; plain values only, so it can cross threads.
struct ModuleTarget: Sendable {
    var entry: Snapshot.Entry
    var directory: URL
    var remote: String
    var target: OID?
    var cloned = false
    var note: String?
    var problems: [String] = []
    var warnings: [String] = []

    init(entry: Snapshot.Entry, directory: URL, remote: String) {
        self.entry = entry
        self.directory = directory
        self.remote = remote
    }

    var exists: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// Problems that forbid moving anything: local changes, a clashing branch, something that is not a repository.
    func preflight(branch: String?) -> [String] {
        guard exists else { return [] }
        guard Repository.isRepository(directory.path) else { return ["\(entry.name): \(entry.path) exists but is not a git repository"] }
        do {
            let repository = try Repository.open(directory.path)
            var problems: [String] = []
            if !(try repository.status(untracked: false).isClean) {
                problems.append("\(entry.name): local changes in \(entry.path) (commit or stash them first)")
            }
            if let branch, let existing = try repository.branchTarget(branch), existing.hex != entry.commit {
                problems.append("\(entry.name): branch \(branch) already exists at \(existing.short)")
            }
            return problems
        } catch {
            return ["\(entry.name): \(ErrorText.describe(error))"]
        }
    }

    /// Makes the recorded commit available: clones a missing repository, fetches when the commit is not here,
    /// and falls back to the module's tag when the commit has vanished from the remote.
    func resolve() -> ModuleTarget {
        var copy = self
        guard let hex = entry.commit, let recorded = OID(hex: hex) else {
            copy.problems.append("\(entry.name): the snapshot records no commit")
            return copy
        }
        do {
            if !exists {
                guard let url = entry.url else { throw ModKitError("no url recorded") }
                let staging = try CloneStaging.prepare(for: directory)
                do {
                    _ = try Repository.clone(url: url, to: staging.path, options: CloneOptions(checkout: true))
                    try CloneStaging.publish(staging, to: directory)
                } catch {
                    CloneStaging.discard(staging)
                    throw error
                }
                copy.cloned = true
            }
            let repository = try Repository.open(directory.path)
            if !repository.hasCommit(recorded) {
                if try repository.remoteURL(remote) == nil, let url = entry.url { try repository.addRemote(remote, url: url) }
                try repository.fetch(remote: remote, options: FetchOptions(downloadTags: .all))
            }
            let tag = try entry.tag.flatMap { try repository.tagTarget($0) }
            if repository.hasCommit(recorded) {
                copy.target = recorded
                if let tag, let name = entry.tag, tag.commit != recorded {
                    copy.warnings.append("\(entry.name): tag \(name) has moved since the snapshot (now on \(tag.commit.short), recorded \(recorded.short))")
                }
            } else if let tag, let name = entry.tag {
                copy.target = tag.commit
                copy.note = "commit \(recorded.short) has vanished from the remote; used tag \(name) (\(tag.commit.short)) instead"
                copy.warnings.append("\(entry.name): \(copy.note!)")
            } else {
                copy.problems.append("\(entry.name): commit \(recorded.short) is not on remote '\(remote)' and there is no tag \(entry.tag ?? "for it") to fall back to")
            }
        } catch {
            copy.problems.append("\(entry.name): \(ErrorText.describe(error))")
        }
        return copy
    }

    func move(branch: String?, stamp: String) -> CheckoutResult {
        var result = CheckoutResult(module: entry.name, path: entry.path, commit: target?.hex, outcome: .failed, detail: "")
        guard let target else { return result }
        do {
            let repository = try Repository.open(directory.path)
            let moved = try Mover.move(repository, to: target, branch: branch, stamp: stamp)
            result.outcome = cloned ? .cloned : (moved.previous == nil ? .unchanged : .moved)
            result.previousCommit = moved.previous?.hex
            result.backup = moved.backup
            result.detail = moved.detail + (note.map { "; \($0)" } ?? "")
        } catch {
            result.detail = ErrorText.describe(error)
        }
        return result
    }
}
