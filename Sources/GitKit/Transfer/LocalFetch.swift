internal import CLibgit2
import Foundation

// A fetch from a repository on this machine (a path or a file:// url) is done in-process when it brings little: the
// remote's references are read from its directory, the objects its new tips need are copied as loose objects (what
// git's unpack-objects keeps below `fetch.unpackLimit`), and then the references move. The daily update of a module,
// one new commit, then costs no `git fetch`, upload-pack, pack-objects and unpack-objects processes, and a fetch with
// nothing new writes nothing at all. Anything bigger, or anything that cannot be established cheaply, goes to the
// transfer as usual, which packs it as git does.

extension Repository {
    /// Fetches `refspecs` from the remote `remote` in-process when it is on this machine and the fetch is small,
    /// deleting (`prune`) the references under a destination that the remote no longer has. Returns false, having
    /// written nothing, when the fetch must go to a transfer instead: see `LocalFetch.init`. Objects are written before
    /// any reference moves, and each object after the objects it names, so a fetch killed at any moment leaves at most
    /// objects nothing refers to; a reference update that fails is thrown.
    func fetchLocally(remote: String, refspecs: [String], prune: Bool, progress: ((TransferProgress) -> Bool)?) throws -> Bool {
        guard let fetch = LocalFetch(into: self, remote: remote, refspecs: refspecs, prune: prune) else { return false }
        if fetch.changesNothing { return true }
        // git keeps a fetch loose only below the limit (`fetch.unpackLimit` 100: at most 99 objects).
        guard let objects = fetch.missingObjects(limit: unpackLimit() - 1) else { return false }
        try fetch.apply(objects, progress: progress)
        return true
    }
}

/// One in-process fetch from a repository on this machine: the reference changes it makes, the objects they need.
struct LocalFetch {
    /// The inflated bytes of blobs above which a fetch goes to the transfer, which streams them into a pack.
    static let byteLimit = 64 << 20

    let source: Repository
    let plan: FetchPlan

    var target: Repository { plan.target }
    var updates: [FetchPlan.Update] { plan.updates }
    var changesNothing: Bool { plan.changesNothing }

    /// nil when the fetch is not one to do here: a remote that is not an absolute path or file:// url of a readable
    /// repository, refspecs of other forms than `RefspecMapping` reads or that write local branches, a shallow source (its history ends where the object walk below cannot see), a remote that hides
    /// references from fetches (`uploadpack.hideRefs`, `transfer.hideRefs`), or a fetch that `FetchPlan` leaves to git
    /// or that this repository wants git to write (`Repository.writesFetchItself`).
    init?(into target: Repository, remote: String, refspecs: [String], prune: Bool) {
        guard let url = try? target.remoteURL(remote), let path = GitKit.localPath(of: url), path.hasPrefix("/") else { return nil }
        guard let mappings = FetchPlan.mappings(refspecs), !FetchPlan.writesLocalBranches(mappings) else { return nil }
        guard let source = try? Repository.open(path), git_repository_is_shallow(source.pointer) == 0,
              !source.hidesReferencesFromFetches(),
              let advertised = try? source.references(matching: "refs/*") else {
            git_error_clear()
            return nil
        }
        self.source = source
        plan = FetchPlan(into: target, remote: remote, advertised: advertised.map { RemoteReference(name: $0.name, target: $0.target) },
                         mappings: mappings, prune: prune)
        guard !plan.needsGit else { return nil }
        // What only matters when something is written (the daily no-op sync reads no configuration for it).
        if !plan.changesNothing, !target.writesFetchItself(from: remote) { return nil }
    }

    /// The fetch of `plan` from `source`, for a source whose objects are all here already.
    init(source: Repository, plan: FetchPlan) {
        self.source = source
        self.plan = plan
    }

    /// Whether every object the updated references reach is in `source`, down to where the references here reach
    /// (git's connectivity check after a fetch). With `source` this repository, after a download and before the
    /// references move.
    func reachesOnlyObjectsHere() -> Bool {
        defer { git_error_clear() }
        return (try? collectMissingObjects(limit: .max, byteLimit: .max)) != nil
    }

    /// The objects the updated references need that no reference here reaches already, each after the objects it names
    /// (blobs and trees, then commits oldest first, then tags); nil when there are more than `limit` of them, their
    /// blobs hold more than `byteLimit` bytes, a reference names something other than a commit or a tag of one, or
    /// anything is unreadable.
    ///
    /// Every reference here reaches a complete history (git moves a reference only once its objects are in), so the
    /// commits they reach are the boundary: the new commits are those the new tips reach and no reference here does
    /// (a walk of the remote's history), and of each new commit's tree only what differs from every parent's tree at the
    /// same path is new (a parent is either new itself, and so copied, or on the boundary).
    func missingObjects(limit: Int) -> [OID]? {
        defer { git_error_clear() }
        return try? collectMissingObjects(limit: limit, byteLimit: Self.byteLimit)
    }

