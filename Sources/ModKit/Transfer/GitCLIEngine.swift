import Foundation
import GitKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Clone and fetch by the user's `git`: its negotiation, its index-pack on every core, its transports and
/// credential helpers. Never prompts without a terminal; stops a transfer that stalls (`modkit.timeout`).
public struct GitCLIEngine: TransferEngine {
    let git: String
    /// Seconds without any output after which git is stopped; nil: `GitKit.networkTimeout` (0 waits forever).
    let stallTimeout: TimeInterval?
    /// Whether a remote that moved is downloaded over its listing's connection by libgit2 (`fetch.engine: auto`),
    /// where git need not see the fetch; false (`fetch.engine: git`): git fetches every remote that moved.
    let downloadsOverListing: Bool
    /// A sync's shared ssh connections, which git's ssh uses where it has some (`SSHConnectionShare`).
    let sshShare: SSHConnectionShare?

    public var name: String { "git" }
    public func makesShallowClones(of url: String) -> Bool { true }

    public init(git: String = "git", stallTimeout: TimeInterval? = nil, downloadsOverListing: Bool = false,
                sshShare: SSHConnectionShare? = nil) {
        self.git = git
        self.stallTimeout = stallTimeout
        self.downloadsOverListing = downloadsOverListing
        self.sshShare = sshShare
    }

    public func sharingSSHConnections(_ share: SSHConnectionShare) -> any TransferEngine {
        GitCLIEngine(git: git, stallTimeout: stallTimeout, downloadsOverListing: downloadsOverListing, sshShare: share)
    }

    /// True when `git` is installed here (for `fetch.engine: auto`): an executable of that name on PATH, found
    /// without running it, so a sync with nothing to fetch starts no process at all.
    public static func isAvailable(git: String = "git", environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        GitCommand.isInstalled(git, environment: environment)
    }

    public func clone(url: String, to path: String, remote: String, options: TransferOptions) throws -> Repository {
        var arguments = ["clone", "--no-checkout", "--progress", "--origin", remote]
        var source = url
        if options.depth > 0 {
            arguments += ["--depth", String(options.depth)]
            switch options.shallowRevision {
            case .named(let name)?: arguments += ["--single-branch", "--branch", name]
            case .remoteDefault?: arguments.append("--single-branch")
            case nil: arguments.append("--no-single-branch")
            }
            if url.hasPrefix("/") { source = "file://" + url }  // git ignores --depth for a plain local path
        } else if options.filter == nil, let path = Self.hardLinkablePath(of: url) {
            source = path
        }
        if let filter = options.filter { arguments.append("--filter=" + filter) }
        do {
            try run(arguments + ["--", source, path], url: url, progress: options.progress)
        } catch {
            guard options.depth > 0, case .named(let name)? = options.shallowRevision,
                  error.message.contains("not found in upstream") else { throw error }
            throw ModKitError("revision '\(name)' is not a branch or tag of \(Redact.url(url))", hint: "check the module's revision in modkit.yml")
        }
        let repository = try Repository.open(path)
        if source != url { try repository.setRemoteURL(remote, url: url) }
        if options.depth > 0, options.shallowRevision != nil {
            // git wrote a refspec for that one branch or tag; a later revision of the module may name any other
            try repository.setConfigString("remote.\(remote).fetch", "+refs/heads/*:refs/remotes/\(remote)/*")
        }
        return repository
    }

