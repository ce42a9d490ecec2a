internal import CLibgit2
import Foundation

/// The facts of one commit, copied out of libgit2.
public struct CommitInfo: Sendable, Equatable {
    public var oid: OID
    /// The first paragraph of the message, joined into one line.
    public var summary: String
    /// The full message as stored.
    public var message: String
    public var authorName: String
    public var authorEmail: String
    /// The author date (what `git log` shows).
    public var date: Date
    /// The committer date (when the commit was made or last rewritten).
    public var committerDate: Date
    public var parents: [OID]
}

extension Repository {
    /// Commits the index on HEAD (an unborn HEAD makes the initial commit); author defaults to `defaultSignature()`.
    @discardableResult
    public func commit(message: String, author: Signature? = nil) throws -> OID {
        let author = try author ?? defaultSignature()
        let committer = try ((try? defaultSignature()) ?? author).makeHandle()
        let authorHandle = try author.makeHandle()
        let index = try openIndex()
        if git_index_has_conflicts(index.pointer) == 1 {
            throw GitError(code: .unmerged, errorClass: "index", message: "the index has unresolved conflicts",
                           function: "commit")
        }
        var treeOID = git_oid()
        try check(git_index_write_tree(&treeOID, index.pointer), "git_index_write_tree")
        let tree = ObjectHandle(try make("git_tree_lookup") { git_tree_lookup(&$0, pointer, &treeOID) }, owner: self)
        let parents = try referenceTarget("HEAD").map { (oid) throws(GitError) in [try lookupCommit(oid)] } ?? []
        var parentPointers: [OpaquePointer?] = parents.map { $0.pointer }
        let text = try prettify(message)
        var oid = git_oid()
        try check(git_commit_create(&oid, pointer, "HEAD", authorHandle.pointer, committer.pointer, nil, text,
                                    tree.pointer, parentPointers.count, &parentPointers), "git_commit_create")
        return OID(oid)
    }

    /// Reads one commit; throws `.notFound` when it is not in the repository.
    public func commitInfo(_ oid: OID) throws -> CommitInfo {
        try info(of: lookupCommit(oid))
    }

    /// Commits reachable from `tip` but not from any of `hidden`, newest first, like `git log tip ^hidden…`.
    public func log(from tip: OID, excluding hidden: [OID] = [], limit: Int? = nil) throws -> [CommitInfo] {
        let walk = RevwalkHandle(try make("git_revwalk_new") { git_revwalk_new(&$0, pointer) }, owner: self)
        try check(git_revwalk_sorting(walk.pointer, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue),
                  "git_revwalk_sorting")
        var tipOID = tip.gitOID
        try check(git_revwalk_push(walk.pointer, &tipOID), "git_revwalk_push")
        for oid in hidden {
            var raw = oid.gitOID
            try check(git_revwalk_hide(walk.pointer, &raw), "git_revwalk_hide")
        }
        var commits: [CommitInfo] = []
        while limit.map({ commits.count < $0 }) ?? true {
            var next = git_oid()
            let result = git_revwalk_next(&next, walk.pointer)
            if result == GIT_ITEROVER.rawValue { break }
            try check(result, "git_revwalk_next")
            commits.append(try info(of: lookupCommit(OID(next))))
        }
        return commits
    }

    func info(of commit: ObjectHandle) throws(GitError) -> CommitInfo {
        let author = Signature(git_commit_author(commit.pointer))
        let committer = Signature(git_commit_committer(commit.pointer))
        let parents = (0..<git_commit_parentcount(commit.pointer)).compactMap { git_commit_parent_id(commit.pointer, $0) }
        return CommitInfo(
            oid: OID(git_commit_id(commit.pointer)),
            summary: git_commit_summary(commit.pointer).map { String(cString: $0) } ?? "",
            message: git_commit_message(commit.pointer).map { String(cString: $0) } ?? "",
            authorName: author.name, authorEmail: author.email, date: author.date,
            committerDate: committer.date,
            parents: parents.map(OID.init))
    }
}
