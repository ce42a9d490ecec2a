internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Moves one repository's HEAD, index and work tree to another commit as a transaction: everything that could stop
/// the move is checked before anything is written (`preflight`); the move is recorded in `<git dir>/modkit/move` before
/// the first file changes; files are replaced by rename (never rewritten in place); then the index, then the
/// references; then the record is removed. A move interrupted at any moment (kill -9, Ctrl-C, power loss, a full
/// disk) is finished by the next `perform` or `recoverIfInterrupted`, which keeps every path whose content is
/// neither the old nor the new commit's: that is the user's.
public enum WorkTreeMove {
    /// What an interrupted move was, once `recoverIfInterrupted` has finished (or undone) it.
    public typealias Recovered = MoveJournal

    /// Checks, without writing anything, that moving to `commit` (on local branch `branch`, or detached when nil)
    /// can complete; throws a `WorkTreeMoveRefusal` naming the cause otherwise. `checkout SNAPSHOT` calls it for every
    /// repository before it moves any. Local changes to paths the move does not touch are carried, as `git checkout` does.
    /// After an interrupted move, it checks that the move can be finished (as `recoverIfInterrupted` would);
    /// a further move from there to another commit is checked by `perform` once the first is finished.
    /// `localChanges`: what `Repository.localChanges()` just returned, when the caller read it (not read again).
    public static func preflight(_ repository: Repository, to commit: OID, branch: String?, localChanges: LocalChanges? = nil) throws {
        if let journal = try MoveJournal.read(gitDir: repository.gitDir) {
            try MovePreflight.checkNotBusy(repository, branch: journal.toBranch)
            // git's own checks run when it finishes the move; modkit's writer's are made here
            if journal.writer == .modkit { _ = try recoveryPlan(repository, journal) }
            return
        }
        let plan = try MovePlan(repository, from: try repository.head().commit, to: commit)
        try MovePreflight.run(repository, plan, branch: branch, localChanges: localChanges)
    }

    /// The lock files (absolute paths) git takes for what a move to `branch` (nil: detached) writes; any of them
    /// present makes `preflight` refuse.
    public static func lockFiles(in repository: Repository, branch: String?) -> [String] {
        MovePreflight.lockFiles(repository, branch: branch)
    }

    /// Where a move keeps its journal while it runs (`<git dir>/modkit/move`).
    public static func journalFile(in repository: Repository) -> String {
        MoveJournal.path(gitDir: repository.gitDir)
    }

    /// The move that was interrupted in `repository` and not finished yet; nil when there is none.
    public static func interruptedMove(in repository: Repository) throws -> MoveJournal? {
        try MoveJournal.read(gitDir: repository.gitDir)
    }

    /// Moves HEAD to `commit`: on local branch `branch` (created or moved there: the caller decides whether that
    /// loses commits), or detached when `branch` is nil. Finishes an interrupted earlier move first. Throws a
    /// `WorkTreeMoveRefusal` when it did not start (nothing written); any other error leaves the journal, and the
    /// next call finishes the move. `localChanges`: what `Repository.localChanges()` just returned, when the caller
    /// read it; used only when no interrupted move had to be finished first (which changes the work tree).
    /// `hook`: the git command the move stands for (default: `git checkout` from HEAD to `commit`), whose hook runs
    /// once the move is complete.
    @discardableResult
    public static func perform(_ repository: Repository, to commit: OID, branch: String?, logMessage: String,
                               localChanges: LocalChanges? = nil, hook: GitHook? = nil) throws -> MoveReport {
        let recovered = try recoverIfInterrupted(repository)
        let head = try repository.head()
        var journal = MoveJournal(from: head.commit, fromBranch: head.branchName, to: commit, toBranch: branch,
                                  toBranchPrevious: try branch.flatMap { try repository.branchTarget($0) },
                                  started: timestamp())
        if journal.from == commit, journal.fromBranch == branch, journal.toBranchPrevious == (branch == nil ? nil : commit) {
            return MoveReport()
        }
        let plan = try MovePlan(repository, from: journal.from, to: commit)
        try MovePreflight.run(repository, plan, branch: branch, localChanges: recovered == nil ? localChanges : nil)
        let settings = FastPaths.MoveSettings(repository)
        let byGit = FastPaths.moveNeedsGit(repository, plan, settings: settings)
        journal.writer = byGit == nil ? .modkit : .git
        journal.hook = hook ?? .checkout(from: head.commit, to: commit)
        try journal.write(gitDir: repository.gitDir)
        if byGit == nil {
            try MoveWriter(repository: repository, plan: plan).writeWorkTree()
        } else {
            do {
                try GitMove.write(repository, plan)
            } catch let refusal as WorkTreeMoveRefusal {
                try MoveJournal.clear(gitDir: repository.gitDir)
                throw refusal
            }
        }
        var report = try finish(repository, plan, journal, logMessage: logMessage, hooksPath: settings.hooksPath)
        report.byGit = byGit
        return report
    }

