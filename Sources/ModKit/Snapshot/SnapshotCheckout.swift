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
    public var warnings: [Diagnostic]

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
        try refuseEscapingPaths(of: snapshot, root: workspace.root)
        let run = CheckoutRun(snapshot: name, workspace: workspace, options: options, jobs: jobs, networkJobs: networkJobs,
                              manifestRepository: manifestRepository,
                              journaled: try interruptedEntries(resuming: name, branch: options.branch, root: workspace.root))

        // 1. Every existing repository: missing commits fetched (no work tree changes), then checked; nothing is cloned yet.
        var targets = run.checkedTargets(of: snapshot)
        let manifest = run.checkedManifestPlace(at: snapshotCommit)
        let problems = targets.flatMap(\.problems) + manifest.problems
        if !problems.isEmpty { throw SnapshotFailure(problems: problems, notes: [.note("nothing was moved")]) }

        // 2. Missing repositories cloned, each before the ones inside its work tree, which its exclude file then leaves out.
        let excludeFailures: [String: String]
        (targets, excludeFailures) = run.cloningMissing(targets)
        var warnings = settled.map(\.asWarning) + targets.flatMap(\.warnings)
            + excludeFailures.values.sorted().map { Diagnostic.warning("the modules inside a repository are not kept out of its status (\($0))") }
        try refuseIfAnyFailed(targets)
        let current = Set(snapshot.modules.map(\.name))
        for module in workspace.manifest.modules where !current.contains(module.name) {
            warnings.append(.warning("not in snapshot \(name); left as it is", module: module.name))
        }

        // 3. The journal, then the moves.
        try run.writeJournal(targets, manifestPlace: manifest.place)
        let results = run.move(targets, manifestPlace: manifest.place)
        if let incomplete = try run.finish(results) { warnings.append(.warning(incomplete)) }
        return CheckoutReport(snapshot: name, snapshotCommit: snapshotCommit.hex, branch: options.branch, results: results,
                              warnings: warnings)
    }

    /// Refuses a snapshot with a module path that leads out of the workspace, before anything is read or moved.
    private static func refuseEscapingPaths(of snapshot: Snapshot, root: URL) throws {
        let escaping = snapshot.modules.compactMap { entry in
            ContainedPath.problem(entry.path, in: root).map { Diagnostic.error($0.message, at: snapshot.pathLocations[entry.name], hint: $0.hint) }
        }
        if !escaping.isEmpty { throw ManifestError(diagnostics: escaping) }
    }

    /// What an interrupted checkout of this snapshot and branch recorded, by path; an interrupted checkout of another
    /// snapshot or branch is refused until it is finished.
    private static func interruptedEntries(resuming name: String, branch: String?, root: URL) throws -> [String: CheckoutJournal.Entry] {
        let journal = try CheckoutJournal.read(in: root)
        if let journal, journal.snapshot != name || journal.branch != branch {
            throw SnapshotFailure(problems: [.error("a checkout of snapshot \(journal.snapshot) was interrupted; finish it first with '\(journal.resumeCommand)'")],
                                  notes: [.note("nothing was moved")])
        }
        var journaled: [String: CheckoutJournal.Entry] = [:]
        for entry in journal?.entries ?? [] { journaled[entry.path] = entry }
        return journaled
    }

    /// Stops before any move when a repository could not be cloned or refused its path, saying how many were cloned.
    private static func refuseIfAnyFailed(_ targets: [ModuleTarget]) throws {
        let problems = targets.flatMap(\.problems)
        guard !problems.isEmpty else { return }
        let cloned = targets.filter(\.cloned).count
        throw SnapshotFailure(problems: problems, notes: [.note("nothing was moved" + (cloned > 0 ? " (\(cloned) missing module repositories were cloned)" : ""))])
    }
}

/// One `modkit checkout SNAPSHOT` once the snapshot is loaded and no other checkout is interrupted: the steps of
/// `SnapshotCheckout.checkout`, in its order.
private struct CheckoutRun {
    let snapshot: String
    let workspace: Workspace
    let options: CheckoutOptions
    let jobs: Int
    let networkJobs: Int
    let manifestRepository: ManifestRepository
    /// What an interrupted checkout of this snapshot recorded, by path ("." for the manifest repository).
    let journaled: [String: CheckoutJournal.Entry]

    var root: URL { workspace.root }
    var journalFile: URL { CheckoutJournal.file(in: root) }

    /// Every repository module of the snapshot, its missing commits fetched (nothing cloned), then checked for a move.
    func checkedTargets(of recordedSnapshot: Snapshot) -> [ModuleTarget] {
        let remote = workspace.manifest.defaults.remote
        var targets = recordedSnapshot.modules.filter { $0.kind == .repository }.map { recorded in
            var entry = recorded
            // Snapshots from before tags were recorded used the former default, the snapshot name itself.
            if entry.tag == nil { entry.tag = Snapshot.tagName(format: Snapshot.formerTagFormat, snapshot: snapshot, module: entry.name, version: entry.version) }
            return ModuleTarget(entry: entry, directory: workspace.manifest.directory(ofPath: entry.path), remote: remote,
                                journal: journaled[entry.path])
        }
        targets = Parallel.map(targets, jobs: networkJobs) { $0.resolve(cloning: false) }
        let journalFile = journalFile
        let branch = options.branch
        return Parallel.map(targets, jobs: jobs) { $0.checked(branch: branch, journalFile: journalFile) }
    }

