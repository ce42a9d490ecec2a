internal import CLibgit2

/// One reference a remote advertises, as `git ls-remote` shows it.
public struct RemoteReference: Sendable, Equatable {
    /// The full name, e.g. "refs/tags/v1.0.0"; peeled entries end in "^{}".
    public var name: String
    public var target: OID

    public init(name: String, target: OID) {
        self.name = name
        self.target = target
    }
}

extension Repository {
    /// The references a remote advertises (connects without downloading anything), like `git ls-remote`. A git://
    /// server modkit reaches itself (`gitDaemonAccess`) is listed by `GitDaemonListing` (a silent connection asked
    /// again over a second); any other by libgit2.
    public func remoteReferences(_ remote: String) throws -> [RemoteReference] {
        if case .own(let url) = gitDaemonAccess(remote: remote) {
            do throws(GitDaemonListingFailure) {
                return try GitDaemonListing.references(of: url, timeout: GitKit.networkTimeout)
            } catch {
                throw error.gitError(timeout: GitKit.networkTimeout, server: url.hostAttribute)
            }
        }
        return try RemoteSession(self, remote: remote).references
    }
}
