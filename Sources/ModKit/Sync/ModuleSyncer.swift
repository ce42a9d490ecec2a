import Foundation
import GitKit

/// Brings one repository module to its manifest revision: clones it when missing, otherwise fetches
/// and moves it only when no local work can be lost.
struct ModuleSyncer {
    let module: Module
    let directory: URL
    let url: String
    let remote: String
    let revision: String?
    /// The `<date>` part of backup refs, the same for every module of one run.
    let backupStamp: String
    /// Commits of history to fetch (`depth:` or `--depth`), 0 for all; libgit2 before 1.7 fetches all anyway.
    var depth = 0
    /// What clones and fetches (`fetch.engine`).
    let engine: any TransferEngine
    /// The shared object cache new clones are made from, if any; only where git transfers (not ssh under `auto`).
    var cache: ObjectCache? = nil
    /// The slots transfers and work-tree writes wait for (nil: none, the pool's size is the only bound).
    var gates: TransferGates? = nil
    /// Whether the remote is likely to have moved again (`SyncOrder.likelyMoved`).
    var likelyMoved = false
    let observe: @Sendable (SyncEvent) -> Void

    func run() -> ModuleResult<SyncFacts> {
        observe(.started(module: module.name))
        var result: ModuleResult<SyncFacts>
        do {
            result = try FileManager.default.fileExists(atPath: directory.path) && !isEmptyDirectory(directory)
                ? update()
                : DroppedConnection.retrying { try clone() }  // a failed clone leaves nothing behind
        } catch {
            result = self.result(.failed, "\(ErrorText.describe(error))")
        }
        observe(.finished(result))
        return result
    }

    private func result(_ outcome: ModuleOutcome, _ detail: String) -> ModuleResult<SyncFacts> {
        ModuleResult<SyncFacts>(name: module.name, path: module.path, outcome: outcome, detail: detail, facts: SyncFacts())
    }

    private var progress: (TransferProgress) -> Bool {
        let observe = self.observe
        let name = module.name
        return { transfer in
            observe(.transfer(module: name, transfer))
            return true
        }
    }

    /// A clone or fetch from `url`, in a slot of its host.
    private func transferring<T>(_ body: () throws -> T) throws -> T {
        guard let gates else { return try body() }
        return try gates.transfer(from: url, body)
    }

    /// What a transfer does that holds the server's process through a whole conversation (a clone; in a fetch, what
    /// follows a listing of modkit's own: `FetchOptions.holdingServer`), in one of the fewer slots its host has for that.
    private func holding<T>(_ body: () throws -> T) throws -> T {
        guard let gates else { return try body() }
        return try gates.holdingServer(of: url, body)
    }

    private var holdingServer: (_ body: () throws -> Void) throws -> Void { { try holding($0) } }

    /// Writing a work tree, in a local slot.
    private func writingLocally<T>(_ body: () throws -> T) throws -> T {
        guard let gates else { return try body() }
        return try gates.local(body)
    }

    // MARK: Clone

    /// Clones into a hidden staging directory beside the target and renames it into place only when
    /// complete, so an interrupted sync never leaves a half-cloned module behind.
    private func clone() throws -> ModuleResult<SyncFacts> {
        let staging = try CloneStaging.prepare(for: directory)
        do {
            let target: RevisionTarget
            var byGit: String?
            do {
                let options = TransferOptions(depth: depth, shallowRevision: ShallowRevision(manifestRevision: revision), progress: progress)
                let cache = engine is AutoEngine && GitKit.isSSHURL(url) ? nil : self.cache
                let repository = try transferring {
                    let repository = try holding {
                        try cache?.clone(url: url, to: staging.path, remote: remote, options: options)
                            ?? engine.clone(url: url, to: staging.path, remote: remote, options: options)
                    }
                    try repository.seedTagMirror(remote: remote)
                    try SpecialRef.fetch(revision, remote: remote, in: repository, engine: engine, progress: progress,
                                         holdingServer: holdingServer)
                    return repository
                }
                target = try RevisionTarget.resolve(revision, remote: remote, in: repository)
                byGit = try writingLocally { try placeFreshClone(repository, at: target, checkingOutWith: cache?.engine ?? engine) }
            }
            try CloneStaging.publish(staging, to: directory)
            var done = result(.cloned, "cloned \(target.label) at \(target.commit.short)")
            done.commit = target.commit.hex
            done.workTreeByGit = byGit
            done.transferPath = cache != nil && !(engine is AutoEngine && GitKit.isSSHURL(url))
                ? "cloned through the object cache" : "cloned by \(engine.engineName(for: url))"
            if let failure = GitHook.clone(to: target.commit).run(in: try Repository.open(directory.path)) {
                done.detail += "; " + failure
            }
            return done
        } catch {
            CloneStaging.discard(staging)
            throw error
        }
    }