    public func fetch(_ repository: Repository, remote: String, refspecs: [String], options: FetchOptions) throws -> FetchReport {
        let directory = repository.workdir ?? repository.gitDir
        let url = try repository.remoteURL(remote)
        var options = options
        options.skipsUnchangedRemote = Self.checksRemoteFirst(url)
        options.downloadsOverListing = options.skipsUnchangedRemote && downloadsOverListing
        return try repository.fetch(remote: remote, refspecs: refspecs, options: options) { [options] active, listedOverV0 in
            var arguments = ["-C", directory, "fetch", "--progress", "--no-recurse-submodules"]
            // The server has just answered protocol v0, whose first answer is the reference list; over v2 that list is
            // a second request. A fetch that has already paid for one listing takes the round trip less
            // (docs/transfers.md, "A changed remote"). `MODKIT_REMOTE_CHECK=0` turns off the listing, and this with it.
            if listedOverV0 { arguments = ["-c", "protocol.version=0"] + arguments }
            if options.prune { arguments.append("--prune") }
            if options.downloadTags != .auto { arguments.append("--no-tags") }
            // Nothing reads FETCH_HEAD, which would list every mirrored tag, rewritten on each sync (git 2.29+).
            if Self.writesFetchHeadOnRequest(git: git) { arguments.append("--no-write-fetch-head") }
            if options.depth > 0 { arguments += ["--depth", String(options.depth)] }
            try run(arguments + ["--", remote] + active, url: url, progress: options.progress)
        }
    }

    /// Whether a fetch from `url` first lists the remote's references in-process and is skipped when none has moved:
    /// over git:// and http(s), where that costs one round trip after the connection against git fetch's two or three
    /// and a process (docs/transfers.md); not over ssh, whose handshake costs as much as the fetch. Off with
    /// `MODKIT_REMOTE_CHECK=0`.
    static func checksRemoteFirst(_ url: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let url, environment["MODKIT_REMOTE_CHECK"] != "0" else { return false }
        let lowered = url.lowercased()
        return lowered.hasPrefix("git://") || lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// `git checkout -f` of the HEAD `pointNewCloneHead` set: git's own checkout, with its attribute and filter
    /// handling (an installed LFS smudge filter included), into a work tree that holds nothing yet.
    public func checkOutNewClone(_ repository: Repository, branch: String?, commit: OID) throws {
        guard let directory = repository.workdir else { return }
        try repository.pointNewCloneHead(branch: branch, commit: commit)
        // No hook here: the clone is still in its staging directory; sync runs git clone's hook once it is in place.
        try run(["-c", "core.hooksPath=/dev/null", "-C", directory, "checkout", "-q", "-f"], progress: nil)
    }

    /// The directory of a `file://` remote, cloned by its path instead: git then hard-links the object files (copies
    /// them across file systems) rather than re-packing the whole history through its transport. Objects are never
    /// rewritten in place, so sharing their inodes is safe (`git clone PATH` does the same); `origin` keeps the url.
    /// nil for other urls and for a path that is not a directory here (git then reports the url as given).
    static func hardLinkablePath(of url: String) -> String? {
        guard url.hasPrefix("file://"), let path = GitKit.localPath(of: url), path.hasPrefix("/"),
              !path.contains("%") else { return nil }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue ? path : nil
    }

    /// Whether this git has `fetch --no-write-fetch-head` (2.29 and later).
    static func writesFetchHeadOnRequest(git: String) -> Bool {
        guard let version = git == "git" ? defaultVersion : Self.version(of: git) else { return false }
        return version >= (2, 29)
    }

    /// The version of the `git` on PATH, asked once per process.
    private static let defaultVersion = version(of: "git")

    /// `git version 2.39.5` → (2, 39); nil when git does not run or says something else.
    static func version(of git: String) -> (Int, Int)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [git, "--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let ended = ProcessExit(process)
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ended.wait()
        guard let word = text.split(separator: " ").first(where: { $0.first?.isNumber == true }) else { return nil }
        let numbers = word.split(separator: ".").prefix(2).compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Runs one git command of a transfer.
    @discardableResult
    func run(_ arguments: [String], url: String? = nil, progress: ((TransferProgress) -> Bool)?) throws(ModKitError) -> TransferProgress {
        try GitProcess(git: git, arguments: arguments, url: url, sshShare: sshShare).run(stallTimeout: stallTimeout ?? GitKit.networkTimeout, progress: progress)
    }
}
