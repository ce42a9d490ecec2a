internal import CLibgit2

/// How `Repository.clone` behaves.
public struct CloneOptions {
    /// Make a bare repository (no work tree).
    public var bare = false
    /// The remote branch to check out as the local branch (nil: the remote's HEAD).
    public var branch: String? = nil
    /// Whether to write the work tree after fetching.
    public var checkout = true
    /// Download progress; return false to cancel (the error code is then `.user`).
    public var progress: ((TransferProgress) -> Bool)? = nil
    /// Commits of history to fetch, 0 for all; honoured where `GitKit.supportsShallowFetch`.
    public var depth = 0

    public init(bare: Bool = false, branch: String? = nil, checkout: Bool = true,
                progress: ((TransferProgress) -> Bool)? = nil) {
        self.bare = bare
        self.branch = branch
        self.checkout = checkout
        self.progress = progress
    }
}

extension Repository {
    /// Clones `url` (a local path, `file://`, `git://`, `https://` or ssh URL) into `path`; local paths are hardlinked when possible.
    ///
    /// Credentials, host keys and proxies follow `GitKit.remoteAuthentication` and git's config (`http.proxy`, HTTPS_PROXY).
    /// On failure libgit2 itself removes what it created; GitKit does no further cleanup.
    public static func clone(url: String, to path: String, options: CloneOptions = CloneOptions()) throws -> Repository {
        GitKit.ensureInitialized()
        var cloneOptions = git_clone_options()
        try check(git_clone_options_init(&cloneOptions, UInt32(GIT_CLONE_OPTIONS_VERSION)), "git_clone_options_init")
        cloneOptions.bare = options.bare ? 1 : 0
        cloneOptions.local = GIT_CLONE_LOCAL_AUTO
        cloneOptions.checkout_opts.checkout_strategy =
            options.checkout ? GIT_CHECKOUT_SAFE.rawValue : GIT_CHECKOUT_NONE.rawValue
        cloneOptions.fetch_opts.proxy_opts.type = GIT_PROXY_AUTO
        cloneOptions.fetch_opts.update_fetchhead = 0  // git clone writes none
        modkit_git_fetch_options_set_depth(&cloneOptions.fetch_opts, Int32(options.depth))
        let box = RemoteCallbacksBox(transferProgress: options.progress)
        box.install(into: &cloneOptions.fetch_opts.callbacks)
        box.installCheckoutProgress(into: &cloneOptions.checkout_opts)
        let pointer = try box.run { () throws(GitError) in
            try withOptionalCString(options.branch) { (branch) throws(GitError) in
                cloneOptions.checkout_branch = branch
                return try make("git_clone") { git_clone(&$0, url, path, &cloneOptions) }
            }
        }
        return Repository.adopt(pointer)
    }
}
