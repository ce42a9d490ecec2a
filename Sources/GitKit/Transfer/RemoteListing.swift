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
    /// The references a remote advertises (connects without downloading anything), like `git ls-remote`.
    public func remoteReferences(_ remote: String) throws -> [RemoteReference] {
        try RemoteSession(self, remote: remote).references
    }
}
