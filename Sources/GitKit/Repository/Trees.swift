internal import CLibgit2

/// A submodule commit recorded in a tree: an entry of mode 160000 (a gitlink).
public struct Gitlink: Sendable, Equatable {
    /// Path from the repository root, with `/` separators.
    public var path: String
    public var commit: OID
}

extension Repository {
    /// The id of a commit's tree, read from the commit alone; nil when the commit is missing or unreadable.
    func treeID(ofCommit commit: OID) -> OID? {
        defer { git_error_clear() }
        guard let object = try? lookupCommit(commit), let tree = git_commit_tree_id(object.pointer) else { return nil }
        return OID(tree)
    }

    /// Every gitlink in the tree of `revision`, in path order; throws `.notFound` when the revision does not exist (e.g. an unborn HEAD).
    public func gitlinks(at revision: String = "HEAD") throws -> [Gitlink] {
        let commit = try resolveCommitObject(revision).commit
        let tree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, commit.pointer) }, owner: self)
        var result: [Gitlink] = []
        try collectGitlinks(in: tree, prefix: "", into: &result)
        return result
    }

    /// Walks one tree; entries returned by `git_tree_entry_byindex` belong to the tree and are not freed.
    private func collectGitlinks(in tree: ObjectHandle, prefix: String, into result: inout [Gitlink]) throws(GitError) {
        let count = git_tree_entrycount(tree.pointer)
        for index in 0..<count {
            guard let entry = git_tree_entry_byindex(tree.pointer, index) else { continue }
            let name = String(cString: git_tree_entry_name(entry))
            let path = prefix.isEmpty ? name : prefix + "/" + name
            let mode = git_tree_entry_filemode(entry)
            if mode == GIT_FILEMODE_COMMIT {
                result.append(Gitlink(path: path, commit: OID(git_tree_entry_id(entry))))
            } else if mode == GIT_FILEMODE_TREE {
                let subtree = ObjectHandle(
                    try make("git_tree_entry_to_object") { git_tree_entry_to_object(&$0, pointer, entry) }, owner: self)
                try collectGitlinks(in: subtree, prefix: path, into: &result)
            }
        }
    }
}
