internal import CLibgit2
import Foundation

// What a move of HEAD must know before it touches a work tree: operations in progress, locks,
// linked work trees, the files two commits differ in, and what the index and work tree hold now.

/// One path whose blob differs between the trees of two commits; a nil side means absent there.
public struct TreeChange: Sendable, Equatable {
    public var path: String
    public var old: OID?
    public var new: OID?
}

/// Owns a `git_diff`.
private final class DiffHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_diff_free(pointer) }
}

extension Repository {
    /// The rebase, merge, cherry-pick, revert, bisect or am git is in the middle of; nil when none.
    public var operationInProgress: String? {
        switch git_repository_state(pointer) {
        case Int32(GIT_REPOSITORY_STATE_NONE.rawValue): return nil
        case Int32(GIT_REPOSITORY_STATE_MERGE.rawValue): return "a merge"
        case Int32(GIT_REPOSITORY_STATE_REVERT.rawValue), Int32(GIT_REPOSITORY_STATE_REVERT_SEQUENCE.rawValue): return "a revert"
        case Int32(GIT_REPOSITORY_STATE_CHERRYPICK.rawValue), Int32(GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE.rawValue):
            return "a cherry-pick"
        case Int32(GIT_REPOSITORY_STATE_BISECT.rawValue): return "a bisect"
        case Int32(GIT_REPOSITORY_STATE_APPLY_MAILBOX.rawValue), Int32(GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE.rawValue):
            return "a 'git am'"
        default: return "a rebase"
        }
    }

    /// Whether `index.lock` exists: another git process is writing the index (or died doing so).
    public var isIndexLocked: Bool {
        FileManager.default.fileExists(atPath: gitDir.withoutTrailingSlash + "/index.lock")
    }

    /// The linked work trees (their paths) that have branch `branch` checked out.
    public func linkedWorkTrees(holding branch: String) -> [String] {
        let common = String(cString: git_repository_commondir(pointer)).withoutTrailingSlash + "/worktrees"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: common)) ?? []
        return names.sorted().compactMap { name in
            let head = (try? String(contentsOfFile: "\(common)/\(name)/HEAD", encoding: .utf8)) ?? ""
            guard head.trimmingCharacters(in: .whitespacesAndNewlines) == "ref: refs/heads/\(branch)" else { return nil }
            let gitFile = (try? String(contentsOfFile: "\(common)/\(name)/gitdir", encoding: .utf8)) ?? name
            let path = gitFile.trimmingCharacters(in: .whitespacesAndNewlines)
            return path.hasSuffix("/.git") ? String(path.dropLast(5)) : path
        }
    }

    /// Every file that differs between the trees of two commits (a file replaced by a folder gives both paths).
    public func treeChanges(from old: OID, to new: OID) throws -> [TreeChange] {
        let oldCommit = try lookupCommit(old), newCommit = try lookupCommit(new)
        let oldTree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, oldCommit.pointer) }, owner: self)
        let newTree = ObjectHandle(try make("git_commit_tree") { git_commit_tree(&$0, newCommit.pointer) }, owner: self)
        let diff = DiffHandle(try make("git_diff_tree_to_tree") {
            git_diff_tree_to_tree(&$0, pointer, oldTree.pointer, newTree.pointer, nil)
        }, owner: self)
        return (0..<git_diff_num_deltas(diff.pointer)).compactMap { index in
            guard let delta = git_diff_get_delta(diff.pointer, index)?.pointee else { return nil }
            let present = { (file: git_diff_file) in file.flags & GIT_DIFF_FLAG_EXISTS.rawValue != 0 ? OID(file.id) : nil }
            let path = String(cString: (delta.new_file.path ?? delta.old_file.path)!)
            return TreeChange(path: path, old: present(delta.old_file), new: present(delta.new_file))
        }
    }

    /// The blob id of the work-tree file at `path` as `git add` would store it; nil when no file or symlink is there.
    public func workTreeBlobID(_ path: String) -> OID? {
        guard let workdir else { return nil }
        let full = workdir.withoutTrailingSlash + "/" + path
        var info = stat()
        guard lstat(full, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) else { return nil }
            var oid = git_oid()
            let bytes = Array(target.utf8)
            return git_odb_hash(&oid, bytes, bytes.count, GIT_OBJECT_BLOB) == 0 ? OID(oid) : nil
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        var oid = git_oid()
        guard git_repository_hashfile(&oid, pointer, full, GIT_OBJECT_BLOB, path) == 0 else { git_error_clear(); return nil }
        return OID(oid)
    }

    /// The raw bytes of a blob.
    public func blobContent(_ id: OID) throws -> Data {
        var raw = id.gitOID
        let blob = ObjectHandle(try make("git_object_lookup") { git_object_lookup(&$0, pointer, &raw, GIT_OBJECT_BLOB) }, owner: self)
        let size = Int(git_blob_rawsize(blob.pointer))
        guard size > 0, let bytes = git_blob_rawcontent(blob.pointer) else { return Data() }
        return Data(bytes: bytes, count: size)
    }

    /// The blob id the index holds for `path` (stage 0); nil when the index has no such entry.
    public func indexBlobID(_ path: String) throws -> OID? {
        let index = try openIndex()
        return git_index_get_bypath(index.pointer, path, 0).map { OID($0.pointee.id) }
    }

    /// The tracked paths whose index or work-tree state differs from HEAD (`git status -uno`).
    public func changedPaths() throws -> [String] {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = 0
        let list = StatusListHandle(try make("git_status_list_new") { git_status_list_new(&$0, pointer, &options) }, owner: self)
        var paths = Set<String>()
        for index in 0..<git_status_list_entrycount(list.pointer) {
            guard let entry = git_status_byindex(list.pointer, index)?.pointee else { continue }
            for delta in [entry.head_to_index, entry.index_to_workdir] {
                guard let delta = delta?.pointee else { continue }
                if let path = delta.old_file.path { paths.insert(String(cString: path)) }
                if let path = delta.new_file.path { paths.insert(String(cString: path)) }
            }
        }
        return paths.sorted()
    }

    /// Finishes a move to `commit` that was cut short while HEAD still names the old commit: removes the files the
    /// move adds, forces the work tree and index back to HEAD, then moves with the usual safe checkout to `branch`
    /// (or detached at `commit`). Only for a caller that has checked every changed path holds its old content, its
    /// new content or the start of it, so nothing of the user's is overwritten.
    public func completeInterruptedCheckout(branch: String?, commit: OID) throws {
        guard let head = try referenceTarget("HEAD"), var root = workdir else { return }
        while root.hasSuffix("/") { root.removeLast() }
        for change in try treeChanges(from: head, to: commit) where change.old == nil {
            var info = stat()
            let path = root + "/" + change.path
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            unlink(path)
            var parent = (change.path as String).split(separator: "/").dropLast()
            while !parent.isEmpty, rmdir(root + "/" + parent.joined(separator: "/")) == 0 { parent = parent.dropLast() }
        }
        let object = try lookupCommit(head)
        var options = git_checkout_options()
        try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue | GIT_CHECKOUT_RECREATE_MISSING.rawValue
        try check(git_checkout_tree(pointer, object.pointer, &options), "git_checkout_tree")
        if let branch { try checkoutBranch(branch) } else { try checkoutDetached(commit) }
    }
}