    private func collectMissingObjects(limit: Int, byteLimit: Int) throws -> [OID]? {
        let objects = try ObjectDatabase(of: source)
        let present = try ObjectDatabase(of: target)
        var tags: [OID] = []  // each tag after the tag it names
        var tips: [OID] = []
        for update in updates {
            var id = update.new
            var chain: [OID] = []
            while true {
                let type = try objects.header(id).type
                if type == GIT_OBJECT_COMMIT { tips.append(id); break }
                guard type == GIT_OBJECT_TAG, chain.count <= limit else { return nil }
                if !present.contains(id) { chain.append(id) }
                var oid = id.gitOID
                let tag = ObjectHandle(try make("git_tag_lookup") { git_tag_lookup(&$0, source.pointer, &oid) }, owner: source)
                id = OID(git_tag_target_id(tag.pointer))
            }
            for tag in chain.reversed() where !tags.contains(tag) { tags.append(tag) }
            if tags.count > limit { return nil }
        }
        guard let commits = try newCommits(from: tips, in: objects, limit: limit) else { return nil }
        var collector = TreeCollector(source: source, objects: objects, limit: limit - commits.count - tags.count, byteLimit: byteLimit)
        for commit in commits {
            var oid = commit.gitOID
            let handle = ObjectHandle(try make("git_commit_lookup") { git_commit_lookup(&$0, source.pointer, &oid) }, owner: source)
            // A parent is new (its tree is collected in its turn) or on the boundary: either way it covers what it shares.
            var parentTrees: [OID] = []
            for index in 0..<git_commit_parentcount(handle.pointer) {
                guard let parent = git_commit_parent_id(handle.pointer, index).map(OID.init),
                      let tree = source.treeID(ofCommit: parent) else { return nil }
                parentTrees.append(tree)
            }
            guard try collector.collect(OID(git_commit_tree_id(handle.pointer)), against: parentTrees) else { return nil }
        }
        return collector.order + commits + tags
    }

    /// The commits `tips` reach in the remote's history and no reference here reaches, parents first; nil past `limit`.
    private func newCommits(from tips: [OID], in objects: ObjectDatabase, limit: Int) throws -> [OID]? {
        guard !tips.isEmpty else { return [] }
        let walk = RevwalkHandle(try make("git_revwalk_new") { git_revwalk_new(&$0, source.pointer) }, owner: source)
        try check(git_revwalk_sorting(walk.pointer, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue), "git_revwalk_sorting")
        for tip in tips {
            var oid = tip.gitOID
            try check(git_revwalk_push(walk.pointer, &oid), "git_revwalk_push")
        }
        for known in Set(try target.references(matching: "refs/*").map(\.target)) where objects.contains(known) {
            var oid = known.gitOID
            // A reference to a tag of a tree or blob bounds no history.
            if git_revwalk_hide(walk.pointer, &oid) < 0 { git_error_clear() }
        }
        var commits: [OID] = []
        while true {
            var next = git_oid()
            let result = git_revwalk_next(&next, walk.pointer)
            if result == GIT_ITEROVER.rawValue { break }
            try check(result, "git_revwalk_next")
            commits.append(OID(next))
            if commits.count > limit { return nil }
        }
        return commits
    }

    /// Writes the objects here, then moves and deletes the references.
    func apply(_ objects: [OID], progress: ((TransferProgress) -> Bool)?) throws {
        if !objects.isEmpty {
            let from = try ObjectDatabase(of: source)
            let to = try ObjectDatabase(of: target)
            for id in objects {
                try to.write(try from.read(id.gitOID), expecting: id.gitOID)
            }
        }
        _ = progress?(TransferProgress(totalObjects: objects.count, indexedObjects: objects.count, receivedObjects: objects.count))
        try plan.applyReferences()
    }
}

