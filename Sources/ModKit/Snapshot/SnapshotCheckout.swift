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

/// What `modkit checkout` knows about one repository beside its outcome.
public struct CheckoutFacts: Sendable, Encodable, Equatable {
    /// The branch made at the recorded commit (`--branch`).
    public var branch: String?
    /// The commit checked out now (the recorded one, or the module's tag when the commit has vanished).
    public var commit: String?
    public var previousCommit: String?
    /// A `refs/modkit/backup/…` ref holding a detached HEAD that the move would have left unreachable.
    public var backup: String?
}

/// What `modkit checkout` did.
public struct CheckoutReport: Sendable {
    public var snapshot: String
    /// The commit of the snapshot tag in the manifest repository.
    public var snapshotCommit: String
    public var branch: String?
    public var results: [ModuleResult<CheckoutFacts>]
    public var warnings: [String]

    public var failed: Bool { results.contains { $0.outcome == .failed } }
}

/// `modkit checkout SNAPSHOT`: every repository back at its recorded commit; nothing moves unless everything can,
/// and a run cut short is finished by the next `modkit checkout SNAPSHOT` (see `CheckoutJournal`).
public enum SnapshotCheckout {
    public static func checkout(_ name: String, workspace: Workspace, options: CheckoutOptions, jobs: Int,
                                networkJobs: Int) throws -> CheckoutReport {
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit checkout")
        let settled = try TagJournal.settle(in: workspace.root, manifestRepository: manifestRepository)
        let (snapshot, snapshotCommit) = try SnapshotCatalog.load(name, in: manifestRepository, fetchingTags: true)
        if let branch = options.branch { try TopicBranch.checkName(branch) }
        let root = workspace.root
        let escaping = snapshot.modules.compactMap { entry in
            ContainedPath.problem(entry.path, in: root).map { Diagnostic.error($0.message, at: snapshot.pathLocations[entry.name], hint: $0.hint) }
        }
        if !escaping.isEmpty { throw ManifestError(diagnostics: escaping) }
        let journalFile = CheckoutJournal.file(in: root)
        let journal = try CheckoutJournal.read(in: root)
        if let journal, journal.snapshot != name || journal.branch != options.branch {
            throw SnapshotFailure(problems: [.error("a checkout of snapshot \(journal.snapshot) was interrupted; finish it first with '\(journal.resumeCommand)'")],
                                  notes: [.note("nothing was moved")])
        }
        var journaled: [String: CheckoutJournal.Entry] = [:]
        for entry in journal?.entries ?? [] { journaled[entry.path] = entry }
        let remote = workspace.manifest.defaults.remote
        var targets = snapshot.modules.filter { $0.kind == .repository }.map { recorded in
            var entry = recorded
            // Snapshots from before tags were recorded used the former default, the snapshot name itself.
            if entry.tag == nil { entry.tag = Snapshot.tagName(format: Snapshot.formerTagFormat, snapshot: name, module: entry.name, version: entry.version) }
            return ModuleTarget(entry: entry, directory: workspace.manifest.directory(ofPath: entry.path), remote: remote,
                                journal: journaled[entry.path])
        }

        // 1. Every existing repository: missing commits fetched (no work tree changes), then checked; nothing is cloned yet.
        targets = Parallel.map(targets, jobs: networkJobs) { $0.resolve(cloning: false) }
        targets = Parallel.map(targets, jobs: jobs) { $0.checked(branch: options.branch, journalFile: journalFile) }
        var problems = targets.flatMap(\.problems)
        let movesManifest = !options.modulesOnly || journaled["."] != nil
        var manifestPlace: StartingPoint?
        if movesManifest {
            do {
                if journaled["."] != nil { KilledRunLock.removeMoveLocks(of: manifestRepository.repository, branch: options.branch, madeAfter: journalFile) }
                let place = try StartingPoint(manifestRepository.repository, journal: journaled["."], target: snapshotCommit,
                                              journalFile: journalFile)
                let check = try MoveCheck(manifestRepository.repository, label: "manifest repository", path: ".",
                                          to: place.target, branch: options.branch)
                problems += check.problems.map { problem in
                    var problem = problem
                    if !options.modulesOnly { problem.message += " (or pass --modules-only)" }
                    return problem
                }
                if let branch = options.branch, let existing = try manifestRepository.repository.branchTarget(branch), existing != place.target {
                    problems.append(.error("branch \(branch) already exists at \(existing.short)", module: "manifest repository"))
                }
                manifestPlace = place
            } catch {
                problems.append(.error("\(ErrorText.describe(error))", module: "manifest repository"))
            }
        }
        if !problems.isEmpty { throw SnapshotFailure(problems: problems, notes: [.note("nothing was moved")]) }

        // 2. Missing repositories cloned, each before the ones inside its work tree, which its exclude file then leaves out.
        let paths = targets.map(\.entry.path)
        var excludeFailures: [String: String] = [:]
        let excludeInner = { excludeFailures.merge(NestedModules.excludeInnerPaths(paths) { workspace.manifest.directory(ofPath: $0) }) { _, new in new } }
        targets = NestedModules.mapInWaves(targets, path: \.entry.path, afterWave: excludeInner) { wave in
            Parallel.map(wave, jobs: networkJobs) { target in
                // Checked again wave by wave: a repository cloned in an earlier wave may hold a link an inner module's path goes through.
                guard let problem = ContainedPath.problem(target.entry.path, in: root) else { return target.exists ? target : target.resolve(cloning: true) }
                var refused = target
                refused.problems.append(.error("\(problem.message)", module: target.entry.name))
                return refused
            }
        }
        problems = targets.flatMap(\.problems)
        var warnings = settled + targets.flatMap(\.warnings)
            + excludeFailures.values.sorted().map { "the modules inside a repository are not kept out of its status (\($0))" }
        if !problems.isEmpty {
            let cloned = targets.filter(\.cloned).count
            throw SnapshotFailure(problems: problems, notes: [.note("nothing was moved" + (cloned > 0 ? " (\(cloned) missing module repositories were cloned)" : ""))])
        }
        let current = Set(snapshot.modules.map(\.name))
        for module in workspace.manifest.modules where !current.contains(module.name) {
            warnings.append("\(module.name) is not in snapshot \(name); left as it is")
        }

        // 3. The journal, then the moves.
        var entries = try targets.compactMap { target -> CheckoutJournal.Entry? in
            guard let goal = target.target else { return nil }
            let old = try target.old ?? Repository.open(target.directory.path).head().commit ?? goal
            return CheckoutJournal.Entry(module: target.entry.name, path: target.entry.path, old: old.hex, target: goal.hex)
        }
        if let manifestPlace {
            entries.append(CheckoutJournal.Entry(module: nil, path: ".", old: manifestPlace.old.hex, target: manifestPlace.target.hex))
        }
        try CheckoutJournal(snapshot: name, branch: options.branch, entries: entries).write(in: root, gitDir: manifestRepository.repository.gitDir)
        let stamp = Syncer.backupStamp(Date())
        var results = NestedModules.mapInWaves(targets, path: \.entry.path) { wave in
            Parallel.map(wave, jobs: jobs) { $0.move(branch: options.branch, stamp: stamp, snapshot: name) }
        }
        if let manifestPlace {
            var result = ModuleResult(name: nil, path: ".", outcome: .failed, detail: "",
                                      facts: CheckoutFacts(branch: options.branch, commit: manifestPlace.target.hex))
            do {
                let moved = try Mover.move(manifestRepository.repository, to: manifestPlace.target, branch: options.branch, stamp: stamp,
                                           snapshot: name)
                result.outcome = moved.previous == nil ? .upToDate : .updated
                result.previousCommit = moved.previous?.hex
                result.backup = moved.backup
                result.detail = moved.detail + " (tag \(name))"
            } catch {
                result.detail = ErrorText.describe(error) + Mover.whereItIs(root)
            }
            results.append(result)
        }
        let failed = results.filter { $0.outcome == .failed }
        if failed.isEmpty {
            try CheckoutJournal.clear(in: root)
        } else {
            warnings.append("the checkout of \(name) is incomplete: \(results.count - failed.count) of \(results.count) repositories are at the snapshot, "
                + "not \(failed.map { $0.name ?? "the manifest repository" }.joined(separator: ", ")); "
                + "fix the cause and run '\(CheckoutJournal(snapshot: name, branch: options.branch, entries: []).resumeCommand)' again to finish")
        }
        return CheckoutReport(snapshot: name, snapshotCommit: snapshotCommit.hex, branch: options.branch, results: results,
                              warnings: warnings)
    }
}

