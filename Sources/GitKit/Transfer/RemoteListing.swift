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
        let handle = try lookupRemote(remote)
        var callbacks = git_remote_callbacks()
        try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
        // The proxy git itself would use (http.proxy, the environment), as `git ls-remote` does.
        var proxy = git_proxy_options()
        try check(git_proxy_options_init(&proxy, UInt32(GIT_PROXY_OPTIONS_VERSION)), "git_proxy_options_init")
        proxy.type = GIT_PROXY_AUTO
        let box = RemoteCallbacksBox()
        box.install(into: &callbacks)
        try box.run { () throws(GitError) in
            try check(git_remote_connect(handle.pointer, GIT_DIRECTION_FETCH, &callbacks, &proxy, nil), "git_remote_connect")
        }
        defer { _ = git_remote_disconnect(handle.pointer) }
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        try check(git_remote_ls(&heads, &count, handle.pointer), "git_remote_ls")
        guard let heads else { return [] }
        return (0..<count).compactMap { index in
            guard let head = heads[index] else { return nil }
            var oid = head.pointee.oid
            return RemoteReference(name: String(cString: head.pointee.name), target: OID(withUnsafePointer(to: &oid) { $0.pointee }))
        }
    }
}
