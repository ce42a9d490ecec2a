internal import CLibgit2
import Foundation

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

    /// Whether `remote` moved, found without holding a server's process past its answer: modkit's own listing of a
    /// git:// server (`GitDaemonListing`) where `access` (the remote's `gitDaemonAccess`) allows it. `.notRead` for
    /// every other url (libgit2 lists it, as before); `.leftToGit` where `access` leaves the server to git, or where the
    /// listing failed (git then reports what it finds).
    /// With `likelyMoved` nothing is listed here (`.notRead`): the listing is the download's own, over the connection
    /// it then uses (`GitDaemonFetch`). `pacing` runs right before the connection opens.
    func listRemoteWithoutHoldingServer(remote: String, access: GitDaemonAccess, refspecs: [String], prune: Bool,
                                        likelyMoved: Bool = false, pacing: (() -> Void)? = nil) -> QuickListing {
        let url: GitDaemonURL
        switch access {
        case .other: return .notRead
        case .leftToGit: return .leftToGit
        case .own(let own): url = own
        }
        guard !likelyMoved, let mappings = FetchPlan.mappings(refspecs) else { return .notRead }
        guard let advertised = try? GitDaemonListing.references(of: url, timeout: GitKit.networkTimeout, pacing: pacing) else {
            return .leftToGit
        }
        let plan = FetchPlan(into: self, remote: remote, advertised: advertised, mappings: mappings, prune: prune)
        return plan.changesNothing ? .unchanged : .moved
    }
}

/// Whether modkit opens its own connections to a remote's git:// server (`Repository.gitDaemonAccess(remote:)`).
enum GitDaemonAccess {
    /// A plain git:// url (`GitDaemonURL`), with the fast paths on.
    case own(GitDaemonURL)
    /// A git:// url, but a setting asks git to reach git:// servers otherwise or not at all: git fetches.
    case leftToGit
    /// Any other url, or the fast paths are off: libgit2 or git, as before.
    case other
}

extension Repository {
    /// Whether modkit may reach `remote`'s server itself (`GitDaemonListing`, `GitDaemonFetch`): a plain git:// url with
    /// the fast paths on. `.leftToGit` where a setting asks git to reach git:// servers otherwise or not at all
    /// (`core.gitProxy`, `GIT_PROXY_COMMAND`, `protocol.allow`, `protocol.git.allow`, `GIT_ALLOW_PROTOCOL`), which
    /// neither modkit nor libgit2 honours.
    func gitDaemonAccess(remote: String) -> GitDaemonAccess {
        guard let text = try? remoteURL(remote), text.lowercased().hasPrefix("git://") else { return .other }
        let environment = ProcessInfo.processInfo.environment
        let settings = configStrings(["core.gitProxy", "protocol.allow", "protocol.git.allow"])
        if !settings.isEmpty || environment["GIT_PROXY_COMMAND"] != nil || environment["GIT_ALLOW_PROTOCOL"] != nil { return .leftToGit }
        guard FastPaths.enabled(in: self, environment: environment), let url = GitDaemonURL(text) else { return .other }
        return .own(url)
    }
}

/// What a listing that holds no server's process found (`Repository.listRemoteWithoutHoldingServer`).
enum QuickListing {
    /// Nothing to fetch.
    case unchanged
    /// Something to fetch: the remote is listed again, over the connection its download then uses.
    case moved
    /// Not read this way: libgit2 lists it.
    case notRead
    /// git fetches, without a listing first.
    case leftToGit
}
