internal import CLibgit2

/// Which tags a fetch brings along.
public enum TagDownload: Sendable {
    /// Tags pointing at fetched commits (git's default).
    case auto
    /// Every tag of the remote; a local tag of the same name that names something else is kept, as git does.
    case all
    /// No tags beyond what the refspecs name.
    case none
}

/// How `Repository.fetch` behaves.
public struct FetchOptions {
    /// Delete remote-tracking refs that no longer exist on the remote (false leaves it to `fetch.prune` config).
    public var prune = false
    public var downloadTags: TagDownload = .auto
    /// Download progress; return false to cancel (the error code is then `.user`).
    public var progress: ((TransferProgress) -> Bool)? = nil
    /// Commits of history to fetch, 0 for all; honoured where `GitKit.supportsShallowFetch`.
    public var depth = 0
    /// For a transfer by another program (`fetch(remote:refspecs:options:transfer:)`): list the remote's references
    /// first (one round trip) and skip the transfer when none has moved (`listRemoteForFetch`).
    public var skipsUnchangedRemote = false
    /// With `skipsUnchangedRemote`: download a remote that moved over the listing's own connection (modkit's own to a
    /// git:// server, `GitDaemonFetch`; libgit2's to any other, `fetch(over:plan:refspecs:)`; each offering only where
    /// the moved references were) where git need not see the fetch.
    public var downloadsOverListing = false
    /// Runs the part of a fetch that holds a server's process through the whole conversation (a listing by libgit2,
    /// the download over its connection, a transfer by another program); a listing of modkit's own that ends the
    /// server's process with its answer runs before, outside it (`listRemoteWithoutHoldingServer`). A sync gives that
    /// part a slot of its own per server (`TransferGates`). nil: it runs at once.
    public var holdingServer: ((_ body: () throws -> Void) throws -> Void)? = nil
    /// The remote moved at a recent fetch, and likely has again: it is listed over the connection its download would
    /// use, in the part that holds the server's process, rather than first by a listing that ends the server's process
    /// (which costs a remote that moved a second connection and reference list).
    public var likelyMoved = false
    /// Called right before modkit opens a connection of its own (`GitDaemonListing`), to space the connections to one
    /// server (a sync's `TransferGates`); nil: none.
    public var pacingConnection: (() -> Void)? = nil

    public init(prune: Bool = false, downloadTags: TagDownload = .auto, progress: ((TransferProgress) -> Bool)? = nil) {
        self.prune = prune
        self.downloadTags = downloadTags
        self.progress = progress
    }
}

/// What a fetch found besides the objects it downloaded.
public struct FetchReport: Sendable, Equatable {
    /// Remote tags not taken because a local tag of the same name names something else ("would clobber existing tag").
    public var keptLocalTags: [String] = []
    /// The remote-tracking tips before the fetch, by branch ("develop" for `refs/remotes/<remote>/develop`).
    public var previousTips: [String: OID] = [:]
    /// Leftovers of interrupted fetches removed from `objects/pack` first.
    public var removedLeftovers: [String] = []
    /// Whether the objects were copied in-process from a remote on this machine (no transfer ran).
    public var fetchedInProcess = false
    /// Whether the transfer was skipped because one listing showed that the remote's references had not moved.
    public var remoteUnchanged = false
    /// Who downloaded the objects over the listing's own connection, where no transfer ran: modkit over its own
    /// connection to a git:// server (`GitDaemonFetch`), libgit2 over its connection to any other (`RemoteSession`).
    public var downloadedOverListingBy: ListingDownloader? = nil
    /// Whether the objects came over the listing's own connection, and no transfer ran.
    public var fetchedOverListing: Bool { downloadedOverListingBy != nil }
}

/// Who downloaded a remote that moved over its listing's connection (`FetchReport.downloadedOverListingBy`).
public enum ListingDownloader: Sendable, Equatable {
    /// modkit, over its own connection to a git daemon: one write of wants, haves and "done" (`GitDaemonFetch`).
    case modkit
    /// libgit2, over its connection (`RemoteSession`).
    case libgit2
}

/// How `Repository.push` behaves.
public struct PushOptions {
    /// Upload progress (current objects, total objects, bytes); return false to cancel.
    public var progress: ((Int, Int, Int) -> Bool)? = nil

    public init(progress: ((Int, Int, Int) -> Bool)? = nil) {
        self.progress = progress
    }
}

/// The remote's answer for one pushed reference.
public struct PushResult: Sendable, Equatable {
    /// The remote reference name, e.g. "refs/heads/main".
    public var ref: String
    /// nil when the remote accepted the update, otherwise its reason for rejecting it.
    public var error: String?

    public init(ref: String, error: String?) {
        self.ref = ref
        self.error = error
    }
}

extension Repository {
    /// The configured remote names, sorted.
    public func remoteNames() throws -> [String] {
        var array = git_strarray()
        try check(git_remote_list(&array, pointer), "git_remote_list")
        return takeStrarray(&array).sorted()
    }

