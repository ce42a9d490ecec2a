internal import CLibgit2
import Foundation

/// How replaying a branch's commits onto another commit ended.
public enum ReplayOutcome: Sendable, Equatable {
    /// The new tip, and how many commits were replayed (commits already upstream are dropped).
    case replayed(tip: OID, count: Int)
    /// The branch already contains `onto`.
    case upToDate
    /// Replaying `commit` conflicts in `paths`; nothing was written.
    case conflict(commit: OID, paths: [String])
    /// The branch holds merge commits, which are not replayed.
    case hasMerges
}

extension Repository {
    /// Replays the commits of `branch` that `onto` lacks on top of `onto`, in memory (no work tree, no index),
    /// like `git rebase onto`; on success moves the branch to the new tip and, when it is HEAD, checks its tree
    /// out with the SAFE strategy. Nothing changes when a commit conflicts.
    public func replay(branch: String, onto: OID) throws -> ReplayOutcome {
        let ref = try lookupBranch(branch)
        let tip = try peelToCommit(ref)
        if try tip == onto || isDescendant(tip, of: onto) { return .upToDate }
        let commits = try log(from: tip, excluding: [onto]).reversed()
        if commits.contains(where: { $0.parents.count > 1 }) { return .hasMerges }
        let committer = try defaultSignature().makeHandle()
        var base = onto
        var count = 0
        for info in commits {
            let commit = try lookupCommit(info.oid)
            let baseCommit = try lookupCommit(base)
            var options = git_merge_options()
            try check(git_merge_options_init(&options, UInt32(GIT_MERGE_OPTIONS_VERSION)), "git_merge_options_init")
            let index = IndexHandle(try make("git_cherrypick_commit") {
                git_cherrypick_commit(&$0, pointer, commit.pointer, baseCommit.pointer, 0, &options)
            }, owner: self)
            if git_index_has_conflicts(index.pointer) == 1 {
                return .conflict(commit: info.oid, paths: conflictedPaths(index))
            }
            var treeOID = git_oid()
            try check(git_index_write_tree_to(&treeOID, index.pointer, pointer), "git_index_write_tree_to")
            // A change already upstream leaves the tree as it was: drop the commit, as git rebase does.
            if OID(treeOID) == OID(git_commit_tree_id(baseCommit.pointer)) { continue }
            let tree = ObjectHandle(try make("git_tree_lookup") { git_tree_lookup(&$0, pointer, &treeOID) }, owner: self)
            var parents: [OpaquePointer?] = [baseCommit.pointer]
            var newOID = git_oid()
            try check(git_commit_create(&newOID, pointer, nil, git_commit_author(commit.pointer), committer.pointer,
                                        git_commit_message_encoding(commit.pointer), git_commit_message(commit.pointer),
                                        tree.pointer, 1, &parents), "git_commit_create")
            base = OID(newOID)
            count += 1
        }
        let target = try lookupCommit(base)
        if try check(git_branch_is_head(ref.pointer), "git_branch_is_head") == 1, !isBare {
            try checkoutTree(of: target)
        }
        var raw = base.gitOID
        _ = ReferenceHandle(try make("git_reference_set_target") {
            git_reference_set_target(&$0, ref.pointer, &raw, "modkit sync --rebase: onto \(onto.short)")
        }, owner: self)
        return .replayed(tip: base, count: count)
    }

    private func conflictedPaths(_ index: IndexHandle) -> [String] {
        var iterator: OpaquePointer?
        guard git_index_conflict_iterator_new(&iterator, index.pointer) == 0, let iterator else { return [] }
        defer { git_index_conflict_iterator_free(iterator) }
        var paths: [String] = []
        var ancestor: UnsafePointer<git_index_entry>?, ours: UnsafePointer<git_index_entry>?, theirs: UnsafePointer<git_index_entry>?
        while git_index_conflict_next(&ancestor, &ours, &theirs, iterator) == 0 {
            if let entry = ours ?? theirs ?? ancestor { paths.append(String(cString: entry.pointee.path)) }
        }
        return paths
    }
}
