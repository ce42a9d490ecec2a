internal import CLibgit2

// A fetch from a remote across a network whose references have not moved needs only the remote's reference list.
// libgit2 speaks protocol v0, where that list is the server's first answer: one round trip after the connection is
// set up (git's own fetch over protocol v2 asks for it in a second request, and starts a process). When the list
// maps onto exactly the references the last fetch wrote, the fetch is skipped.

/// What one listing of a remote's references says about a fetch from it.
enum RemoteListing {
    /// Every reference the remote advertises already lands where the fetch would put it, and nothing would be pruned.
    case unchanged
    /// The remote was listed (over protocol v0, libgit2's only one) and the fetch would change something.
    case changed
    /// The remote could not be listed, or the refspecs are of a form the comparison does not read.
    case unknown
}

extension Repository {
    /// Whether fetching `refspecs` (each `[+]refs/a/*:refs/b/*` or `[+]refs/a/x:refs/b/x`) from `remote` would change no
    /// reference here and, with `prune`, delete none: `.unchanged` when every reference the remote advertises lands where
    /// a reference of the same target already is. `.changed` when anything differs or cannot be told from the listing (a
    /// name that is not valid UTF-8); `.unknown` for other refspec forms or a remote that cannot be listed. Only
    /// `.unchanged` skips the fetch.
    func listRemoteForFetch(remote: String, refspecs: [String], prune: Bool) -> RemoteListing {
        let mappings = refspecs.compactMap(RefspecMapping.init)
        guard !mappings.isEmpty, mappings.count == refspecs.count else { return .unknown }
        guard let advertised = try? remoteReferences(remote) else {
            git_error_clear()
            return .unknown
        }
        var expected: [ReferenceName: OID] = [:]
        for reference in advertised {
            if reference.name.unicodeScalars.contains("\u{FFFD}") { return .changed }
            for mapping in mappings {
                // Peeled entries (`refs/tags/v1^{}`) map to names that are not valid, as git ignores them.
                if let destination = mapping.destination(for: reference.name), LocalFetch.isValidReferenceName(destination) {
                    guard (try? referenceTarget(destination)) == reference.target else { git_error_clear(); return .changed }
                    expected[ReferenceName(destination)] = reference.target
                }
            }
        }
        guard prune else { return .unchanged }
        for mapping in mappings {
            guard let local = try? references(matching: mapping.destinationGlob) else { git_error_clear(); return .changed }
            // A symbolic reference (`refs/remotes/origin/HEAD`) is never pruned, as git never does.
            if local.contains(where: { expected[ReferenceName($0.name)] == nil && !isSymbolicReference($0.name) }) { return .changed }
        }
        return .unchanged
    }
}