    /// Puts a new clone (fetched, not yet checked out) at its target with one checkout, and drops the
    /// default branch the clone made if it is not the target.
    /// `FastPaths` decides whether libgit2 may write the work tree (where the engine would) or git must. No hook runs
    /// here, in the staging directory: `clone` runs git clone's once the repository is in place.
    private func placeFreshClone(_ repository: Repository, at target: RevisionTarget, checkingOutWith transfer: any TransferEngine) throws -> String? {
        let byGit = FastPaths.checkoutNeedsGit(repository, commit: target.commit)
        let engine: any TransferEngine = byGit == nil ? transfer : GitCLIEngine()
        let initial = try repository.head()
        switch target {
        case .branch(let name, let commit):
            if case .branch(name, _) = initial {} else {
                try repository.createBranch(name, at: commit, force: true)
            }
            if try repository.upstream(ofBranch: name) == nil {
                try repository.setUpstream(branch: name, to: "\(remote)/\(name)")
            }
            try engine.checkOutNewClone(repository, branch: name, commit: commit)
        case .tag(_, let commit), .commit(let commit):
            try engine.checkOutNewClone(repository, branch: nil, commit: commit)
        }
        if case .branch(let made, _) = initial, made != target.branchName {
            try repository.deleteReference("refs/heads/\(made)")
        }
        return byGit
    }

    // MARK: Update

    private func update() throws -> ModuleResult<SyncFacts> {
        guard Repository.isRepository(directory.path) else {
            throw ModKitError("\(module.path) exists but is not a git repository", hint: "move it away, then run modkit sync again")
        }
        let repository = try Repository.open(directory.path)
        // Pieces of the row's one detail line, after what the move says: what this update changed beside the move.
        var detailParts: [String] = []
        switch try repository.remoteURL(remote) {
        case nil:
            try repository.addRemote(remote, url: url)
            detailParts.append("added remote '\(remote)'")
        case let current? where current != url:
            guard try repository.sharesHistory(withRepositoryAt: url) else {
                throw ModKitError(
                    "the manifest url \(Redact.url(url)) has no history in common with \(module.path); remote '\(remote)' still points at \(Redact.url(current))",
                    hint: "if the module really moved to another repository, move \(module.path) away and run modkit sync again to clone it; otherwise fix its url in modkit.yml")
            }
            try repository.setRemoteURL(remote, url: url)
            detailParts.append("remote '\(remote)' now points at \(Redact.url(url)), which shares its history (was \(Redact.url(current)))")
        default:
            break
        }
        if !GitKit.supportsShallowFetch, ShallowHistory.isShallow(repository) {
            // libgit2 before 1.7 cannot walk a cut-off history, which every move below does
            try ShallowHistory.deepen(repository, remote: remote)
            detailParts.append("fetched the full history of this shallow clone (libgit2 \(GitKit.libgit2Version) cannot work on a shallow one)")
        }
        let fetched = try transferring {
            let fetched = try DroppedConnection.retrying {
                var options = FetchOptions(prune: true, downloadTags: .all, progress: progress)
                options.holdingServer = holdingServer
                options.likelyMoved = likelyMoved
                if let gates { options.pacingConnection = { [url] in gates.paceConnection(to: url) } }
                return try engine.fetch(repository, remote: remote, refspecs: [], options: options)
            }
            try SpecialRef.fetch(revision, remote: remote, in: repository, engine: engine, progress: progress,
                                 holdingServer: holdingServer)
            return fetched
        }
        if !fetched.keptLocalTags.isEmpty {
            let names = fetched.keptLocalTags
            detailParts.append("kept local tag\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) (would clobber existing tag: the remote's differs)")
        }
        var outcome: ModuleResult<SyncFacts>
        if let gone = try goneUpstream(repository, previousTips: fetched.previousTips) {
            outcome = kept(gone, commit: try repository.head().commit)
        } else {
            let target = try RevisionTarget.resolve(revision, remote: remote, in: repository)
            outcome = try writingLocally { try move(repository, to: target, previousTips: fetched.previousTips) }
        }
        if !fetched.keptLocalTags.isEmpty { outcome.keptLocalTags = fetched.keptLocalTags }
        outcome.transferPath = fetched.fetchedInProcess ? "fetched in-process (a small fetch from this machine)"
            : fetched.remoteUnchanged ? "nothing fetched (one listing showed the remote's references unchanged)"
            : fetched.downloadedOverListingBy == .modkit
                ? "fetched over modkit's own connection to the git daemon, which listed it (wants, haves and done in one write)"
            : fetched.downloadedOverListingBy == .libgit2
                ? "fetched by libgit2 over the listing's connection (offering where the moved references were)"
            : "fetched by \(engine.engineName(for: try repository.remoteURL(remote) ?? url))"
        if !detailParts.isEmpty { outcome.detail += "; " + detailParts.joined(separator: "; ") }
        return outcome
    }

