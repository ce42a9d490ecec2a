import Foundation
import GitKit

/// What moves objects and refs from a remote into a module's repository: clone and fetch, and the first checkout
/// of a new clone (writing a whole work tree is a transfer's last step, and git writes one faster than libgit2).
///
/// ModuleSyncer does the rest (branches, tags, snapshots, every later move) in-process whichever engine transfers.
public protocol TransferEngine: Sendable {
    /// `git` or `libgit2`, as `fetch.engine` names it.
    var name: String { get }
    /// Whether a clone of `url` with a `depth` gets a shallow history (libgit2 before 1.7 fetches all of it).
    func makesShallowClones(of url: String) -> Bool
    /// Clones `url` into a new repository at `path` with its remote named `remote`, without a work tree.
    func clone(url: String, to path: String, remote: String, options: TransferOptions) throws -> Repository
    /// Fetches `refspecs` (empty: the remote's configured ones) as `Repository.fetch` does: with `.all`, tags go to
    /// the tag mirror and only new ones to `refs/tags/`, so a local tag is never moved.
    func fetch(_ repository: Repository, remote: String, refspecs: [String], options: FetchOptions) throws -> FetchReport
    /// Writes the first work tree of a clone made by `clone`: HEAD at local branch `branch`, or detached at `commit`
    /// when `branch` is nil. Refuses (`.uncommitted`) a repository whose index is not empty.
    func checkOutNewClone(_ repository: Repository, branch: String?, commit: OID) throws
    /// The engine that really transfers from `url` (`auto` picks one per url), for `sync -v`.
    func engineName(for url: String) -> String
    /// This engine with git's ssh reaching servers over a sync's shared connections; the engine itself where it does
    /// not run git.
    func sharingSSHConnections(_ share: SSHConnectionShare) -> any TransferEngine
}

extension TransferEngine {
    public func engineName(for url: String) -> String { name }

    public func sharingSSHConnections(_ share: SSHConnectionShare) -> any TransferEngine { self }

    public func checkOutNewClone(_ repository: Repository, branch: String?, commit: OID) throws {
        try repository.checkoutIntoNewWorkTree(branch: branch, commit: commit)
    }
}

/// How a clone runs: history depth, partial clone filter, progress.
public struct TransferOptions {
    /// Commits of history to fetch, 0 for all.
    public var depth: Int
    /// What a shallow clone (`depth` > 0) is for: the one branch or tag it fetches, as `git clone --depth` does; nil
    /// fetches the tips of every branch. Later fetches use the usual all-branches refspec.
    public var shallowRevision: ShallowRevision?
    /// A partial clone filter such as `blob:none` (git engine only).
    public var filter: String?
    /// Called with the transfer's progress; returning false cancels a libgit2 transfer.
    public var progress: ((TransferProgress) -> Bool)?

    public init(depth: Int = 0, shallowRevision: ShallowRevision? = nil, filter: String? = nil,
                progress: ((TransferProgress) -> Bool)? = nil) {
        self.depth = depth
        self.shallowRevision = shallowRevision
        self.filter = filter
        self.progress = progress
    }
}

/// The one revision a shallow clone fetches: with every branch tip and the tags on them, a repository's shallow clone
/// holds most of its history's big files (the heavy fixture's Core: 71 of 79 MB), where one branch's tip holds a third.
public enum ShallowRevision: Equatable, Sendable {
    /// The remote's default branch (its HEAD).
    case remoteDefault
    /// A branch, else a tag, of that name.
    case named(String)

    /// For a module's manifest revision: nil (every branch tip) for a commit id, a `refs/tags/` name (git would prefer a
    /// branch of the same name) and review refs, which are fetched on their own.
    public init?(manifestRevision revision: String?) {
        guard let revision else { self = .remoteDefault; return }
        if revision.hasPrefix("refs/heads/") {
            self = .named(String(revision.dropFirst("refs/heads/".count)))
            return
        }
        if revision.hasPrefix("refs/") || SpecialRef.remoteRef(for: revision) != nil || revision.isEmpty { return nil }
        if revision.count == 40, OID(hex: revision) != nil { return nil }
        self = .named(revision)
    }
}

