import Foundation
import GitKit

/// One repository module of the snapshot on its way back to the recorded commit; plain values only, so it can cross threads.
struct ModuleTarget: Sendable {
    var entry: Snapshot.Entry
    var directory: URL
    var remote: String
    /// What an interrupted checkout of this snapshot recorded for the repository.
    var journal: CheckoutJournal.Entry?
    var target: OID?
    /// HEAD's commit the move starts from (the journal's when a move was interrupted).
    var old: OID?
    var cloned = false
    var note: String?
    var problems: [Diagnostic] = []
    var warnings: [Diagnostic] = []

    init(entry: Snapshot.Entry, directory: URL, remote: String, journal: CheckoutJournal.Entry?) {
        self.entry = entry
        self.directory = directory
        self.remote = remote
        self.journal = journal
    }

    var exists: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// Makes the recorded commit available: fetches it when it is not here (a missing repository is cloned only
    /// with `cloning`), and falls back to the module's tag when the commit has vanished from the remote.
    func resolve(cloning: Bool) -> ModuleTarget {
        var copy = self
        guard let hex = entry.commit, let recorded = OID(hex: hex) else {
            copy.problems.append(.error("the snapshot records no commit", module: entry.name))
            return copy
        }
        if !exists, !cloning { return copy }
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
            guard Repository.isRepository(directory.path) else { throw ModKitError("\(entry.path) exists but is not a git repository") }
            let repository = try Repository.open(directory.path)
            if !repository.hasCommit(recorded) {
                if try repository.remoteURL(remote) == nil, let url = entry.url { try repository.addRemote(remote, url: url) }
                try ShallowHistory.deepen(repository, remote: remote)  // a `--depth` clone lacks older commits
                if !repository.hasCommit(recorded) { try repository.fetch(remote: remote, options: FetchOptions(downloadTags: .all)) }
            }
            let tag = try entry.tag.flatMap { try repository.tagTarget($0) }
            if repository.hasCommit(recorded) {
                copy.target = recorded
                if let tag, let name = entry.tag, tag.commit != recorded {
                    copy.warnings.append(.warning("tag \(name) has moved since the snapshot (now on \(tag.commit.short), recorded \(recorded.short))", module: entry.name))
                }
            } else if let tag, let name = entry.tag {
                copy.target = tag.commit
                copy.note = "commit \(recorded.short) has vanished from the remote; used tag \(name) (\(tag.commit.short)) instead"
                copy.warnings.append(.warning(copy.note!, module: entry.name))
            } else {
                copy.problems.append(.error("commit \(recorded.short) is not on remote '\(remote)' and there is no tag \(entry.tag ?? "for it") to fall back to",
                                            module: entry.name))
            }
        } catch {
            copy.problems.append(.error("\(ErrorText.describe(error))", module: entry.name))
        }
        return copy
    }

    /// Everything that forbids moving this repository (see `MoveCheck`), read without writing anything.
    func checked(branch: String?, journalFile: URL) -> ModuleTarget {
        var copy = self
        guard exists, let target = copy.target, problems.isEmpty else { return copy }
        do {
            let repository = try Repository.open(directory.path)
            if journal != nil { KilledRunLock.removeMoveLocks(of: repository, branch: branch, madeAfter: journalFile) }
            let place = try StartingPoint(repository, journal: journal, target: target, journalFile: journalFile)
            copy.old = place.old
            copy.target = place.target
            copy.problems += try MoveCheck(repository, label: entry.name, path: entry.path, to: place.target, branch: branch).problems
            if let branch, let existing = try repository.branchTarget(branch), existing != place.target {
                copy.problems.append(.error("branch \(branch) already exists at \(existing.short)", module: entry.name))
            }
        } catch {
            copy.problems.append(.error("\(ErrorText.describe(error))", module: entry.name))
        }
        return copy
    }

    func move(branch: String?, stamp: String, snapshot: String) -> ModuleResult<CheckoutFacts> {
        var result = ModuleResult(name: entry.name, path: entry.path, outcome: .failed, detail: "",
                                  facts: CheckoutFacts(branch: branch, commit: target?.hex))
        guard let target else { return result }
        do {
            let repository = try Repository.open(directory.path)
            let moved = try Mover.move(repository, to: target, branch: branch, stamp: stamp, snapshot: snapshot)
            result.outcome = cloned ? .cloned : (moved.previous == nil ? .upToDate : .updated)
            result.previousCommit = moved.previous?.hex
            result.backup = moved.backup
            result.detail = moved.detail + (note.map { "; \($0)" } ?? "")
        } catch {
            result.detail = ErrorText.describe(error) + Mover.whereItIs(directory)
        }
        return result
    }
}

/// Where a repository's move starts: its HEAD, or, after an interrupted checkout, the commit the journal recorded.
/// A repository whose own move was cut short still has HEAD there: `WorkTreeMove` finishes that move first.
struct StartingPoint {
    var old: OID
    var target: OID

    init(_ repository: Repository, journal: CheckoutJournal.Entry?, target: OID, journalFile: URL) throws {
        guard let head = try repository.head().commit else {
            throw ModKitError("HEAD has no commit (unborn branch)")
        }
        old = head
        self.target = target
        guard let journal, let recordedOld = OID(hex: journal.old), let recordedTarget = OID(hex: journal.target) else { return }
        self.target = recordedTarget
        guard head == recordedTarget || head == recordedOld else {
            throw ModKitError("HEAD is at \(head.short), neither where the interrupted checkout found it (\(recordedOld.short)) "
                + "nor its target (\(recordedTarget.short)); left as it is (check it out at one of them, or remove \(journalFile.path))")
        }
    }
}