    /// "upstream gone: …" when the manifest branch, or the branch checked out, was deleted on the remote (and pruned now).
    private func goneUpstream(_ repository: Repository, previousTips: [String: OID]) throws -> String? {
        if let revision, previousTips[revision] != nil, try repository.remoteBranchTarget(remote: remote, branch: revision) == nil,
           try repository.reference("refs/tags/\(revision)") == nil {
            return "upstream gone: \(remote)/\(revision) was deleted on the remote; \(revision) is left as it is (push it again, or change the module's revision in modkit.yml)"
        }
        if case .branch(let current, _) = try repository.head(), current != revision,
           let (upstream, target) = try repository.tracking(ofBranch: current), target == nil,
           upstream.hasPrefix(remote + "/"), previousTips[String(upstream.dropFirst(remote.count + 1))] != nil {
            return "upstream gone: \(upstream) was deleted on the remote; \(current) is left as it is (push it again, or switch branches)"
        }
        return nil
    }

    /// Moves HEAD to the target when that loses nothing; otherwise explains why it stays. An earlier move that was
    /// interrupted is finished first; every move goes through `WorkTreeMove`, which refuses before writing anything.
    private func move(_ repository: Repository, to target: RevisionTarget, previousTips: [String: OID]) throws -> ModuleResult<SyncFacts> {
        do {
            // A sync killed mid-move may also have left the index, HEAD or branch lock it was holding.
            try KilledRunLock.removeInterruptedMoveLocks(of: repository)
            let finished = try WorkTreeMove.recoverIfInterrupted(repository)
            var outcome = try moveChecked(repository, to: target, previousTips: previousTips)
            if let finished { outcome.detail += "; finished the interrupted move to \(finished.to.short)" }
            return outcome
        } catch let refusal as WorkTreeMoveRefusal {
            return kept("\(refusal) (\(refusal.hint))", commit: try? repository.head().commit)
        }
    }

