internal import CLibgit2

/// One path whose entry differs between two trees: a file, symlink or gitlink on either side (never a tree).
struct MoveChange {
    struct Entry: Equatable {
        var oid: OID
        var mode: UInt32
        var isLink: Bool { mode == UInt32(GIT_FILEMODE_LINK.rawValue) }
        var isGitlink: Bool { mode == UInt32(GIT_FILEMODE_COMMIT.rawValue) }
        var isExecutable: Bool { mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue) }
    }

    var path: String
    var old: Entry?
    var new: Entry?
}

extension Repository {
    /// Every path that differs between the trees of two commits (nil: the empty tree), sorted by path;
    /// subtrees with the same id are skipped, so a small move costs little in a large repository.
    func changes(from old: OID?, to new: OID) throws(GitError) -> [MoveChange] {
        let oldTree = try old.map { (commit) throws(GitError) in try commitTree(commit) }
        var result: [MoveChange] = []
        try compare(oldTree, try commitTree(new), prefix: "", into: &result)
        return result.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    private func commitTree(_ commit: OID) throws(GitError) -> ObjectHandle {
        let object = try lookupCommit(commit)
        return ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, object.pointer) }, owner: self)
    }

    private func compare(_ old: ObjectHandle?, _ new: ObjectHandle?, prefix: String,
                         into result: inout [MoveChange]) throws(GitError) {
        // Names are compared as bytes: composed and decomposed spellings are two names to git, one to a Swift string.
        let oldEntries = entries(of: old), newEntries = entries(of: new)
        for name in Set(oldEntries.keys).union(newEntries.keys) {
            let path = prefix + String(decoding: name, as: UTF8.self)
            let before = oldEntries[name], after = newEntries[name]
            if before == after { continue }
            let treeMode = UInt32(GIT_FILEMODE_TREE.rawValue)
            let oldSubtree = try before.flatMap { (entry) throws(GitError) in entry.mode == treeMode ? try lookupTree(entry.oid) : nil }
            let newSubtree = try after.flatMap { (entry) throws(GitError) in entry.mode == treeMode ? try lookupTree(entry.oid) : nil }
            if oldSubtree != nil || newSubtree != nil {
                try compare(oldSubtree, newSubtree, prefix: path + "/", into: &result)
            }
            let oldLeaf = before?.mode == treeMode ? nil : before
            let newLeaf = after?.mode == treeMode ? nil : after
            if oldLeaf != nil || newLeaf != nil {
                result.append(MoveChange(path: path, old: oldLeaf, new: newLeaf))
            }
        }
    }

    /// The entries of one tree by name; entries from `git_tree_entry_byindex` belong to the tree, so they are copied out.
    private func entries(of tree: ObjectHandle?) -> [[UInt8]: MoveChange.Entry] {
        guard let tree else { return [:] }
        var result: [[UInt8]: MoveChange.Entry] = [:]
        for index in 0..<git_tree_entrycount(tree.pointer) {
            guard let entry = git_tree_entry_byindex(tree.pointer, index), let name = git_tree_entry_name(entry) else { continue }
            result[Array(UnsafeBufferPointer(start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name)))] =
                MoveChange.Entry(oid: OID(git_tree_entry_id(entry)), mode: UInt32(git_tree_entry_filemode(entry).rawValue))
        }
        return result
    }

    private func lookupTree(_ oid: OID) throws(GitError) -> ObjectHandle {
        var raw = oid.gitOID
        return ObjectHandle(try make("git_tree_lookup") { git_tree_lookup(&$0, pointer, &raw) }, owner: self)
    }
}
