import Foundation

// A sync of a workspace where nothing changed upstream is the most common one. For a remote on this machine the
// references it advertises are read in-process (libgit2 opens the repository and lists its refs), so a fetch with
// nothing to do costs no `git fetch` process and no upload-pack; anything else goes to the transfer as usual.

extension Repository {
    /// Whether fetching `refspecs` from the local remote `remote` would change nothing: every advertised reference a
    /// refspec maps is already at the same object locally, and no local reference under a destination pattern is
    /// missing from the remote (so pruning removes nothing). False whenever that cannot be established cheaply: a
    /// remote that is not on this machine, refspecs of other forms, an unreadable remote.
    func fetchWouldChangeNothing(remote: String, refspecs: [String]) -> Bool {
        guard let url = try? remoteURL(remote), GitKit.localPath(of: url) != nil else { return false }
        let mappings = refspecs.compactMap(RefspecMapping.init)
        guard !mappings.isEmpty, mappings.count == refspecs.count,
              let advertised = try? remoteReferences(remote) else { return false }
        var expected: [String: OID] = [:]
        for reference in advertised where !reference.name.hasSuffix("^{}") {
            for mapping in mappings {
                if let destination = mapping.destination(for: reference.name) { expected[destination] = reference.target }
            }
        }
        for (name, target) in expected where (try? referenceTarget(name)) != target { return false }
        for mapping in mappings {
            guard let local = try? references(matching: mapping.destinationGlob) else { return false }
            // `refs/remotes/origin/HEAD` is the clone's symbolic ref, never fetched nor pruned.
            if local.contains(where: { expected[$0.name] == nil && $0.name != mapping.target + "HEAD" }) { return false }
        }
        return true
    }
}

/// A fetch refspec of the form `[+]refs/a/*:refs/b/*` (one `*` on each side) or `[+]refs/a/x:refs/b/x`.
struct RefspecMapping {
    let source: String
    let target: String
    let glob: Bool

    init?(_ refspec: String) {
        let text = refspec.hasPrefix("+") ? String(refspec.dropFirst()) : refspec
        let sides = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard sides.count == 2, sides.allSatisfy({ $0.hasPrefix("refs/") }) else { return nil }
        let stars = sides.map { $0.filter { $0 == "*" }.count }
        guard stars[0] == stars[1], stars[0] <= 1 else { return nil }
        if stars[0] == 1 {
            guard sides.allSatisfy({ $0.hasSuffix("/*") }) else { return nil }
            source = String(sides[0].dropLast())
            target = String(sides[1].dropLast())
            glob = true
        } else {
            source = sides[0]
            target = sides[1]
            glob = false
        }
    }

    /// The local name the remote's `name` is fetched to; nil when this refspec does not take it.
    func destination(for name: String) -> String? {
        if glob { return name.hasPrefix(source) && name.count > source.count ? target + name.dropFirst(source.count) : nil }
        return name == source ? target : nil
    }

    /// The local references this refspec writes, as a glob for `references(matching:)`.
    var destinationGlob: String { glob ? target + "*" : target }
}
