import Foundation
import GitKit

/// What moves objects from a remote into a module's repository: clone and fetch, nothing else.
///
/// ModuleSyncer does the rest (checkout, branches, snapshots) in-process whichever engine transfers.
public protocol TransferEngine: Sendable {
    /// Clones `url` into a new repository at `path` without checking out a work tree.
    func clone(url: String, to path: String, options: TransferOptions) throws(ModKitError) -> TransferSummary
    /// Fetches branches into `refs/remotes/<remote>/*`, and tags without moving any tag the repository already has.
    func fetch(repository path: String, remote: String, options: TransferOptions) throws(ModKitError) -> TransferSummary
}

/// How a transfer runs: history depth, partial clone filter, an object cache, a stall timeout, progress.
public struct TransferOptions: Sendable {
    /// Only the newest `depth` commits of each fetched branch (`--depth`).
    public var depth: Int?
    /// A partial clone filter such as `blob:none` (`--filter`).
    public var filter: String?
    /// A repository whose objects the clone borrows through `objects/info/alternates` (`--reference-if-able`).
    public var reference: String?
    /// Seconds without any output from git after which the transfer is stopped as stalled.
    public var stallTimeout: TimeInterval
    /// Called with the transfer's progress as git reports it.
    public var progress: (@Sendable (TransferProgress) -> Void)?

    public init(depth: Int? = nil, filter: String? = nil, reference: String? = nil, stallTimeout: TimeInterval = 300,
                progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.depth = depth
        self.filter = filter
        self.reference = reference
        self.stallTimeout = stallTimeout
        self.progress = progress
    }
}

/// What a transfer did: the last progress git reported, and tags it refused to move.
public struct TransferSummary: Sendable {
    public var progress: TransferProgress
    /// Local tags that differ from the remote's and were kept (`would clobber existing tag`).
    public var keptTags: [String]

    public init(progress: TransferProgress = TransferProgress(), keptTags: [String] = []) {
        self.progress = progress
        self.keptTags = keptTags
    }
}
