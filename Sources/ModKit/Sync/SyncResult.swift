import GitKit

/// What `modkit sync` did to one module.
public struct ModuleSyncResult: Sendable, Codable, Equatable {
    public enum Outcome: String, Sendable, Codable {
        case cloned
        case updated
        case upToDate = "up to date"
        /// Fetched but not moved, to protect local work.
        case kept
        case failed
        /// Not a repository module (directory modules come with the manifest repository).
        case skipped
    }

    public var name: String
    public var path: String
    public var outcome: Outcome
    /// One line for people: "fast-forwarded develop by 3 commits", "kept: local changes", …
    public var detail: String
    /// The commit checked out afterwards.
    public var commit: String?
    /// The commit checked out before, when it changed.
    public var previousCommit: String?
    /// A `refs/modkit/backup/…` ref that now holds commits the move would have left unreachable.
    public var backup: String?
    public var error: String?
    /// How the objects came (`fetched by git`, `fetched in-process …`, `cloned by libgit2`), for `sync -v`.
    public var transferPath: String?
    /// Something that went wrong beside the module's own outcome (its exclude file could not be updated, …); also in `detail`.
    public var warnings: [String] = []
    /// Why git, not modkit, wrote the work tree (a filter driver, an encoding, a sparse checkout, …; see `FastPaths`).
    public var workTreeByGit: String?
    /// Local tags kept although the remote has a different tag of the same name (git: "would clobber existing tag").
    public var keptLocalTags: [String]?

    /// Whether this result makes `modkit sync` exit 1.
    public var isProblem: Bool { outcome == .kept || outcome == .failed }
}

/// Progress events from a running sync; delivered on worker threads.
public enum SyncEvent: Sendable {
    case started(module: String)
    case transfer(module: String, TransferProgress)
    case finished(ModuleSyncResult)
}