    /// Local changes (untracked files never count) are read only where a move would happen, so a sync with nothing
    /// new reads no work tree; they are read once and handed to the move, which then does not read them again.
    private func moveChecked(_ repository: Repository, to target: RevisionTarget, previousTips: [String: OID]) throws -> ModuleResult<SyncFacts> {
        let head = try repository.head()
        let step: MoveStep
        switch (target, head) {
        case (.branch(let name, let commit), .branch(let current, let local)) where current == name:
            step = try follow(repository, branch: name, to: commit, from: local, previousTips: previousTips)

        case (.branch(let name, let commit), .branch(let current, let local))
            where try repository.upstream(ofBranch: current) == nil || repository.configString(TopicBranch.markKey(current)) == "true":
            // A topic branch (e.g. from `modkit start`) stays checked out; the manifest branch follows in the background.
            let note = try advanceInBackground(repository, branch: name, to: commit)
            var outcome = result(.upToDate, "on topic branch \(current); \(note)")
            outcome.commit = local.hex
            return outcome

        case (.branch(let name, let commit), _):
            step = try switchBranch(repository, from: head, to: name, at: commit)

        case (.tag(_, let commit), _), (.commit(let commit), _):
            step = try detach(repository, from: head, at: commit, label: target.label)
        }
        switch step {
        case .final(let outcome):
            return outcome
        case .moving(var outcome, let move):
            outcome.commit = target.commit.hex
            outcome.workTreeByGit = move.byGit
            if let backup = outcome.backup { outcome.detail += "; saved the old HEAD as \(backup)" }
            if let failure = move.hookFailure { outcome.detail += "; " + failure }
            return outcome
        }
    }

    /// What one case of `moveChecked` came to: a result as it stands (kept, ahead of the remote), or one that
    /// `moveChecked` completes with the target commit, the move's report, the backup and a failed hook.
    private enum MoveStep {
        case final(ModuleResult<SyncFacts>)
        case moving(ModuleResult<SyncFacts>, MoveReport)
    }

    /// HEAD on the manifest branch: a fast-forward, following an upstream rewrite (force-push), or kept.
    private func follow(_ repository: Repository, branch name: String, to commit: OID, from local: OID,
                        previousTips: [String: OID]) throws -> MoveStep {
        if try repository.upstream(ofBranch: name) == nil {
            try repository.setUpstream(branch: name, to: "\(remote)/\(name)")
        }
        if local == commit {
            return .moving(result(.upToDate, "up to date on \(name)"), MoveReport())
        } else if try repository.isDescendant(commit, of: local) {
            let work = try repository.localChanges()
            if !work.isEmpty { return .final(kept("local changes\(named(work)); \(remote)/\(name) has new commits", commit: local)) }
            let count = try repository.aheadBehind(local: local, upstream: commit).behind
            let move = try WorkTreeMove.perform(repository, to: commit, branch: name,
                                                logMessage: "modkit sync: fast-forward \(name) to \(commit.short)", localChanges: work,
                                                hook: .fastForward)
            var outcome = result(.updated, "fast-forwarded \(name) by \(count) commit\(count == 1 ? "" : "s")")
            outcome.previousCommit = local.hex
            return .moving(outcome, move)
        } else if let rewrite = try UpstreamRewrite.classify(repository, remote: remote, branch: name, local: local,
                                                             upstream: commit, previous: previousTips[name]) {
            guard case .follow = rewrite else { return .final(kept(rewrite.reason, commit: local)) }
            if try !repository.localChanges().isEmpty { return .final(kept("local changes; \(rewrite.reason)", commit: local)) }
            var outcome = result(.updated, "followed \(remote)/\(name), which was rewritten (force-pushed)")
            outcome.backup = try UpstreamRewrite.saveOldTip(repository, branch: name, commit: local, stamp: backupStamp)
            let move = try WorkTreeMove.perform(repository, to: commit, branch: name,
                                                logMessage: "modkit sync: follow rewritten upstream \(name) to \(commit.short)")
            outcome.previousCommit = local.hex
            return .moving(outcome, move)
        } else if try repository.isDescendant(local, of: commit) {
            let ahead = try repository.aheadBehind(local: local, upstream: commit).ahead
            var outcome = result(.upToDate, "\(name) is \(ahead) commit\(ahead == 1 ? "" : "s") ahead of \(remote)/\(name) (not pushed)")
            outcome.commit = local.hex
            return .final(outcome)
        } else {
            return .final(kept("local commits on \(name) diverge from \(remote)/\(name)", commit: local))
        }
    }

