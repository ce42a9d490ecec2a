import Foundation
import GitKit

/// A revision that names a ref outside `refs/heads` and `refs/tags` — west's `pull/N/head`, Gerrit's `refs/changes/…` —
/// which a normal fetch does not bring: `fetch` gets it with an explicit refspec into `refs/modkit/fetched/…`, and
/// `RevisionTarget.resolve` checks it out detached from there.
enum SpecialRef {
    /// Leading components that name review refs on the common servers (GitHub, GitLab, Gerrit).
    private static let reviewNamespaces: Set<Substring> = ["pull", "merge-requests", "changes"]

    /// The full remote ref `revision` names when it is one, e.g. `pull/7/head` → `refs/pull/7/head`; nil for branches, tags and commits.
    static func remoteRef(for revision: String?) -> String? {
        guard let revision else { return nil }
        if revision.hasPrefix("refs/") {
            return revision.hasPrefix("refs/heads/") || revision.hasPrefix("refs/tags/") ? nil : revision
        }
        let parts = revision.split(separator: "/")
        return parts.count >= 2 && reviewNamespaces.contains(parts[0]) ? "refs/" + revision : nil
    }

    /// Where the fetched ref is kept in the module repository.
    static func localRef(for remoteRef: String) -> String {
        "refs/modkit/fetched/" + remoteRef.dropFirst("refs/".count)
    }

    /// Fetches the ref `revision` names, when it is a special one; does nothing otherwise. `ModuleSyncer` calls it right
    /// after its own fetch, in `clone()` and `update()`, with the same remote.
    static func fetch(_ revision: String?, remote: String, in repository: Repository, engine: any TransferEngine,
                      progress: @escaping (TransferProgress) -> Bool,
                      holdingServer: ((_ body: () throws -> Void) throws -> Void)? = nil) throws {
        guard let ref = remoteRef(for: revision) else { return }
        var options = FetchOptions(downloadTags: .none, progress: progress)
        options.holdingServer = holdingServer
        _ = try engine.fetch(repository, remote: remote, refspecs: ["+\(ref):\(localRef(for: ref))"], options: options)
    }
}

/// Local urls resolved as git's clone resolves them: a mirror laid out by `repo init --mirror` names `Alpha` for `Alpha.git`.
enum LocalRepositoryURL {
    /// `file:///mirror/Alpha` or `/mirror/Alpha` → the same with `.git` when only `Alpha.git` is a repository (`Alpha` may
    /// still be a folder: `platform/build.git` beside `platform/build/blueprint.git`); any other url unchanged.
    static func resolve(_ url: String) -> String {
        guard let path = GitKit.localPath(of: url) else { return url }
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard !trimmed.hasSuffix(".git"), !Repository.isRepository(String(trimmed)), Repository.isRepository(trimmed + ".git") else { return url }
        return (url.hasPrefix("file://") ? "file://" : "") + trimmed + ".git"
    }
}