    /// The fetch URL of a remote (after `url.*.insteadOf`, as git says it); nil when the remote does not exist.
    /// Read once per remote until GitKit writes the config (see `remoteURLs`).
    public func remoteURL(_ name: String) throws -> String? {
        if let known = remoteURLs[name] { return known }
        let url = try configuredRemoteURL(name)
        remoteURLs[name] = .some(url)
        return url
    }

    /// `remote.<name>.url` with the longest `url.<base>.insteadOf` prefix it starts with replaced by `<base>`, read
    /// from one config snapshot as libgit2's remote lookup does, without its leak (one PCRE2 block per config entry
    /// before libgit2 1.6: README, "AOSP size"). nil when the remote has no url.
    func configuredRemoteURL(_ name: String) throws(GitError) -> String? {
        let config = try configSnapshot()
        guard let url = try config.string("remote.\(name).url") else { return nil }
        // Every entry, in the order libgit2's own scan visits them: the first of the longest prefixes wins.
        let entries = try configEntries(try make("git_config_iterator_new") { git_config_iterator_new(&$0, config.pointer) })
        var best: (prefix: String, base: String)?
        for (key, prefix) in entries where key.hasPrefix("url.") && key.hasSuffix(".insteadof") && key.count > "url..insteadof".count {
            if url.utf8.starts(with: prefix.utf8), prefix.utf8.count > (best?.prefix.utf8.count ?? 0) {
                best = (prefix, String(key.dropFirst("url.".count).dropLast(".insteadof".count)))
            }
        }
        guard let best else { return url }
        return best.base + String(decoding: url.utf8.dropFirst(best.prefix.utf8.count), as: UTF8.self)
    }

    /// Adds a remote with git's default fetch refspec; throws `.exists` when the name is taken.
    public func addRemote(_ name: String, url: String) throws {
        remoteURLs = [:]
        _ = RemoteHandle(try make("git_remote_create") { git_remote_create(&$0, pointer, name, url) }, owner: self)
    }

    /// Changes the URL of an existing remote; throws `.notFound` when there is no such remote.
    public func setRemoteURL(_ name: String, url: String) throws {
        remoteURLs = [:]
        _ = try lookupRemote(name)
        try check(git_remote_set_url(pointer, name, url), "git_remote_set_url")
    }