    /// Where the manifest repository moves from and to, and what forbids that move; no place when it stays
    /// (`--modules-only`, unless an interrupted checkout had already recorded it).
    func checkedManifestPlace(at snapshotCommit: OID) -> (place: StartingPoint?, problems: [Diagnostic]) {
        guard !options.modulesOnly || journaled["."] != nil else { return (nil, []) }
        let repository = manifestRepository.repository
        var problems: [Diagnostic] = []
        do {
            if journaled["."] != nil { KilledRunLock.removeMoveLocks(of: repository, branch: options.branch, madeAfter: journalFile) }
            let place = try StartingPoint(repository, journal: journaled["."], target: snapshotCommit, journalFile: journalFile)
            let check = try MoveCheck(repository, label: "manifest repository", path: ".", to: place.target, branch: options.branch)
            problems += check.problems.map { problem in
                var problem = problem
                if !options.modulesOnly { problem.message += " (or pass --modules-only)" }
                return problem
            }
            if let branch = options.branch, let existing = try repository.branchTarget(branch), existing != place.target {
                problems.append(.error("branch \(branch) already exists at \(existing.short)", module: "manifest repository"))
            }
            return (place, problems)
        } catch {
            problems.append(.error("\(ErrorText.describe(error))", module: "manifest repository"))
            return (nil, problems)
        }
    }

    /// The targets with every missing repository cloned, wave by wave, and the repositories whose exclude file could
    /// not be made to leave out the modules inside them (path: reason).
    func cloningMissing(_ targets: [ModuleTarget]) -> (targets: [ModuleTarget], excludeFailures: [String: String]) {
        let paths = targets.map(\.entry.path)
        let manifest = workspace.manifest
        let root = root
        var excludeFailures: [String: String] = [:]
        let excludeInner = { excludeFailures.merge(NestedModules.excludeInnerPaths(paths) { manifest.directory(ofPath: $0) }) { _, new in new } }
        let cloned = NestedModules.mapInWaves(targets, path: \.entry.path, afterWave: excludeInner) { wave in
            Parallel.map(wave, jobs: networkJobs) { target in
                // Checked again wave by wave: a repository cloned in an earlier wave may hold a link an inner module's path goes through.
                guard let problem = ContainedPath.problem(target.entry.path, in: root) else { return target.exists ? target : target.resolve(cloning: true) }
                var refused = target
                refused.problems.append(.error("\(problem.message)", module: target.entry.name))
                return refused
            }
        }
        return (cloned, excludeFailures)
    }

    /// Records where every repository starts and ends before the first one moves.
    func writeJournal(_ targets: [ModuleTarget], manifestPlace: StartingPoint?) throws {
        var entries = try targets.compactMap { target -> CheckoutJournal.Entry? in
            guard let goal = target.target else { return nil }
            let old = try target.old ?? Repository.open(target.directory.path).head().commit ?? goal
            return CheckoutJournal.Entry(module: target.entry.name, path: target.entry.path, old: old.hex, target: goal.hex)
        }
        if let manifestPlace {
            entries.append(CheckoutJournal.Entry(module: nil, path: ".", old: manifestPlace.old.hex, target: manifestPlace.target.hex))
        }
        try CheckoutJournal(snapshot: snapshot, branch: options.branch, entries: entries).write(in: root, gitDir: manifestRepository.repository.gitDir)
    }

    /// Moves the modules, outer before inner, then the manifest repository.
    func move(_ targets: [ModuleTarget], manifestPlace: StartingPoint?) -> [ModuleResult<CheckoutFacts>] {
        let stamp = Syncer.backupStamp(Date())
        let branch = options.branch
        let snapshot = snapshot
        var results = NestedModules.mapInWaves(targets, path: \.entry.path) { wave in
            Parallel.map(wave, jobs: jobs) { $0.move(branch: branch, stamp: stamp, snapshot: snapshot) }
        }
        if let manifestPlace { results.append(moveManifest(to: manifestPlace, stamp: stamp)) }
        return results
    }

    private func moveManifest(to place: StartingPoint, stamp: String) -> ModuleResult<CheckoutFacts> {
        var result = ModuleResult(name: nil, path: ".", outcome: .failed, detail: "",
                                  facts: CheckoutFacts(branch: options.branch, commit: place.target.hex))
        do {
            let moved = try Mover.move(manifestRepository.repository, to: place.target, branch: options.branch, stamp: stamp,
                                       snapshot: snapshot)
            result.outcome = moved.previous == nil ? .upToDate : .updated
            result.previousCommit = moved.previous?.hex
            result.backup = moved.backup
            result.detail = moved.detail + " (tag \(snapshot))"
        } catch {
            result.detail = ErrorText.describe(error) + Mover.whereItIs(root)
        }
        return result
    }

    /// Removes the journal once every repository is at the snapshot; otherwise the warning that says how to finish.
    func finish(_ results: [ModuleResult<CheckoutFacts>]) throws -> String? {
        let failed = results.filter { $0.outcome == .failed }
        guard !failed.isEmpty else {
            try CheckoutJournal.clear(in: root)
            return nil
        }
        return "the checkout of \(snapshot) is incomplete: \(results.count - failed.count) of \(results.count) repositories are at the snapshot, "
            + "not \(failed.map { $0.name ?? "the manifest repository" }.joined(separator: ", ")); "
            + "fix the cause and run '\(CheckoutJournal(snapshot: snapshot, branch: options.branch, entries: []).resumeCommand)' again to finish"
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
