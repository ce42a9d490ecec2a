internal import CLibgit2

// A fetch from a remote across a network whose references have not moved needs only the remote's reference list.
// libgit2 speaks protocol v0, where that list is the server's first answer: one round trip after the connection is
// set up (git's own fetch over protocol v2 asks for it in a second request, and starts a process). When the list
// maps onto exactly the references the last fetch wrote, the fetch is skipped; when it does not, the fetch can run
// over the same connection (`Repository.fetch(over:plan:refspecs:)`).

/// What one listing of a remote's references says about a fetch from it.
enum RemoteListing {
    /// Every reference the remote advertises already lands where the fetch would put it, and nothing would be pruned.
    case unchanged
    /// The remote was listed (over protocol v0, libgit2's only one) and the fetch would change something: the
    /// connection, still open, and what the fetch would do to the references here.
    case changed(RemoteSession, FetchPlan)
    /// The remote could not be listed, or the refspecs are of a form the comparison does not read.
    case unknown
}

extension Repository {
    /// Lists `remote` and works out what fetching `refspecs` (each `[+]refs/a/*:refs/b/*` or `[+]refs/a/x:refs/b/x`)
    /// would do here, deleting with `prune` what the remote no longer has (`FetchPlan`). `.unchanged` only when it
    /// would change nothing, `.unknown` for other refspec forms or a remote that cannot be listed. `progress` sees the
    /// download over the same connection, if one follows.
    func listRemoteForFetch(remote: String, refspecs: [String], prune: Bool,
                            progress: ((TransferProgress) -> Bool)? = nil) -> RemoteListing {
        guard let mappings = FetchPlan.mappings(refspecs) else { return .unknown }
        guard let session = try? RemoteSession(self, remote: remote, progress: progress) else {
            git_error_clear()
            return .unknown
        }
        let plan = FetchPlan(into: self, remote: remote, advertised: session.references, mappings: mappings, prune: prune)
        return plan.changesNothing ? .unchanged : .changed(session, plan)
    }
}
