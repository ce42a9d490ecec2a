internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Where an interrupted move stands, path by path: because the writer replaces files by rename, each path it
/// touched holds exactly its old or its new content; anything else there was put by someone else.
struct MoveRecovery {
    let repository: Repository
    let plan: MovePlan

    struct State {
        /// Paths that already hold their new content.
        var done: Set<String> = []
        /// Paths (work tree or index) holding neither the old nor the new content: the user's.
        var foreign: [String] = []
    }

    func classify() throws -> State {
        var state = State()
        let index = try repository.openIndex()
        try check(git_index_read(index.pointer, 0), "git_index_read")
        for change in plan.changes {
            if let entry = git_index_get_bypath(index.pointer, change.path, 0) {
                let staged = OID(entry.pointee.id)
                if staged != change.old?.oid && staged != change.new?.oid {
                    state.foreign.append(change.path)
                    continue
                }
            }
            guard !plan.skipped.contains(change.path) else { continue }
            switch try workTreeState(change) {
            case .new: state.done.insert(change.path)
            case .old: break
            case .foreign: state.foreign.append(change.path)
            }
        }
        return state
    }

    private enum PathState { case old, new, foreign }

    private func workTreeState(_ change: MoveChange) throws -> PathState {
        let path = plan.absolute(change.path)
        let kind = FileSystem.kind(path)
        switch kind {
        case .missing:
            return change.new == nil ? .new : .old
        case .directory:
            // A submodule's directory, or a directory that a file replaces (its contents are checked as paths of their own).
            if change.new?.isGitlink == true { return .new }
            return .old
        case .file, .link:
            let content = try hash(path, relative: change.path, isLink: kind == .link)
            if let new = change.new, !new.isGitlink, content == new.oid, new.isLink == (kind == .link),
               new.isLink || new.isExecutable == isExecutable(path) {
                return .new
            }
            if let old = change.old, !old.isGitlink, content == old.oid { return .old }
            return .foreign
        }
    }

    /// The blob id of a work-tree file as `git add` would store it (filters applied), or of a symlink's target.
    private func hash(_ path: String, relative: String, isLink: Bool) throws -> OID {
        var raw = git_oid()
        if isLink {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            guard length >= 0 else { throw FileSystem.error("cannot read", path) }
            try check(git_odb_hash(&raw, buffer, length, GIT_OBJECT_BLOB), "git_odb_hash")
        } else {
            try check(git_repository_hashfile(&raw, repository.pointer, path, GIT_OBJECT_BLOB, relative), "git_repository_hashfile")
        }
        return OID(raw)
    }

    private func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IXUSR != 0
    }
}