    /// HEAD elsewhere than the manifest branch (and not on a topic branch): switched to it when that loses nothing.
    private func switchBranch(_ repository: Repository, from head: Head, to name: String, at commit: OID) throws -> MoveStep {
        let work = try repository.localChanges()
        if !work.isEmpty { return .final(kept("local changes\(named(work))", commit: head.commit)) }
        if let existing = try repository.branchTarget(name), existing != commit {
            guard try repository.isDescendant(commit, of: existing) else {
                return .final(kept("local branch \(name) diverges from \(remote)/\(name)", commit: head.commit))
            }
        }
        try WorkTreeMove.preflight(repository, to: commit, branch: name, localChanges: work)
        var outcome = result(.updated, "switched to \(name)")
        outcome.backup = try backupIfUnreachable(repository, head: head)
        let move = try WorkTreeMove.perform(repository, to: commit, branch: name, logMessage: "modkit sync: switch to \(name)", localChanges: work)
        try repository.setUpstream(branch: name, to: "\(remote)/\(name)")
        outcome.previousCommit = head.commit?.hex
        return .moving(outcome, move)
    }

    /// A tag or commit revision: HEAD detached there when that loses nothing.
    private func detach(_ repository: Repository, from head: Head, at commit: OID, label: String) throws -> MoveStep {
        if case .detached(commit) = head {
            return .moving(result(.upToDate, "detached at \(label)"), MoveReport())
        }
        let work = try repository.localChanges()
        if !work.isEmpty { return .final(kept("local changes\(named(work))", commit: head.commit)) }
        try WorkTreeMove.preflight(repository, to: commit, branch: nil, localChanges: work)
        var outcome = result(.updated, "detached at \(label)")
        outcome.backup = try backupIfUnreachable(repository, head: head)
        let move = try WorkTreeMove.perform(repository, to: commit, branch: nil, logMessage: "modkit sync: detach at \(label)",
                                            localChanges: work)
        outcome.previousCommit = head.commit?.hex
        return .moving(outcome, move)
    }

    /// " in a, b and 3 more" for the paths holding local work.
    private func named(_ local: LocalChanges) -> String {
        let paths = local.conflicted + local.paths
        guard !paths.isEmpty else { return "" }
        return " in " + paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? " and \(paths.count - 3) more" : "")
    }

    private func kept(_ reason: String, commit: OID?) -> ModuleResult<SyncFacts> {
        var outcome = result(.kept, "kept: \(reason)")
        outcome.commit = commit?.hex
        return outcome
    }

    /// Moves or creates the local manifest branch without touching HEAD, when that is a fast-forward.
    private func advanceInBackground(_ repository: Repository, branch: String, to commit: OID) throws -> String {
        guard let existing = try repository.branchTarget(branch) else {
            try repository.createBranch(branch, at: commit)
            try repository.setUpstream(branch: branch, to: "\(remote)/\(branch)")
            return "created \(branch)"
        }
        if existing == commit { return "\(branch) up to date" }
        guard try repository.isDescendant(commit, of: existing) else { return "\(branch) has local commits; left as is" }
        if let worktree = try WorkTreeMove.linkedWorktree(holding: branch, in: repository) {
            return "\(branch) is checked out in the linked worktree \(worktree); left as is"
        }
        try repository.fastForward(branch: branch, to: commit)
        return "fast-forwarded \(branch)"
    }

    /// Saves a detached HEAD that no ref reaches under `refs/modkit/backup/<date>/HEAD` before it is left.
    private func backupIfUnreachable(_ repository: Repository, head: Head) throws -> String? {
        try HeadBackup.saveIfUnreachable(repository, head: head, stamp: backupStamp, command: "modkit sync")
    }

    private func isEmptyDirectory(_ url: URL) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path).isEmpty) ?? false
    }
}

extension RevisionTarget {
    var branchName: String? {
        if case .branch(let name, _) = self { return name }
        return nil
    }
}

extension Head {
    var commit: OID? {
        switch self {
        case .branch(_, let commit): return commit
        case .detached(let commit): return commit
        case .unborn: return nil
        }
    }
}
