internal import CLibgit2
import Foundation

// At internet distance a fetch is round trips: the connection, the reference list, the negotiation, the pack. A sync
// lists each remote's references first and skips the remotes that did not move (`listRemoteForFetch`); the fetch of one
// that moved then runs over the same connection (a git:// socket stays open, an http(s) connection is kept alive), so
// it pays no second connection, reference list or process.
//
// libgit2 downloads, but it does not choose the commits it offers as common history: it offers every reference here,
// in an order that made libgit2 1.5 download whole stale branches (docs/transfers.md). For the negotiation alone the
// repository's reference database is swapped for one that holds only the commits modkit chose: where the references
// that move are now, which the server had at the last fetch.

/// One open connection to a remote: its references, listed once when it opened, then at most one download.
/// The connection closes when the session is released.
final class RemoteSession {
    let repository: Repository
    /// What the remote advertised, as `git ls-remote` shows it (peeled entries end in "^{}").
    let references: [RemoteReference]
    private let handle: RemoteHandle
    private let box: RemoteCallbacksBox

    /// Connects to `remote` with the proxy git itself would use (http.proxy, the environment) and lists its references.
    /// `progress` sees the download's progress, if one follows.
    init(_ repository: Repository, remote: String, progress: ((TransferProgress) -> Bool)? = nil) throws(GitError) {
        self.repository = repository
        let handle = try repository.lookupRemote(remote)
        let box = RemoteCallbacksBox(transferProgress: progress)
        var callbacks = git_remote_callbacks()
        try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
        var proxy = git_proxy_options()
        try check(git_proxy_options_init(&proxy, UInt32(GIT_PROXY_OPTIONS_VERSION)), "git_proxy_options_init")
        proxy.type = GIT_PROXY_AUTO
        box.install(into: &callbacks)
        try box.run { () throws(GitError) in
            try check(git_remote_connect(handle.pointer, GIT_DIRECTION_FETCH, &callbacks, &proxy, nil), "git_remote_connect")
        }
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        try check(git_remote_ls(&heads, &count, handle.pointer), "git_remote_ls")
        references = (0..<count).compactMap { index in
            guard let head = heads?[index] else { return nil }
            var oid = head.pointee.oid
            return RemoteReference(name: String(cString: head.pointee.name), target: OID(withUnsafePointer(to: &oid) { $0.pointee }))
        }
        self.handle = handle  // freeing the remote disconnects it
        self.box = box
    }

    /// Downloads over this connection the objects `refspecs` need that are not here, offering as common history only
    /// `haves` (commits or tags of them here) and their ancestors, and writes no reference. libgit2 keeps the pack
    /// (`Repository.unpackSmallPacks` makes a small one loose, as git does).
    func download(refspecs: [String], haves: [OID]) throws(GitError) {
        var options = git_fetch_options()
        try check(git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        options.prune = GIT_FETCH_NO_PRUNE
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.update_fetchhead = 0
        options.proxy_opts.type = GIT_PROXY_AUTO
        box.install(into: &options.callbacks)
        let handle = self.handle
        try repository.withNegotiationReferences(haves) { () throws(GitError) in
            try box.run { () throws(GitError) in
                _ = try withStrarray(refspecs) { (array) throws(GitError) in
                    try check(git_remote_download(handle.pointer, array, &options), "git_remote_download")
                }
            }
        }
    }
}

extension Repository {
    /// Runs `body` with this repository's reference database replaced by a read-only one that holds only `commits` (as
    /// `refs/modkit/negotiation/<n>`), then puts the real one back. Only for a libgit2 call that reads references to
    /// choose what to offer a server, on the thread that owns this handle.
    fileprivate func withNegotiationReferences(_ commits: [OID], _ body: () throws(GitError) -> Void) throws(GitError) {
        let original = RefdbHandle(try make("git_repository_refdb") { git_repository_refdb(&$0, pointer) }, owner: self)
        var names: [UnsafePointer<CChar>?] = commits.indices.map { UnsafePointer(strdup("refs/modkit/negotiation/\($0)")) }
        defer { names.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        var ids = commits.map(\.gitOID)
        let fixed = RefdbHandle(try make("modkit_fixed_refdb_new") { out in
            names.withUnsafeMutableBufferPointer { namePointers in
                modkit_fixed_refdb_new(&out, pointer, namePointers.baseAddress, &ids, ids.count)
            }
        }, owner: self)
        try check(git_repository_set_refdb(pointer, fixed.pointer), "git_repository_set_refdb")
        defer { _ = git_repository_set_refdb(pointer, original.pointer) }
        try body()
    }

    /// The fetch of a remote that moved over the connection its listing opened (`RemoteSession`): the download, then
    /// git's check that every object the moved references reach is here, then `plan`'s reference changes. Returns false,
    /// having moved no reference, when the fetch is git's: what `FetchPlan` leaves to git, refspecs that write local
    /// branches, a repository that wants git to see the fetch (`writesFetchItself`, which holds the off switch
    /// `modkit.fastPaths`), nothing here to offer as common history, or a download that failed for another reason than
    /// a timeout or a cancellation (git then fetches, and reports what it finds). Objects downloaded before such a
    /// failure stay, as any fetch's do; nothing refers to them.
    func fetch(over session: RemoteSession, plan: FetchPlan, refspecs: [String]) throws -> Bool {
        guard !plan.needsGit, !FetchPlan.writesLocalBranches(plan.mappings), writesFetchItself(from: plan.remote) else { return false }
        let haves = negotiationHaves(plan)
        guard !haves.isEmpty else { return false }
        let packsBefore = packNames()
        do {
            try session.download(refspecs: refspecs, haves: haves)
        } catch where error.code == .user || error.code == .timeout {
            throw error
        } catch {
            return false
        }
        unpackSmallPacks(notIn: packsBefore)
        // libgit2 checks each object it indexes, not that the server sent all of them; git's fetch checks that.
        guard LocalFetch(source: self, plan: plan).reachesOnlyObjectsHere() else { return false }
        try plan.applyReferences()
        return true
    }

    /// The commits to offer the server: where the references that move are now (the server had them when they were
    /// fetched, and they are the newest history both sides share); when only new references appear, the newest commit
    /// of those that stay.
    func negotiationHaves(_ plan: FetchPlan) -> [OID] {
        defer { git_error_clear() }
        let objects = try? ObjectDatabase(of: self)
        var seen: Set<OID> = []
        let moving = plan.updates.compactMap(\.old).filter { objects?.contains($0) == true && seen.insert($0).inserted }
        if !moving.isEmpty { return moving }
        let staying = plan.kept.compactMap { id in commitTime(peeling: id).map { (id, $0) } }
        return staying.max(by: { $0.1 < $1.1 }).map { [$0.0] } ?? []
    }

    /// The committer time of the commit `id` names (through tags); nil when it names no commit here.
    private func commitTime(peeling id: OID) -> Int64? {
        var oid = id.gitOID
        guard let object = try? ObjectHandle(make("git_object_lookup") { git_object_lookup(&$0, pointer, &oid, GIT_OBJECT_ANY) }, owner: self),
              let commit = try? ObjectHandle(make("git_object_peel") { git_object_peel(&$0, object.pointer, GIT_OBJECT_COMMIT) }, owner: self)
        else { return nil }
        return Int64(git_commit_time(commit.pointer))
    }
}
