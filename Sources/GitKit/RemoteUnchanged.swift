internal import CLibgit2

// A fetch from a remote across a network whose references have not moved needs only the remote's reference list.
// libgit2 speaks protocol v0, where that list is the server's first answer: one round trip after the connection is
// set up (git's own fetch over protocol v2 asks for it in a second request, and starts a process). When the list
// maps onto exactly the references the last fetch wrote, the fetch is skipped.

extension Repository {
    /// True when fetching `refspecs` (each `[+]refs/a/*:refs/b/*` or `[+]refs/a/x:refs/b/x`) from `remote` would
    /// change no reference here and, with `prune`, delete none: every reference the remote advertises lands where a
    /// reference of the same target already is. False when anything differs or cannot be told (other refspec forms,
    /// a name that is not valid UTF-8, a remote that cannot be listed): the fetch then runs as usual.
    func fetchWouldChangeNothing(remote: String, refspecs: [String], prune: Bool) -> Bool {
        let mappings = refspecs.compactMap(RefspecMapping.init)
        guard !mappings.isEmpty, mappings.count == refspecs.count, let advertised = try? advertisedReferences(remote) else {
            git_error_clear()
            return false
        }
        var expected: [ReferenceName: OID] = [:]
        for reference in advertised {
            if reference.name.unicodeScalars.contains("\u{FFFD}") { return false }
            for mapping in mappings {
                // Peeled entries (`refs/tags/v1^{}`) map to names that are not valid, as git ignores them.
                if let destination = mapping.destination(for: reference.name), LocalFetch.isValidReferenceName(destination) {
                    guard (try? referenceTarget(destination)) == reference.target else { git_error_clear(); return false }
                    expected[ReferenceName(destination)] = reference.target
                }
            }
        }
        guard prune else { return true }
        for mapping in mappings {
            guard let local = try? references(matching: mapping.destinationGlob) else { git_error_clear(); return false }
            // A symbolic reference (`refs/remotes/origin/HEAD`) is never pruned, as git never does.
            if local.contains(where: { expected[ReferenceName($0.name)] == nil && !isSymbolicReference($0.name) }) { return false }
        }
        return true
    }

    /// The remote's reference list (`git ls-remote`), through the proxy git would use.
    private func advertisedReferences(_ remote: String) throws -> [RemoteReference] {
        let handle = try lookupRemote(remote)
        var callbacks = git_remote_callbacks()
        try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
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
