import Foundation
import GitKit

/// Clone and fetch by the user's `git`: its negotiation, its index-pack on every core, its transports and
/// credential helpers. Never prompts without a terminal; stops a transfer that stalls (`modkit.timeout`).
public struct GitCLIEngine: TransferEngine {
    let git: String
    /// Seconds without any output after which git is stopped; nil: `GitKit.networkTimeout` (0 waits forever).
    let stallTimeout: TimeInterval?

    public var name: String { "git" }
    public func makesShallowClones(of url: String) -> Bool { true }

    public init(git: String = "git", stallTimeout: TimeInterval? = nil) {
        self.git = git
        self.stallTimeout = stallTimeout
    }

    /// True when `git` runs here (for `fetch.engine: auto`).
    public static func isAvailable(git: String = "git") -> Bool {
        (try? GitProcess(git: git, arguments: ["--version"]).run(stallTimeout: 10, progress: nil)) != nil
    }

    public func clone(url: String, to path: String, remote: String, options: TransferOptions) throws -> Repository {
        var arguments = ["clone", "--no-checkout", "--progress", "--origin", remote]
        var source = url
        if options.depth > 0 {
            arguments += ["--depth", String(options.depth), "--no-single-branch"]
            if url.hasPrefix("/") { source = "file://" + url }  // git ignores --depth for a plain local path
        }
        if let filter = options.filter { arguments.append("--filter=" + filter) }
        try run(arguments + ["--", source, path], url: url, progress: options.progress)
        if source != url { try run(["-C", path, "remote", "set-url", remote, url], progress: nil) }
        return try Repository.open(path)
    }

    public func fetch(_ repository: Repository, remote: String, refspecs: [String], options: FetchOptions) throws -> FetchReport {
        let directory = repository.workdir ?? repository.gitDir
        let url = try repository.remoteURL(remote)
        return try repository.fetch(remote: remote, refspecs: refspecs, options: options) { active in
            var arguments = ["-C", directory, "fetch", "--progress", "--no-recurse-submodules"]
            if options.prune { arguments.append("--prune") }
            if options.downloadTags != .auto { arguments.append("--no-tags") }
            if options.depth > 0 { arguments += ["--depth", String(options.depth)] }
            try run(arguments + ["--", remote] + active, url: url, progress: options.progress)
        }
    }

    /// Runs one git command of a transfer.
    @discardableResult
    func run(_ arguments: [String], url: String? = nil, progress: ((TransferProgress) -> Bool)?) throws(ModKitError) -> TransferProgress {
        try GitProcess(git: git, arguments: arguments, url: url).run(stallTimeout: stallTimeout ?? GitKit.networkTimeout, progress: progress)
    }
}
