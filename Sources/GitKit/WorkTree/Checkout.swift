internal import CLibgit2

// Every checkout uses GIT_CHECKOUT_SAFE: local modifications are never overwritten; a clash throws `.conflict`.
// The exception: `checkoutIntoNewWorkTree` only writes into a clone that has no work tree yet. Moves of existing
// repositories by `sync` and `checkout SNAPSHOT` go through `WorkTreeMove` instead.

extension Repository {
    /// Checks out the tree of `refs/heads/<name>` and points HEAD at that branch.
    public func checkoutBranch(_ name: String) throws {
        let ref = try lookupBranch(name)
        let commit = try lookupCommit(try peelToCommit(ref))
        try checkoutTree(of: commit)
        try check(git_repository_set_head(pointer, ref.name), "git_repository_set_head")
    }

    /// Checks out the tree of `commit` and detaches HEAD at it.
    public func checkoutDetached(_ commit: OID) throws {
        let object = try lookupCommit(commit)
        try checkoutTree(of: object)
        var raw = commit.gitOID
        try check(git_repository_set_head_detached(pointer, &raw), "git_repository_set_head_detached")
    }

    /// Moves a local branch forward to `commit` (`.nonFastForward` if that would lose commits, unless `allowingRewrite`,
    /// for a caller that saved them first); if it is HEAD, safely checks out the new tree first.
    public func fastForward(branch: String, to commit: OID, allowingRewrite: Bool = false) throws {
        let ref = try lookupBranch(branch)
        let current = try peelToCommit(ref)
        if current == commit { return }
        guard try allowingRewrite || isDescendant(commit, of: current) else {
            throw GitError(code: .nonFastForward, errorClass: "reference",
                           message: "\(commit.short) does not contain \(branch) (\(current.short)); refusing to move it",
                           function: "fastForward")
        }
        let target = try lookupCommit(commit)
        if try check(git_branch_is_head(ref.pointer), "git_branch_is_head") == 1, !isBare {
            try checkoutTree(of: target)
        }
        var raw = commit.gitOID
        _ = ReferenceHandle(try make("git_reference_set_target") {
            git_reference_set_target(&$0, ref.pointer, &raw, "\(allowingRewrite ? "follow rewritten upstream:" : "fast-forward") \(branch) to \(commit.short)")
        }, owner: self)
    }

    /// Points HEAD at local branch `branch` (or detaches it at `commit` when `branch` is nil) and writes
    /// the work tree of a clone made with `checkout: false`, so a new clone is checked out once, straight
    /// at its target. The one forced checkout: such a work tree holds nothing to protect; a repository
    /// whose index is not empty is refused with `.uncommitted`.
    public func checkoutIntoNewWorkTree(branch: String?, commit: OID) throws {
        try pointNewCloneHead(branch: branch, commit: commit)
        var options = git_checkout_options()
        try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
        try check(git_checkout_head(pointer, &options), "git_checkout_head")
    }

    /// The first half of `checkoutIntoNewWorkTree`, for a caller that writes the work tree another way (the git engine
    /// runs `git checkout`): refuses a repository whose index is not empty, then points HEAD at `branch` (or detaches it
    /// at `commit`) without touching the work tree.
    public func pointNewCloneHead(branch: String?, commit: OID) throws {
        let index = IndexHandle(try make("git_repository_index") { git_repository_index(&$0, pointer) }, owner: self)
        // re-read from disk: another process (git's checkout) may have written the index since this handle loaded it
        try check(git_index_read(index.pointer, 1), "git_index_read")
        guard git_index_entrycount(index.pointer) == 0 else {
            throw GitError(code: .uncommitted, errorClass: "checkout",
                           message: "the work tree is not a new clone's; refusing a forced checkout",
                           function: "checkoutIntoNewWorkTree")
        }
        if let branch {
            let ref = try lookupBranch(branch)
            try check(git_repository_set_head(pointer, ref.name), "git_repository_set_head")
        } else {
            var raw = commit.gitOID
            try check(git_repository_set_head_detached(pointer, &raw), "git_repository_set_head_detached")
        }
    }

    /// Writes the tree of a commit to the work tree and index with the SAFE strategy, relative to HEAD.
    func checkoutTree(of commit: ObjectHandle) throws(GitError) {
        var options = git_checkout_options()
        try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        options.checkout_strategy = GIT_CHECKOUT_SAFE.rawValue
        try check(git_checkout_tree(pointer, commit.pointer, &options), "git_checkout_tree")
    }
}