/// Moves one repository to a commit, detached or on a new branch, saving an unreachable detached HEAD first.
/// The move is `WorkTreeMove`'s, as in `sync`: journaled in the repository, files renamed into place, and a move
/// cut short earlier finished first.
enum Mover {
    /// `previous` is nil when the repository already was there.
    static func move(_ repository: Repository, to commit: OID, branch: String?, stamp: String, snapshot: String) throws
        -> (previous: OID?, backup: String?, detail: String) {
        let head = try repository.head()
        let goal: Head = branch.map { .branch(name: $0, commit: commit) } ?? .detached(commit)
        if head == goal, try WorkTreeMove.interruptedMove(in: repository) == nil {
            return (nil, nil, branch.map { "on \($0) at \(commit.short)" } ?? "detached at \(commit.short)")
        }
        let detail = branch.map { "on new branch \($0) at \(commit.short)" } ?? "detached at \(commit.short)"
        let backup = try HeadBackup.saveIfUnreachable(repository, head: head, stamp: stamp, command: "modkit checkout")
        try WorkTreeMove.perform(repository, to: commit, branch: branch, logMessage: "modkit checkout \(snapshot): \(detail)")
        return (head == goal ? nil : head.commit ?? commit, backup, detail)
    }

    /// "; HEAD is at …" for a failure message, so the user knows where the repository was left.
    static func whereItIs(_ directory: URL) -> String {
        guard let head = try? Repository.open(directory.path).head().commit else { return "" }
        return "; HEAD is still at \(head.short)"
    }
}
