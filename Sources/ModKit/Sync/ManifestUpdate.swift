import Foundation
import GitKit

/// Brings the manifest repository's branch up to its upstream by fast-forward only, so that a teammate's
/// new modkit.yml is what the modules are synced to. Never over local changes: a file the update would
/// change that is modified here keeps the repository where it is.
public enum ManifestUpdate {
    /// nil when the workspace is not inside a git repository.
    public static func run(_ workspace: Workspace) -> ModuleResult<SyncFacts>? {
        guard let repository = try? Repository.discover(from: workspace.root.path) else { return nil }
        do {
            guard case .branch(let branch, let local) = try repository.head() else {
                return row(.skipped, "not on a branch; not updated")
            }
            guard let remote = try repository.remoteOfUpstream(branch: branch), try repository.tracking(ofBranch: branch) != nil else {
                return row(.skipped, "\(branch) has no upstream; not updated", commit: local.hex)
            }
            try repository.fetch(remote: remote)
            guard let (upstream, fetched) = try repository.tracking(ofBranch: branch), let target = fetched else {
                return row(.kept, "\(branch)'s upstream is gone from \(remote)", commit: local.hex)
            }
            var result = row(.upToDate, "\(branch) up to date", commit: local.hex, previousCommit: local.hex)
            if target == local { return result }
            if try repository.isDescendant(local, of: target) {
                result.detail = "\(branch) is ahead of \(upstream) (not pushed)"
                return result
            }
            guard try repository.isDescendant(target, of: local) else {
                result.outcome = .kept
                result.detail = "\(branch) and \(upstream) have diverged; merge or rebase it, then sync again"
                return result
            }
            let count = try repository.aheadBehind(local: local, upstream: target).behind
            do {
                try WorkTreeMove.perform(repository, to: target, branch: branch,
                                         logMessage: "modkit sync: fast-forward \(branch) to \(target.short)", hook: .fastForward)
            } catch let refusal as WorkTreeMoveRefusal {
                result.outcome = .kept
                result.detail = refusal.reason.hasPrefix("local changes")
                    ? "local changes to files the update changes (\(refusal.paths.joined(separator: ", "))); commit or stash them, then sync again"
                    : "\(refusal) (\(refusal.hint))"
                return result
            }
            result.outcome = .updated
            result.commit = target.hex
            result.detail = "fast-forwarded \(branch) by \(count) commit\(count == 1 ? "" : "s")"
            return result
        } catch {
            return row(.failed, ErrorText.describe(error))
        }
    }

    /// The manifest repository's row: no name, path ".".
    private static func row(_ outcome: ModuleOutcome, _ detail: String, commit: String? = nil, previousCommit: String? = nil) -> ModuleResult<SyncFacts> {
        ModuleResult(name: nil, path: ".", outcome: outcome, detail: detail, facts: SyncFacts(commit: commit, previousCommit: previousCommit))
    }
}