    /// Finishes a move that was interrupted (nil when there was none: one failed `open` on the fast path), or with
    /// `undo` puts the repository back where it was before it. Every path the move changes must hold its old or new
    /// content (or nothing); paths holding anything else are the user's: nothing is written and a
    /// `WorkTreeMoveRefusal` names them.
    @discardableResult
    public static func recoverIfInterrupted(_ repository: Repository, undo: Bool = false) throws -> Recovered? {
        guard let journal = try MoveJournal.read(gitDir: repository.gitDir) else { return nil }
        try MovePreflight.checkUnlocked(repository, branch: journal.toBranch)
        if undo && journal.from == nil {
            throw WorkTreeMoveRefusal(reason: "an interrupted move from an unborn branch cannot be undone", paths: [],
                                      hint: "run the command without undoing to finish the move")
        }
        let target = undo ? journal.reversed : journal
        let plan: MovePlan
        if journal.writer == .git {
            plan = try MovePlan(repository, from: target.from, to: target.to)
            try GitMove.recover(repository, plan, started: journal.started)
        } else {
            let (modkitPlan, state) = try recoveryPlan(repository, target)
            plan = modkitPlan
            try MoveWriter(repository: repository, plan: plan).writeWorkTree(skipping: state.done)
        }
        let message = undo ? "modkit: undo interrupted move" : "modkit: finish interrupted move"
        try finish(repository, plan, target, logMessage: message) {
            // Undoing also puts back the branch the move created or moved, when HEAD returns to another one.
            guard undo, let moved = journal.toBranch, moved != journal.fromBranch else { return }
            if let previous = journal.toBranchPrevious {
                try repository.setReference("refs/heads/" + moved, to: previous, force: true, logMessage: message)
            } else if try repository.branchTarget(moved) != nil {
                try repository.deleteReference("refs/heads/" + moved)
            }
        }
        return journal
    }

    /// The linked worktree (its directory) that has `branch` checked out or is rebasing it; nil when none does.
    public static func linkedWorktree(holding branch: String, in repository: Repository) throws -> String? {
        let own = repository.directory
        var others = ((try? FileManager.default.contentsOfDirectory(atPath: own.worktrees)) ?? [])
            .map { GitDirectory(path: own.worktrees + "/" + $0, common: own.common) }
        if own.common != own.path { others.append(GitDirectory(path: own.common, common: own.common)) }
        for other in others where other.path != own.path {
            let heads = ["HEAD", "rebase-merge/head-name", "rebase-apply/head-name"].compactMap {
                FileManager.default.contents(atPath: other.operationMarker($0)).map { String(decoding: $0, as: UTF8.self) }
            }
            guard heads.contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("refs/heads/\(branch)") }) else { continue }
            let gitDir = other.path
            let link = FileManager.default.contents(atPath: other.workTreeLink).map { String(decoding: $0, as: UTF8.self) }
            let path = link?.trimmingCharacters(in: .whitespacesAndNewlines) ?? gitDir
            return path.hasSuffix("/.git") ? String(path.dropLast(5)) : path
        }
        return nil
    }

    /// What finishing `journal`'s move writes, once it is established that every path it changes holds its old or
    /// new content and that no user file stands where it writes; reads only.
    private static func recoveryPlan(_ repository: Repository, _ journal: MoveJournal) throws -> (MovePlan, MoveRecovery.State) {
        let plan = try MovePlan(repository, from: journal.from, to: journal.to)
        let state = try MoveRecovery(repository: repository, plan: plan).classify()
        if !state.foreign.isEmpty {
            throw WorkTreeMoveRefusal(
                reason: "an interrupted move from \(journal.from?.short ?? "nothing") to \(journal.to.short) left paths that match neither commit",
                paths: state.foreign,
                hint: "these are your changes: save them elsewhere and remove them, then run the command again to finish the move")
        }
        try MovePreflight.checkObstacles(repository, plan, recovering: true)
        return (plan, state)
    }

    /// Index (unless git wrote it), then references, then the journal is cleared: the move is done. Then the hook
    /// of the git command it stands for runs, as git runs it after its own work.
    @discardableResult
    private static func finish(_ repository: Repository, _ plan: MovePlan, _ journal: MoveJournal, logMessage: String,
                               hooksPath: String?? = nil, then restore: () throws -> Void = {}) throws -> MoveReport {
        if journal.writer == .modkit { try MoveIndex(repository: repository, plan: plan).write() }
        if let branch = journal.toBranch {
            let name = "refs/heads/" + branch
            if try repository.reference(name) != journal.to {
                try repository.setReference(name, to: journal.to, force: true, logMessage: logMessage)
            }
            if try repository.head().branchName != branch {
                try check(git_repository_set_head(repository.pointer, name), "git_repository_set_head")
            }
        } else {
            var raw = journal.to.gitOID
            try check(git_repository_set_head_detached(repository.pointer, &raw), "git_repository_set_head_detached")
        }
        try restore()
        try MoveJournal.clear(gitDir: repository.gitDir)
        guard let hook = journal.hook else { return MoveReport() }
        return MoveReport(hookFailure: hooksPath.map { hook.run(in: repository, hooksPath: $0) } ?? hook.run(in: repository))
    }

    /// Now as `2026-12-02T06:03:09Z`; by hand, as a new ISO8601DateFormatter per move cost more than the move's
    /// index write.
    static func timestamp(_ date: Date = Date()) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}

/// How a move went: who wrote its work tree, and what its hook said.
public struct MoveReport: Sendable, Equatable {
    /// Why git wrote the work tree (see `FastPaths`); nil when modkit did.
    public var byGit: String?
    /// The hook's failure, when it failed (the move is complete all the same, as with git).
    public var hookFailure: String?

    public init(byGit: String? = nil, hookFailure: String? = nil) {
        self.byGit = byGit
        self.hookFailure = hookFailure
    }
}

extension MoveJournal {
    /// The move that undoes this one: back to the old commit and branch, the moved branch back to its old tip.
    var reversed: MoveJournal {
        MoveJournal(from: to, fromBranch: toBranch, to: from ?? to, toBranch: fromBranch,
                    toBranchPrevious: from, started: started, writer: writer, hook: nil)
    }
}

extension Head {
    var branchName: String? {
        switch self {
        case .branch(let name, _), .unborn(let name): return name
        case .detached: return nil
        }
    }

    var commit: OID? {
        switch self {
        case .branch(_, let commit), .detached(let commit): return commit
        case .unborn: return nil
        }
    }
}
