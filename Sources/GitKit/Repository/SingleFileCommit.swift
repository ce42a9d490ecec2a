internal import CLibgit2
import Foundation

// Committing one generated file (e.g. a snapshot record) without touching anything else the user has staged, in
// steps a caller can order so that an interruption leaves a state it can recognise: the objects first (invisible),
// then the work-tree file, its index entry and last the branch, each replaced atomically.

/// A commit of one file on HEAD, written to the object database but not yet on any branch.
public struct PreparedFileCommit: Sendable, Equatable {
    public var commit: OID
    /// The commit it goes on top of: HEAD when it was prepared.
    public var parent: OID
    /// The file's blob.
    public var blob: OID
    /// The file's blob in `parent`; nil when the file is new.
    public var previousBlob: OID?
}

extension Repository {
    /// Writes a commit of HEAD's tree plus `path` with `contents` (blob, tree and commit objects only): no reference,
    /// index or work-tree file changes, so dropping it leaves nothing but unreachable objects.
    public func prepareFileCommit(_ path: String, contents: Data, message: String) throws -> PreparedFileCommit {
        guard let parentOID = try referenceTarget("HEAD") else {
            throw GitError(code: .unbornBranch, errorClass: "reference", message: "HEAD has no commit yet", function: "prepareFileCommit")
        }
        let parent = try lookupCommit(parentOID)
        let parentTree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, parent.pointer) }, owner: self)
        let index = IndexHandle(try make("git_index_new") { git_index_new(&$0) }, owner: self)
        try check(git_index_read_tree(index.pointer, parentTree.pointer), "git_index_read_tree")
        let previous = git_index_get_bypath(index.pointer, path, 0).map { OID($0.pointee.id) }
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
        try check(git_commit_create(&oid, pointer, nil, authorHandle.pointer, committer.pointer, nil, text,
                                    tree.pointer, 1, &parents), "git_commit_create")
        return PreparedFileCommit(commit: OID(oid), parent: parentOID, blob: OID(blobOID), previousBlob: previous)
    }

    /// Stages the work-tree file at `path` as it is now (content and stat data), leaving every other index entry alone.
    public func stageFile(_ path: String) throws {
        let index = try openIndex()
        try check(git_index_read(index.pointer, 1), "git_index_read")
        try withOptionalCString(path) { (cPath) throws(GitError) in
            try check(git_index_add_bypath(index.pointer, cPath), "git_index_add_bypath")
        }
        try check(git_index_write(index.pointer), "git_index_write")
    }

    /// Points HEAD's branch (or a detached HEAD) from `old` to `new` without touching the index or work tree, like
    /// `git reset --soft`; refuses (`.modified`) when the branch is no longer at `old`.
    public func moveHead(from old: OID, to new: OID, logMessage: String) throws {
        _ = try lookupCommit(new)
        let head = try lookupReference("HEAD")
        var raw = new.gitOID, expected = old.gitOID
        if let branch = head.symbolicTarget {
            _ = ReferenceHandle(try make("git_reference_create_matching") {
                git_reference_create_matching(&$0, pointer, branch, &raw, 1, &expected, logMessage)
            }, owner: self)
        } else {
            guard head.directTarget == old else {
                throw GitError(code: .other(-15), errorClass: "reference", message: "HEAD moved since \(old.short)", function: "moveHead")
            }
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

    /// Whether `name` can name a branch, as `git check-ref-format --branch` says: `refs/heads/<name>` is a valid reference without
    /// control characters, and it neither starts with '-' nor is `HEAD` (`topic/x` is; `/etc`, `a..b`, `-f` are not).
    public static func isValidBranchName(_ name: String) -> Bool {
        GitKit.ensureInitialized()
        return !name.hasPrefix("-") && name != "HEAD" && FetchPlan.isValidReferenceName("refs/heads/" + name)
    }

    /// Whether `name` is a valid tag name for git (`v1.0.0` and `Core/1.2.0` are, `v1..0` and `a b` are not).
    public static func isValidTagName(_ name: String) -> Bool {
        GitKit.ensureInitialized()
        var valid: Int32 = 0
        return git_tag_name_is_valid(&valid, name) == 0 && valid == 1
    }
}
