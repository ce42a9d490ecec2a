import GitKit

/// A local branch and its upstream that diverge because the upstream was rewritten (force-pushed), told apart
/// from ordinary local commits by the tips the remote-tracking branch had before (this fetch's and its reflog).
enum UpstreamRewrite {
    /// The branch has no commits of its own: it follows the new upstream, its old tip saved first.
    case follow(reason: String)
    /// The branch has commits of its own on top of the old upstream: it is kept.
    case keep(reason: String)

    var reason: String {
        switch self {
        case .follow(let reason), .keep(let reason): return reason
        }
    }

    /// nil when the upstream was not rewritten (the branch has commits the upstream never had).
    static func classify(_ repository: Repository, remote: String, branch: String, local: OID, upstream: OID,
                         previous: OID?) throws -> UpstreamRewrite? {
        let tracking = "refs/remotes/\(remote)/\(branch)"
        var earlier = (previous.map { [$0] } ?? []) + ((try? repository.reflogTargets(tracking)) ?? [])
        earlier.removeAll { $0 == upstream }
        // Old upstream tips the new one does not contain: the upstream was rewritten after them.
        let rewritten = try earlier.filter { try repository.hasCommit($0) && !repository.isDescendant(upstream, of: $0) }
        guard let newest = rewritten.first else { return nil }
        let upstreamName = "\(remote)/\(branch)"
        if try rewritten.contains(where: { try $0 == local || repository.isDescendant($0, of: local) }) {
            return .follow(reason: "upstream was rewritten: \(upstreamName) was force-pushed")
        }
        let own = (try? repository.aheadBehind(local: local, upstream: newest).ahead) ?? 0
        return .keep(reason: "upstream was rewritten: \(upstreamName) was force-pushed, and \(branch) has \(own) commit\(own == 1 ? "" : "s") of its own on the old history (rebase them onto \(upstreamName), e.g. git rebase --onto \(upstreamName) \(newest.short) \(branch))")
    }

    /// Saves the branch's old tip as `refs/modkit/backup/<stamp>/<branch>` before it follows the rewrite.
    static func saveOldTip(_ repository: Repository, branch: String, commit: OID, stamp: String) throws -> String {
        try HeadBackup.save(repository, commit: commit, as: branch, stamp: stamp,
                            logMessage: "modkit sync: save \(branch) before following its rewritten upstream")
    }
}
