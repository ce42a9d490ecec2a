internal import CLibgit2
import Foundation

extension Repository {
    /// The object id of `path` (a file or folder) in a commit's tree; nil when the path does not exist there.
    public func treeEntryID(_ path: String, in commit: OID) throws -> OID? {
        let object = try lookupCommit(commit)
        let tree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, object.pointer) }, owner: self)
        guard let entry = try nilIfNotFound({ () throws(GitError) in
            TreeEntryHandle(try make("git_tree_entry_bypath") { git_tree_entry_bypath(&$0, tree.pointer, path) }, owner: self)
        }) else { return nil }
        return OID(git_tree_entry_id(entry.pointer))
    }

    /// Like `git log tip ^hidden… -- path`: the commits that changed `path` compared with their first parent, newest first.
    public func log(from tip: OID, excluding hidden: [OID] = [], touching path: String) throws -> [CommitInfo] {
        let normalized = path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if normalized.isEmpty || normalized == "." { return try log(from: tip, excluding: hidden) }
        return try log(from: tip, excluding: hidden).filter { commit in
            let here = try treeEntryID(normalized, in: commit.oid)
            let before = try commit.parents.first.flatMap { try treeEntryID(normalized, in: $0) }
            return here != before
        }
    }
}
