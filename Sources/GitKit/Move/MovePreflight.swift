internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Everything a move must know before it writes anything: that no git process or operation owns the repository,
/// that no local work or user file stands where the move writes, and that it can write what it needs.
/// Each check throws a `WorkTreeMoveRefusal` naming the cause and the paths.
enum MovePreflight {
    /// `localChanges`: the repository's local changes when the caller has just read them (the work tree is then not
    /// read a second time); nil reads them here.
    static func run(_ repository: Repository, _ plan: MovePlan, branch: String?, localChanges: LocalChanges? = nil) throws {
        try checkNotBusy(repository, branch: branch)
        if let branch, let worktree = try WorkTreeMove.linkedWorktree(holding: branch, in: repository) {
            throw WorkTreeMoveRefusal(reason: "branch \(branch) is checked out in the linked worktree \(worktree)", paths: [],
                                      hint: "switch that worktree to another branch, or remove it, then run the command again")
        }
        try checkLocalChanges(repository, plan, known: localChanges)
        try checkNestedRepositories(repository, plan)
        try checkObstacles(repository, plan)
        try checkWritable(repository, plan)
        try checkFreeSpace(repository, plan)
    }

    /// None of the locks the move takes (see `lockFiles`) and no rebase, merge, cherry-pick, revert, bisect or am in progress.
    static func checkNotBusy(_ repository: Repository, branch: String?) throws {
        try checkUnlocked(repository, branch: branch)
        let operations: [(marker: String, what: String, hint: String)] = [
            ("rebase-merge", "a rebase is in progress", "finish it (git rebase --continue) or abort it (git rebase --abort)"),
            ("rebase-apply/applying", "git am is in progress", "finish it (git am --continue) or abort it (git am --abort)"),
            ("rebase-apply", "a rebase is in progress", "finish it (git rebase --continue) or abort it (git rebase --abort)"),
            ("MERGE_HEAD", "a merge is in progress", "finish it (git commit) or abort it (git merge --abort)"),
            ("CHERRY_PICK_HEAD", "a cherry-pick is in progress", "finish it (git cherry-pick --continue) or abort it (git cherry-pick --abort)"),
            ("REVERT_HEAD", "a revert is in progress", "finish it (git revert --continue) or abort it (git revert --abort)"),
            ("sequencer", "a cherry-pick or revert sequence is in progress", "finish it (--continue) or abort it (--abort)"),
            ("BISECT_LOG", "a bisect is in progress", "end it with git bisect reset"),
        ]
        for operation in operations where FileSystem.kind(repository.directory.operationMarker(operation.marker)) != .missing {
            throw WorkTreeMoveRefusal(reason: operation.what, paths: [display(repository.directory.operationMarker(operation.marker), repository)],
                                      hint: operation.hint + ", then run the command again")
        }
    }

    /// The lock files git takes for what a move writes: the index, HEAD, and the branch it ends on.
    static func lockFiles(_ repository: Repository, branch: String?) -> [String] {
        let directory = repository.directory
        return [directory.indexLock, directory.headLock] + (branch.map { [directory.referenceLock("refs/heads/" + $0)] } ?? [])
    }

    /// None of `lockFiles` exists: another git process would be writing what the move writes (or died doing so).
    static func checkUnlocked(_ repository: Repository, branch: String?) throws {
        for lock in lockFiles(repository, branch: branch) where FileSystem.kind(lock) != .missing {
            let name = String(lock.dropFirst(repository.gitDir.count + 1))
            throw WorkTreeMoveRefusal(reason: "\(name) exists: another git process is using this repository", paths: [display(lock, repository)],
                                      hint: "wait for it to finish; if no git process is running, delete the file and run the command again")
        }
    }

    /// Unmerged paths anywhere, or local changes to a path the move writes.
    private static func checkLocalChanges(_ repository: Repository, _ plan: MovePlan, known: LocalChanges?) throws {
        let local = try known ?? repository.localChanges()
        if !local.conflicted.isEmpty {
            throw WorkTreeMoveRefusal(reason: "unmerged paths", paths: local.conflicted,
                                      hint: "resolve the conflicts and commit, then run the command again")
        }
        let touched = Set(plan.changes.map(\.path))
        let clashing = local.paths.filter { touched.contains($0) }
        if !clashing.isEmpty {
            throw WorkTreeMoveRefusal(reason: "local changes to files the move would overwrite", paths: clashing,
                                      hint: "commit or stash them, then run the command again")
        }
    }

