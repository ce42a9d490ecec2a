internal import CLibgit2
import Foundation

// Committing one generated file (e.g. a snapshot record) without touching anything else the user has staged,
// and undoing such a commit again (the reference only; the work tree is the caller's).

extension Repository {
    /// Commits HEAD's tree plus `path` with `contents` on HEAD (its branch, or detached HEAD); the index and work tree are left alone.
    @discardableResult
    public func commitFile(_ path: String, contents: Data, message: String) throws -> OID {
        guard let parentOID = try referenceTarget("HEAD") else {
            throw GitError(code: .unbornBranch, errorClass: "reference", message: "HEAD has no commit yet", function: "commitFile")
        }
        let parent = try lookupCommit(parentOID)
        let parentTree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, parent.pointer) }, owner: self)
        let index = IndexHandle(try make("git_index_new") { git_index_new(&$0) }, owner: self)
        try check(git_index_read_tree(index.pointer, parentTree.pointer), "git_index_read_tree")
        var blobOID = git_oid()
        let written = contents.withUnsafeBytes { raw in git_blob_create_from_buffer(&blobOID, pointer, raw.baseAddress, raw.count) }
        try check(written, "git_blob_create_from_buffer")
        var entry = git_index_entry()
        entry.mode = UInt32(GIT_FILEMODE_BLOB.rawValue)
        entry.id = blobOID
        try withOptionalCString(path) { (cPath) throws(GitError) in
            entry.path = cPath
            try check(git_index_add(index.pointer, &entry), "git_index_add")
        }
        var treeOID = git_oid()
        try check(git_index_write_tree_to(&treeOID, index.pointer, pointer), "git_index_write_tree_to")
        let tree = ObjectHandle(try make("git_tree_lookup") { git_tree_lookup(&$0, pointer, &treeOID) }, owner: self)
        let author = try defaultSignature()
        let authorHandle = try author.makeHandle()
        let committer = try author.makeHandle()
        let text = try prettify(message)
        var parents: [OpaquePointer?] = [parent.pointer]
        var oid = git_oid()
        try check(git_commit_create(&oid, pointer, "HEAD", authorHandle.pointer, committer.pointer, nil, text,
                                    tree.pointer, 1, &parents), "git_commit_create")
        return OID(oid)
    }

    /// Points HEAD's branch (or a detached HEAD) at `commit` without touching the index or work tree, like `git reset --soft`.
    public func moveHead(to commit: OID, logMessage: String) throws {
        _ = try lookupCommit(commit)
        let head = try lookupReference("HEAD")
        var raw = commit.gitOID
        if let branch = head.symbolicTarget {
            _ = ReferenceHandle(try make("git_reference_create") {
                git_reference_create(&$0, pointer, branch, &raw, 1, logMessage)
            }, owner: self)
        } else {
            try check(git_repository_set_head_detached(pointer, &raw), "git_repository_set_head_detached")
        }
    }

    /// Sets the index entries of `paths` to their state in `commit` (removing those it lacks), like `git reset <commit> -- paths`.
    public func resetIndex(paths: [String], to commit: OID) throws {
        let target = try lookupCommit(commit)
        _ = try withStrarray(paths) { (array) throws(GitError) in
            try check(git_reset_default(pointer, target.pointer, array), "git_reset_default")
        }
    }

    /// The id of the tree or blob at `path` in a revision (the root tree for ""); nil when the path does not exist there.
    public func objectID(atPath path: String, in revision: String) throws -> OID? {
        let commit = try resolveCommitObject(revision).commit
        let tree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, commit.pointer) }, owner: self)
        if path.isEmpty || path == "." { return OID(git_object_id(tree.pointer)) }
        return try nilIfNotFound { () throws(GitError) -> OID in
            let entry = TreeEntryHandle(try make("git_tree_entry_bypath") { git_tree_entry_bypath(&$0, tree.pointer, path) },
                                        owner: self)
            return OID(git_tree_entry_id(entry.pointer))
        }
    }

    /// Whether `name` is a valid tag name for git (`v1.0.0` and `Core/1.2.0` are, `v1..0` and `a b` are not).
    public static func isValidTagName(_ name: String) -> Bool {
        GitKit.ensureInitialized()
        var valid: Int32 = 0
        return git_tag_name_is_valid(&valid, name) == 0 && valid == 1
    }
}
