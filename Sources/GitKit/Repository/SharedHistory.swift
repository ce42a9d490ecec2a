internal import CLibgit2

extension Repository {
    /// Whether the repository at `url` shares history with this one: one of its branches has a common ancestor with
    /// HEAD, a local branch or a remote-tracking branch. True when either side has no commits (nothing to compare).
    /// Downloads the other history only when none of its branch tips is known here, into scratch refs deleted again.
    public func sharesHistory(withRepositoryAt url: String) throws -> Bool {
        let local = try localTips()
        let advertised = try GitKit.listRemoteReferences(url: url).filter { $0.name.hasPrefix("refs/heads/") }.map(\.oid)
        if local.isEmpty || advertised.isEmpty { return true }
        if try isRelated(advertised.filter(hasCommit), to: local) { return true }
        let scratch = "refs/modkit/url-check/"
        defer { for reference in (try? references(matching: scratch + "*")) ?? [] { try? deleteReference(reference.name) } }
        try fetchAnonymously(url: url, refspecs: ["+refs/heads/*:\(scratch)*"])
        return try isRelated(references(matching: scratch + "*").map(\.target), to: local)
    }

    private func isRelated(_ tips: [OID], to local: Set<OID>) throws -> Bool {
        for tip in Set(tips) {
            for mine in local where try tip == mine || mergeBase(tip, mine) != nil { return true }
        }
        return false
    }

    /// HEAD and the tips of local and remote-tracking branches.
    private func localTips() throws -> Set<OID> {
        var tips = Set<OID>()
        if case .detached(let commit)? = try? head() { tips.insert(commit) }
        for prefix in ["refs/heads/", "refs/remotes/"] {
            for reference in try references(matching: prefix + "*") where hasCommit(reference.target) {
                tips.insert(reference.target)
            }
        }
        return tips
    }

    /// Fetches `refspecs` from `url` without a configured remote (and without tags beyond the refspecs).
    func fetchAnonymously(url: String, refspecs: [String]) throws {
        let remote = RemoteHandle(try make("git_remote_create_anonymous") { git_remote_create_anonymous(&$0, pointer, url) },
                                  owner: self)
        var options = git_fetch_options()
        try check(git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.proxy_opts.type = GIT_PROXY_AUTO
        let box = RemoteCallbacksBox()
        box.install(into: &options.callbacks)
        try box.run { () throws(GitError) in
            try withStrarray(refspecs) { (array) throws(GitError) in
                try check(git_remote_fetch(remote.pointer, array, &options, nil), "git_remote_fetch")
            }
        }
    }
}