    /// Untracked or ignored files where an incoming path goes, inside a directory that becomes a file, or a
    /// file or symlink where a directory comes. Ignored files count: they are often someone's local settings.
    /// `recovering`: the paths of the move itself may already hold their new content (an interrupted move).
    static func checkObstacles(_ repository: Repository, _ plan: MovePlan, recovering: Bool = false) throws {
        let removed = plan.removedPaths
        let own = recovering ? Set(plan.changes.map(\.path)) : removed
        var blocking = Set<String>()
        for change in plan.written {
            guard let new = change.new else { continue }
            for ancestor in FileSystem.ancestors(change.path) where !removed.contains(ancestor) {
                let kind = FileSystem.kind(plan.absolute(ancestor))
                if kind != .missing && kind != .directory { blocking.insert(ancestor) }
            }
            let kind = FileSystem.kind(plan.absolute(change.path))
            if kind == .directory, !new.isGitlink, change.old.map({ $0.isGitlink }) ?? true {
                blocking.formUnion(FileSystem.files(under: plan.absolute(change.path), relativeTo: plan.workdir)
                    .filter { !own.contains($0) })
            } else if change.old == nil, kind != .missing, kind != .directory || !new.isGitlink, !recovering {
                blocking.insert(change.path)
            }
        }
        guard !blocking.isEmpty else { return }
        let named = try blocking.sorted().map { path in try repository.isIgnored(path) ? "\(path) (ignored)" : "\(path) (untracked)" }
        throw WorkTreeMoveRefusal(reason: "files that git does not track are in the way of incoming files", paths: named,
                                  hint: "move them elsewhere (or commit them), then run the command again")
    }

    /// No change lands inside another repository nested in the work tree (a repository module inside this one, as repo
    /// and west place them): the files there are that repository's, and git itself never writes into one.
    static func checkNestedRepositories(_ repository: Repository, _ plan: MovePlan) throws {
        let inside = NestedRepositories.changes(plan.changes.map(\.path), under: plan.workdir)
        guard !inside.isEmpty else { return }
        throw WorkTreeMoveRefusal(reason: "incoming changes lie inside another git repository nested in this work tree",
                                  paths: inside.map { "\($0.path) (in the repository at \($0.repository))" },
                                  hint: "the commit tracks files in a nested repository's folder; move that repository away, then run the command again")
    }

    /// Every directory the move creates, renames or removes entries in must be writable, and so must the git directory;
    /// a file the move replaces must not be immutable (a merely read-only file is replaced, as git does).
    private static func checkWritable(_ repository: Repository, _ plan: MovePlan) throws {
        var directories = Set<String>([repository.gitDir])
        var files = Set<String>()
        for change in plan.written {
            var directory = FileSystem.parent(change.path)
            while !directory.isEmpty && FileSystem.kind(plan.absolute(directory)) == .missing { directory = FileSystem.parent(directory) }
            directories.insert(directory.isEmpty ? plan.workdir : plan.absolute(directory))
            if change.old != nil { files.insert(plan.absolute(change.path)) }
        }
        var denied = directories.filter { access($0, W_OK) != 0 }.sorted()
        denied += files.filter { access($0, W_OK) != 0 && (errno == EPERM || errno == EROFS) }.sorted()
        guard !denied.isEmpty else { return }
        throw WorkTreeMoveRefusal(reason: "no permission to write", paths: denied.map { display($0, repository) },
                                  hint: "make them writable (chmod u+w), then run the command again")
    }

    /// Enough free space for every incoming file (rounded up to whole blocks) and a new index, with a margin.
    private static func checkFreeSpace(_ repository: Repository, _ plan: MovePlan) throws {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, repository.pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        var info = statvfs()
        guard statvfs(plan.workdir, &info) == 0 else { return }
        let block = UInt64(max(info.f_frsize, 4096))
        var needed: UInt64 = 1 << 20
        for change in plan.written {
            guard let new = change.new, !new.isGitlink else { continue }
            var size = 0
            var type = GIT_OBJECT_BLOB
            var raw = new.oid.gitOID
            try check(git_odb_read_header(&size, &type, odb, &raw), "git_odb_read_header")
            needed += (UInt64(size) + block - 1) / block * block + block
        }
        var index = stat()
        if stat(repository.directory.index, &index) == 0 { needed += UInt64(index.st_size) * 2 }
        let available = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        if available < needed {
            throw WorkTreeMoveRefusal(reason: "not enough free disk space: the move needs about \(megabytes(needed)), \(megabytes(available)) is free",
                                      paths: [plan.workdir], hint: "free some space, then run the command again")
        }
    }

    private static func megabytes(_ bytes: UInt64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    /// A path relative to the work tree when it lies inside it.
    static func display(_ path: String, _ repository: Repository) -> String {
        guard let workdir = repository.workdir, path.hasPrefix(workdir + "/") else { return path }
        return String(path.dropFirst(workdir.count + 1))
    }
}
