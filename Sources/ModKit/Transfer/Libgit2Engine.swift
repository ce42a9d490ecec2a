import GitKit

/// Clone and fetch in-process through libgit2: no `git` needed; shallow only from libgit2 1.7.
public struct Libgit2Engine: TransferEngine {
    public var name: String { "libgit2" }
    public func makesShallowClones(of url: String) -> Bool { GitKit.supportsShallowFetch }

    public init() {}

    public func clone(url: String, to path: String, remote: String, options: TransferOptions) throws -> Repository {
        guard remote == "origin" else {
            let repository = try Repository.create(at: path)
            try repository.addRemote(remote, url: url)
            var fetch = FetchOptions(downloadTags: .all, progress: options.progress)
            fetch.depth = options.depth
            try repository.fetch(remote: remote, options: fetch)
            return repository
        }
        var clone = CloneOptions(checkout: false, progress: options.progress)
        clone.depth = options.depth
        return try Repository.clone(url: url, to: path, options: clone)
    }

    public func fetch(_ repository: Repository, remote: String, refspecs: [String], options: FetchOptions) throws -> FetchReport {
        try repository.fetch(remote: remote, refspecs: refspecs, options: options)
    }
}
