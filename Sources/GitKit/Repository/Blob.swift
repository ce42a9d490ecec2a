internal import CLibgit2
import Foundation

extension Repository {
    /// The raw bytes of a file in a revision (no filters applied); nil when the path does not exist there, throws when the revision does not.
    public func readFile(_ path: String, at revision: String) throws -> Data? {
        let commit = try resolveCommitObject(revision).commit
        let tree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, commit.pointer) }, owner: self)
        guard let entry = try nilIfNotFound({ () throws(GitError) in
            TreeEntryHandle(try make("git_tree_entry_bypath") { git_tree_entry_bypath(&$0, tree.pointer, path) }, owner: self)
        }) else { return nil }
        guard git_tree_entry_type(entry.pointer) == GIT_OBJECT_BLOB else {
            throw GitError(code: .invalid, errorClass: "tree", message: "'\(path)' is not a file in \(revision)",
                           function: "readFile")
        }
        let blob = ObjectHandle(try make("git_tree_entry_to_object") { git_tree_entry_to_object(&$0, pointer, entry.pointer) },
                                owner: self)
        let size = Int(git_blob_rawsize(blob.pointer))
        guard size > 0, let bytes = git_blob_rawcontent(blob.pointer) else { return Data() }
        return Data(bytes: bytes, count: size)
    }
}