extension Repository {
    /// Whether a fetch from `remote` here must be git's own: a partial clone (`--filter`), whose promisor remote serves
    /// missing objects; git checking what it receives (`fetch.fsckObjects`, else `transfer.fsckObjects`); or a
    /// `reference-transaction` hook that wants to see the reference updates.
    func wantsGitToSeeTheFetch(from remote: String) -> Bool {
        // Settings given to git through the environment (`git -c`, GIT_CONFIG_COUNT): libgit2 does not read them.
        let environment = ProcessInfo.processInfo.environment
        if environment["GIT_CONFIG_PARAMETERS"] != nil || environment["GIT_CONFIG_COUNT"] != nil { return true }
        let promisor = "remote.\(remote).promisor"
        let values = configBools(["extensions.partialclone", promisor, "fetch.fsckObjects", "transfer.fsckObjects", "modkit.fastPaths"])
        // The off switch (a fetch with nothing new writes nothing by either way, so it is read only here).
        if !FastPaths.isOn(configured: values["modkit.fastPaths"]) { return true }
        if values["extensions.partialclone"] != nil || values[promisor] == true { return true }
        if values["fetch.fsckObjects"] ?? values["transfer.fsckObjects"] ?? false { return true }
        return FileManager.default.isExecutableFile(atPath: GitHook.directory(of: self) + "/reference-transaction")
    }

    /// Whether an upload from this repository hides some references (`uploadpack.hideRefs`, `transfer.hideRefs`).
    func hidesReferencesFromFetches() -> Bool {
        !configStrings(["uploadpack.hideRefs", "transfer.hideRefs"]).isEmpty
    }

    func isSymbolicReference(_ name: String) -> Bool {
        defer { git_error_clear() }
        return (try? lookupReference(name))?.symbolicTarget != nil
    }
}

/// A reference name compared by its bytes, as git compares them.
struct ReferenceName: Hashable {
    let bytes: [UInt8]
    init(_ name: String) { bytes = Array(name.utf8) }
}

/// Collects the trees and blobs of new commits that differ from their parents', each after what it names.
private struct TreeCollector {
    let source: Repository
    let objects: ObjectDatabase
    let limit: Int
    let byteLimit: Int
    private(set) var order: [OID] = []
    private var seen: Set<OID> = []
    private var bytes = 0

    init(source: Repository, objects: ObjectDatabase, limit: Int, byteLimit: Int) {
        self.source = source
        self.objects = objects
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// Adds `tree` and whatever in it is not at the same path in one of `others`; false past the limits.
    mutating func collect(_ tree: OID, against others: [OID]) throws(GitError) -> Bool {
        if others.contains(tree) || seen.contains(tree) { return true }
        seen.insert(tree)
        let handle = try lookupTree(tree)
        let otherHandles = try others.map { (other) throws(GitError) in try lookupTree(other) }
        for index in 0..<git_tree_entrycount(handle.pointer) {
            guard let entry = git_tree_entry_byindex(handle.pointer, index) else { continue }
            let mode = git_tree_entry_filemode(entry)
            if mode == GIT_FILEMODE_COMMIT { continue }  // a submodule's commit is not in this repository
            let id = OID(git_tree_entry_id(entry))
            let name = git_tree_entry_name(entry)
            var counterparts: [OID] = []
            var counterpartTrees: [OID] = []
            // Only an entry of the same kind covers this one: a submodule's commit id may equal any object's id.
            for other in otherHandles {
                guard let match = git_tree_entry_byname(other.pointer, name) else { continue }
                let matchMode = git_tree_entry_filemode(match)
                guard matchMode != GIT_FILEMODE_COMMIT, (matchMode == GIT_FILEMODE_TREE) == (mode == GIT_FILEMODE_TREE) else { continue }
                counterparts.append(OID(git_tree_entry_id(match)))
                if matchMode == GIT_FILEMODE_TREE { counterpartTrees.append(OID(git_tree_entry_id(match))) }
            }
            if counterparts.contains(id) { continue }
            if mode == GIT_FILEMODE_TREE {
                guard try collect(id, against: counterpartTrees) else { return false }
            } else if !seen.contains(id) {
                seen.insert(id)
                bytes += try objects.header(id).size
                order.append(id)
            }
            if order.count > limit || bytes > byteLimit { return false }
        }
        order.append(tree)
        return order.count <= limit
    }

    private func lookupTree(_ id: OID) throws(GitError) -> ObjectHandle {
        var oid = id.gitOID
        return ObjectHandle(try make("git_tree_lookup") { git_tree_lookup(&$0, source.pointer, &oid) }, owner: source)
    }
}

/// A fetch refspec of the form `[+]refs/a/*:refs/b/*` (one `*` on each side) or `[+]refs/a/x:refs/b/x`.
struct RefspecMapping {
    let source: String
    let target: String
    let glob: Bool
    /// `+`: the destination moves to whatever the source names, fast-forward or not.
    let forced: Bool

    init?(_ refspec: String) {
        forced = refspec.hasPrefix("+")
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