    /// Fetches from a remote and updates remote-tracking refs; empty `refspecs` uses the remote's configured ones.
    /// Like `git fetch`, it keeps fewer than `fetch.unpackLimit` (100) new objects as loose objects, not a pack.
    /// With `downloadTags: .all` the remote's tags are mirrored under `refs/modkit/remote-tags/<remote>/` and
    /// copied to `refs/tags/` only where no local tag of that name exists: a local tag is never moved.
    @discardableResult
    public func fetch(remote: String, refspecs: [String] = [], options: FetchOptions = FetchOptions()) throws -> FetchReport {
        try fetch(remote: remote, refspecs: refspecs, options: options) { active, _ in
            let handle = try lookupRemote(remote)
            var fetchOptions = git_fetch_options()
            try check(git_fetch_options_init(&fetchOptions, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
            fetchOptions.prune = options.prune ? GIT_FETCH_PRUNE : GIT_FETCH_PRUNE_UNSPECIFIED
            fetchOptions.download_tags = options.downloadTags == .auto ? GIT_REMOTE_DOWNLOAD_TAGS_AUTO : GIT_REMOTE_DOWNLOAD_TAGS_NONE
            fetchOptions.proxy_opts.type = GIT_PROXY_AUTO
            fetchOptions.update_fetchhead = 0  // nothing reads it; it would list every mirrored tag, rewritten each sync
            modkit_git_fetch_options_set_depth(&fetchOptions, Int32(options.depth))
            let box = RemoteCallbacksBox(transferProgress: options.progress)
            box.install(into: &fetchOptions.callbacks)
            let packsBefore = packNames()
            try box.run { () throws(GitError) in
                if active.isEmpty {
                    try check(git_remote_fetch(handle.pointer, nil, &fetchOptions, nil), "git_remote_fetch")
                } else {
                    try withStrarray(active) { (array) throws(GitError) in
                        try check(git_remote_fetch(handle.pointer, array, &fetchOptions, nil), "git_remote_fetch")
                    }
                }
            }
            unpackSmallPacks(notIn: packsBefore)
        }
    }

    /// The same fetch with the transfer itself done by `transfer` (e.g. the git CLI), which is given the refspecs to
    /// fetch (empty: the remote's configured ones; with `.all`, the remote's configured ones and the tag mirror) and
    /// must honour `options.prune`, and is told whether the remote was just listed over protocol v0 (with
    /// `skipsUnchangedRemote`, and its references had moved). Leftovers of interrupted fetches are removed first;
    /// mirrored tags are adopted after.
    public func fetch(remote: String, refspecs: [String] = [], options: FetchOptions,
                      transfer: (_ refspecs: [String], _ listedOverV0: Bool) throws -> Void) throws -> FetchReport {
        // The url, read once per handle, says whether the remote exists; only a missing one is looked up, for libgit2's
        // error. (libgit2 before 1.6 leaks ~20 KiB per config entry on every lookup: README, "AOSP size".)
        if try remoteURL(remote) == nil { _ = try lookupRemote(remote) }
        var report = FetchReport()
        report.removedLeftovers = removeInterruptedFetchLeftovers()
        removeInterruptedRefLocks(remote: remote)
        report.previousTips = try references(matching: "refs/remotes/\(remote)/*").reduce(into: [:]) { tips, reference in
            tips[reference.name.removingPrefix("refs/remotes/\(remote)/")] = reference.target
        }
        var active = refspecs
        if options.downloadTags == .all {
            if active.isEmpty { active = try configuredFetchRefspecs(remote) }
            active.append("+refs/tags/*:\(Repository.tagMirrorPrefix(remote))*")
        }
        // A remote on this machine: nothing new costs no transfer at all, and a few new objects are copied in-process.
        let fetchedLocally = refspecs.isEmpty && options.depth == 0 && options.downloadTags == .all && options.prune
            ? try fetchLocally(remote: remote, refspecs: active, prune: true, progress: options.progress)
            : false
        if !fetchedLocally {
            let lists = options.skipsUnchangedRemote && options.depth == 0
            let access = lists ? gitDaemonAccess(remote: remote) : .other
            let quickly = lists ? listRemoteWithoutHoldingServer(remote: remote, access: access, refspecs: active, prune: options.prune,
                                                                 likelyMoved: options.likelyMoved, pacing: options.pacingConnection) : .notRead
            if case .unchanged = quickly {
                report.remoteUnchanged = true
            } else {
                try (options.holdingServer ?? { try $0() }) {
                    var listedOverV0 = false
                    // A git:// remote modkit may reach itself is listed and downloaded over one connection of modkit's own
                    // (`GitDaemonFetch`), which says what it wants in one write; any other, by libgit2 (`RemoteSession`).
                    if lists, quickly != .leftToGit, options.downloadsOverListing, options.downloadTags != .auto,
                       case .own(let url) = access, let mappings = FetchPlan.mappings(active) {
                        switch try GitDaemonFetch.fetch(into: self, remote: remote, url: url, mappings: mappings, prune: options.prune,
                                                        timeout: GitKit.networkTimeout, progress: options.progress) {
                        case .unchanged: report.remoteUnchanged = true
                        case .fetched: report.downloadedOverListingBy = .modkit
                        case .leftToGit: listedOverV0 = true
                        case .notListed: break
                        }
                    } else {  // the listing's connection closes at the end of this block, before any transfer opens its own
                        let listing = lists && quickly != .leftToGit
                            ? listRemoteForFetch(remote: remote, refspecs: active, prune: options.prune, progress: options.progress) : .unknown
                        switch listing {
                        case .unchanged:
                            report.remoteUnchanged = true
                        case .changed(let session, let plan):
                            listedOverV0 = true
                            // git's tag following (`.auto`) is git's: the download writes only the refspecs' references.
                            if try options.downloadsOverListing && options.downloadTags != .auto
                                && fetch(over: session, plan: plan, refspecs: active) {
                                report.downloadedOverListingBy = .libgit2
                            }
                        case .unknown:
                            break
                        }
                    }
                    if !report.remoteUnchanged && !report.fetchedOverListing { try transfer(active, listedOverV0) }
                }
            }
        }
        report.fetchedInProcess = fetchedLocally
        if options.downloadTags == .all { report.keptLocalTags = try adoptMirroredTags(remote: remote) }
        return report
    }

    /// Pushes `refspecs` (e.g. "refs/heads/main:refs/heads/main", "+…" to force); the remote's per-ref rejections are returned, transport failures and client-side non-fast-forward refusals (`.nonFastForward`) are thrown.
    public func push(remote: String, refspecs: [String], options: PushOptions = PushOptions()) throws -> [PushResult] {
        let handle = try lookupRemote(remote)
        var pushOptions = git_push_options()
        try check(git_push_options_init(&pushOptions, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        pushOptions.proxy_opts.type = GIT_PROXY_AUTO
        var results: [PushResult] = []
        let box = RemoteCallbacksBox()
        box.pushTransferProgress = options.progress
        box.pushUpdateReference = { ref, status in results.append(PushResult(ref: ref, error: status)) }
        box.install(into: &pushOptions.callbacks)
        try box.run { () throws(GitError) in
            try withStrarray(refspecs) { (array) throws(GitError) in
                try check(git_remote_push(handle.pointer, array, &pushOptions), "git_remote_push")
            }
        }
        return results
    }

    /// `remote.<name>.fetch`, every value in config order, as `git_remote_get_fetch_refspecs` gives them, read from the
    /// config without loading the remote.
    func configuredFetchRefspecs(_ remote: String) throws(GitError) -> [String] {
        let config = try configSnapshot()
        return try configEntries(try make("git_config_multivar_iterator_new") {
            git_config_multivar_iterator_new(&$0, config.pointer, "remote.\(remote).fetch", nil)
        }).map(\.value)
    }

    func lookupRemote(_ name: String) throws(GitError) -> RemoteHandle {
        RemoteHandle(try make("git_remote_lookup") { git_remote_lookup(&$0, pointer, name) }, owner: self)
    }
}
