internal import CLibgit2

// What a fetch does to the references here, worked out from the references the remote advertises: one plan for the
// in-process fetch from a repository on this machine (`LocalFetch`), the check that skips a remote that has not moved
// (`listRemoteForFetch`) and the download over the listing's own connection (`RemoteSession`).

/// The reference changes a fetch of some refspecs from one remote makes here.
struct FetchPlan {
    /// What a reference under a destination becomes.
    struct Update {
        let name: String
        let old: OID?
        let new: OID
    }

    let target: Repository
    let remote: String
    /// The refspecs the plan follows.
    let mappings: [RefspecMapping]
    private(set) var updates: [Update] = []
    private(set) var deletions: [String] = []
    /// The targets of the references under a destination that the fetch leaves where they are.
    private(set) var kept: [OID] = []
    /// Something here only git can decide: a name that is not valid UTF-8 (git keeps its bytes), a refspec without `+`
    /// that would move a reference (git decides whether that is a fast-forward), a symbolic reference the fetch would
    /// overwrite, or references that could not be read.
    private(set) var needsGit = false

    /// True when the fetch would write and delete nothing.
    var changesNothing: Bool { !needsGit && updates.isEmpty && deletions.isEmpty }

    /// The mappings of `refspecs` when each is of a form `RefspecMapping` reads; nil otherwise.
    static func mappings(_ refspecs: [String]) -> [RefspecMapping]? {
        let mappings = refspecs.compactMap(RefspecMapping.init)
        guard !mappings.isEmpty, mappings.count == refspecs.count else { return nil }
        return mappings
    }

    /// Whether a mapping writes a local branch: git refuses to move a checked-out one, so such a fetch is git's.
    static func writesLocalBranches(_ mappings: [RefspecMapping]) -> Bool {
        mappings.contains(where: { $0.target.hasPrefix("refs/heads/") })
    }

    /// The plan for fetching `mappings` of `advertised` (peeled `^{}` entries map to invalid names and are ignored, as
    /// git ignores them; so is a name that is not valid here, a "funny ref"), deleting with `prune` the references under
    /// a destination that the remote no longer has. Symbolic references (`refs/remotes/origin/HEAD`) are never pruned.
    init(into target: Repository, remote: String, advertised: [RemoteReference], mappings: [RefspecMapping], prune: Bool) {
        self.target = target
        self.remote = remote
        self.mappings = mappings
        defer { git_error_clear() }
        // Reference names are bytes: keyed as Strings, two names that differ only in Unicode normalization would be one.
        var expected: [ReferenceName: (name: String, target: OID, forced: Bool)] = [:]
        for reference in advertised {
            // A name that was not valid UTF-8 reached us altered; git keeps its bytes.
            if reference.name.unicodeScalars.contains("\u{FFFD}") { needsGit = true; return }
            for mapping in mappings {
                if let destination = mapping.destination(for: reference.name), Self.isValidReferenceName(destination) {
                    expected[ReferenceName(destination)] = (destination, reference.target, mapping.forced)
                }
            }
        }
        for wanted in expected.values.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }) {
            let current = try? target.referenceTarget(wanted.name)
            guard current != wanted.target else { kept.append(wanted.target); continue }
            if current != nil, !wanted.forced || target.isSymbolicReference(wanted.name) { needsGit = true; return }
            updates.append(Update(name: wanted.name, old: current, new: wanted.target))
        }
        guard prune else { return }
        var pruned: Set<ReferenceName> = []
        for mapping in mappings {
            guard let local = try? target.references(matching: mapping.destinationGlob) else { needsGit = true; return }
            for reference in local where expected[ReferenceName(reference.name)] == nil
                && !pruned.contains(ReferenceName(reference.name)) && !target.isSymbolicReference(reference.name) {
                if reference.name.unicodeScalars.contains("\u{FFFD}") { needsGit = true; return }
                pruned.insert(ReferenceName(reference.name))
                deletions.append(reference.name)
            }
        }
    }

    /// Valid for libgit2, and without the control characters and DEL that git refuses too ("funny ref").
    static func isValidReferenceName(_ name: String) -> Bool {
        guard !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
        var valid: Int32 = 0
        return git_reference_name_is_valid(&valid, name) == 0 && valid == 1
    }

    /// Deletes, then moves the references, once every object they name is here. Each reflog entry says what git's
    /// says ("fetch origin: fast-forward").
    func applyReferences() throws {
        // Pruning first, as git does: a branch `release` may give way to `release/1.0`, and the other way round.
        for name in deletions {
            do {
                try target.deleteReference(name)
            } catch let error as GitError where error.code == .notFound {
                continue
            }
        }
        // As git does, one reference that cannot be written (a name the file system refuses, a directory in the way)
        // fails the fetch but does not stop the others.
        // "reference: error" texts, folded into the one GitError thrown below; not a list for the user.
        var failures: [String] = []
        for update in updates {
            do {
                try target.setReference(update.name, to: update.new, force: true, logMessage: "fetch \(remote): \(reflogAction(update))")
            } catch {
                failures.append("\(update.name): \(error)")
            }
        }
        if !failures.isEmpty {
            throw GitError(code: .other(-1), message: "could not update \(failures.joined(separator: "; "))", function: "git_reference_create")
        }
    }

    /// What git's reflog says for the update: a new reference, a fast-forward, or a forced one.
    private func reflogAction(_ update: Update) -> String {
        guard let old = update.old else { return "storing head" }
        var descendant = update.new.gitOID
        var ancestor = old.gitOID
        defer { git_error_clear() }
        return git_graph_descendant_of(target.pointer, &descendant, &ancestor) == 1 ? "fast-forward" : "forced-update"
    }
}

extension Repository {
    /// Whether modkit may write a fetch from `remote` here itself: not in a shallow repository (its history ends where
    /// a walk cannot see) and not where git must see the fetch (`wantsGitToSeeTheFetch`, which holds the off switch).
    func writesFetchItself(from remote: String) -> Bool {
        git_repository_is_shallow(pointer) == 0 && !wantsGitToSeeTheFetch(from: remote)
    }
}
