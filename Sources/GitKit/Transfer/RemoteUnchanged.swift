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
        guard !mappings.isEmpty, mappings.count == refspecs.count, let advertised = try? remoteReferences(remote) else {
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
}