/// `fetch.engine`: `MODKIT_FETCH_ENGINE`, else `git config modkit.fetchEngine`, else `auto` (git when it runs here,
/// except for ssh urls).
public enum FetchEngineSetting {
    /// The engine the setting names; throws for a value that names none.
    public static func engine(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any TransferEngine {
        let value = (environment["MODKIT_FETCH_ENGINE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? GitKit.globalConfigString("modkit.fetchEngine") ?? "auto").trimmingCharacters(in: .whitespaces).lowercased()
        switch value {
        case "git": return GitCLIEngine()
        case "libgit2": return Libgit2Engine()
        case "auto": return gitRunsHere ? AutoEngine() : Libgit2Engine()
        default:
            throw ModKitError.input("fetch engine '\(value)' is not one of auto, libgit2, git",
                                    hint: "set MODKIT_FETCH_ENGINE or git config modkit.fetchEngine to auto, libgit2 or git")
        }
    }

    /// Whether `git` runs here, asked once per process.
    static let gitRunsHere = GitCLIEngine.isAvailable()
}

/// `fetch.engine: auto` where git runs: git for local, git://, http and https urls, and for ssh urls whose server the
/// sync reaches over shared connections (`SSHConnectionShare`); libgit2 for other ssh urls, where modkit's own ssh
/// handling (agent and ~/.ssh/config keys, a refused unknown host key named with its fingerprint,
/// `--accept-new-host-keys`, which key the server refused) says more than ssh does; and libgit2 for a small repository
/// on this machine (below `smallLocalRepository` bytes of pack), full history only.
public struct AutoEngine: TransferEngine {
    let git: GitCLIEngine
    let libgit2 = Libgit2Engine()
    let sshShare: SSHConnectionShare?

    public var name: String { "auto" }

    public init(sshShare: SSHConnectionShare? = nil) {
        self.sshShare = sshShare
        git = GitCLIEngine(downloadsOverListing: true, sshShare: sshShare)
    }

    public func sharingSSHConnections(_ share: SSHConnectionShare) -> any TransferEngine { AutoEngine(sshShare: share) }

    /// libgit2's local transport sends at most the whole repository, which for a small one costs less than starting
    /// git and its upload-pack (100 tiny modules, one new commit each: 0.36x plain git's time in-process, 0.97x through
    /// git); for a big one it sends far more than git's negotiation (docs/transfers.md), so those go to git.
    static let smallLocalRepository: UInt64 = 1 << 20

    /// The engine that transfers from `url`; a shallow or partial transfer is git's (libgit2 1.5 makes neither).
    func engine(for url: String, shallowOrPartial: Bool = false) -> any TransferEngine {
        if GitKit.isSSHURL(url) { return sshShare?.isShared(url) == true ? git : libgit2 }
        if !shallowOrPartial, FastPaths.enabledGlobally(), let bytes = PackSize.bytes(ofLocalURL: url),
           bytes < Self.smallLocalRepository { return libgit2 }
        return git
    }

    public func makesShallowClones(of url: String) -> Bool { engine(for: url, shallowOrPartial: true).makesShallowClones(of: url) }

    public func engineName(for url: String) -> String { engine(for: url).name }

    public func clone(url: String, to path: String, remote: String, options: TransferOptions) throws -> Repository {
        try engine(for: url, shallowOrPartial: options.depth > 0 || options.filter != nil).clone(url: url, to: path, remote: remote, options: options)
    }

    public func fetch(_ repository: Repository, remote: String, refspecs: [String], options: FetchOptions) throws -> FetchReport {
        let url = try repository.remoteURL(remote) ?? ""
        return try engine(for: url, shallowOrPartial: options.depth > 0).fetch(repository, remote: remote, refspecs: refspecs, options: options)
    }

    /// git writes a big work tree faster than libgit2 (Core of the heavy fixture, 4,187 files: 0.37 s against 0.64 s,
    /// libgit2 resolving attributes with two realpath calls per file); for a small one, starting git costs more.
    public func checkOutNewClone(_ repository: Repository, branch: String?, commit: OID) throws {
        let small = (PackSize.bytes(gitDir: repository.gitDir) ?? 0) < Self.smallLocalRepository
        try (small ? libgit2 as any TransferEngine : git).checkOutNewClone(repository, branch: branch, commit: commit)
    }
}
