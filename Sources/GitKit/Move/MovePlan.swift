internal import CLibgit2
import Foundation

/// What one move changes: every path that differs between the two commits, and which of them stay out of the
/// work tree (skip-worktree entries of a sparse checkout, which only the index records).
struct MovePlan {
    let workdir: String
    let from: OID?
    let to: OID
    let changes: [MoveChange]
    let skipped: Set<String>
    /// Whether the repository is a sparse checkout (`core.sparseCheckout` with patterns).
    let isSparse: Bool

    init(_ repository: Repository, from: OID?, to: OID) throws {
        guard let workdir = repository.workdir else {
            throw GitError(code: .bareRepository, message: "a bare repository has no work tree to move", function: "WorkTreeMove")
        }
        self.workdir = workdir
        self.from = from
        self.to = to
        changes = try repository.changes(from: from, to: to)
        let sparse = try SparseCheckout(repository)
        isSparse = sparse != nil
        let index = try repository.openIndex()
        try check(git_index_read(index.pointer, 0), "git_index_read")
        var skipped = Set<String>()
        for change in changes {
            if let entry = git_index_get_bypath(index.pointer, change.path, 0) {
                if entry.pointee.flags_extended & UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue) != 0 { skipped.insert(change.path) }
            } else if change.new != nil, let sparse, !sparse.includes(change.path) {
                skipped.insert(change.path)
            }
        }
        self.skipped = skipped
    }

    /// The changes that touch the work tree.
    var written: [MoveChange] { changes.filter { !skipped.contains($0.path) } }

    /// The absolute path of a work-tree path.
    func absolute(_ path: String) -> String { workdir + "/" + path }

    /// Paths the move removes (tracked before, gone or replaced after), which may stand where new paths go.
    var removedPaths: Set<String> { Set(changes.filter { $0.old != nil }.map(\.path)) }
}

/// Thin wrappers over the file-system calls a move makes, with errors that name the path.
enum FileSystem {
    enum Kind { case missing, file, link, directory }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .file
        }
    }

    /// Every non-directory below `directory`, as paths relative to `base`.
    static func files(under directory: String, relativeTo base: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var result: [String] = []
        for name in names {
            let path = directory + "/" + name
            if kind(path) == .directory {
                result += files(under: path, relativeTo: base)
            } else {
                result.append(String(path.dropFirst(base.count + 1)))
            }
        }
        return result
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The leading directories of a relative path, outermost first ("a/b/c" → "a", "a/b").
    static func ancestors(_ path: String) -> [String] {
        var result: [String] = []
        var index = path.startIndex
        while let slash = path[index...].firstIndex(of: "/") {
            result.append(String(path[..<slash]))
            index = path.index(after: slash)
        }
        return result
    }

    static func error(_ what: String, _ path: String, _ code: Int32 = errno) -> GitError {
        GitError(code: .other(-1), errorClass: "os", message: "\(what) \(path): \(String(cString: strerror(code)))",
                 function: "WorkTreeMove")
    }
}
