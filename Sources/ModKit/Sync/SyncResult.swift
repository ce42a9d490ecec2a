import GitKit

/// What `modkit sync` knows about one module beside its outcome (also the manifest repository's fast-forward).
public struct SyncFacts: Sendable, Encodable, Equatable {
    /// The commit checked out afterwards.
    public var commit: String?
    /// The commit checked out before, when it changed.
    public var previousCommit: String?
    /// A `refs/modkit/backup/…` ref that now holds commits the move would have left unreachable.
    public var backup: String?
    /// Local tags kept although the remote has a different tag of the same name (git: "would clobber existing tag").
    public var keptLocalTags: [String]?
    /// How the objects came (`fetched by git`, `fetched in-process …`, `cloned by libgit2`), for `sync -v`; not in JSON.
    public var transferPath: String?
    /// Why git, not modkit, wrote the work tree (a filter driver, an encoding, a sparse checkout, …; see `FastPaths`); not in JSON.
    public var workTreeByGit: String?

    public init(commit: String? = nil, previousCommit: String? = nil) {
        self.commit = commit
        self.previousCommit = previousCommit
    }

    private enum CodingKeys: String, CodingKey { case commit, previousCommit, backup, keptLocalTags }
}

/// Progress events from a running sync; delivered on worker threads.
public enum SyncEvent: Sendable {
    case started(module: String)
    case transfer(module: String, TransferProgress)
    case finished(ModuleResult<SyncFacts>)
}
