import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The record of a work-tree move in progress, `<git dir>/modkit/move`: written (atomically, by rename) before the
/// first file changes and removed once files, index and references all show the target, so an interrupted
/// move can be completed or undone by whoever finds it. One `key value` line each.
public struct MoveJournal: Sendable, Equatable {
    /// HEAD's commit before the move; nil when HEAD was unborn.
    public var from: OID?
    /// HEAD's branch before the move; nil when HEAD was detached.
    public var fromBranch: String?
    /// The commit the move puts HEAD at.
    public var to: OID
    /// The branch HEAD points at afterwards; nil for a detached HEAD.
    public var toBranch: String?
    /// That branch's tip before the move; nil when the move creates it.
    public var toBranchPrevious: OID?
    /// When the move began (ISO 8601, UTC).
    public var started: String
    /// Who writes the work tree: modkit's `MoveWriter`, or git (see `FastPaths`); an interrupted move is finished the same way.
    public var writer: MoveWriterKind = .modkit
    /// The hook of the git command the move stands for, run once it is complete; nil for none (an undo).
    public var hook: GitHook? = nil

    static func directory(gitDir: String) -> String { GitDirectory(path: gitDir, common: gitDir).modkit }
    static func path(gitDir: String) -> String { GitDirectory(path: gitDir, common: gitDir).moveJournal }

    /// The journal of an interrupted move; nil when none (one `stat`-sized read on the fast path).
    static func read(gitDir: String) throws -> MoveJournal? {
        let path = path(gitDir: gitDir)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        func oid(_ key: String) -> OID? { fields[key].flatMap { OID(hex: $0) } }
        func name(_ key: String) -> String? { fields[key].flatMap { $0 == "-" ? nil : $0 } }
        guard fields["modkit-move"] == "1", let to = oid("to") else {
            throw WorkTreeMoveRefusal(reason: "the record of an interrupted move is unreadable", paths: [path],
                                      hint: "look at it, then delete it and run the command again")
        }
        return MoveJournal(from: oid("from"), fromBranch: name("from-branch"), to: to, toBranch: name("to-branch"),
                           toBranchPrevious: oid("to-branch-previous"), started: fields["started"] ?? "",
                           writer: fields["writer"] == "git" ? .git : .modkit, hook: fields["hook"].flatMap(GitHook.init(journalText:)))
    }

    /// Writes the journal to a temporary file and renames it into place. It is not synced to disk, as git does not
    /// sync its index and refs: the record survives a killed or interrupted process, which is what it is for. A
    /// sync here waited on every other write the system had pending (after a fresh sync, most of an update's time).
    func write(gitDir: String) throws {
        let directory = Self.directory(gitDir: gitDir)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = """
            modkit-move 1
            from \(from?.hex ?? "-")
            from-branch \(fromBranch ?? "-")
            to \(to.hex)
            to-branch \(toBranch ?? "-")
            to-branch-previous \(toBranchPrevious?.hex ?? "-")
            started \(started)
            writer \(writer == .git ? "git" : "modkit")
            hook \(hook?.journalText ?? "-")

            """
        do {
            try AtomicWrite.replace(Self.path(gitDir: gitDir), with: Data(text.utf8), temporary: directory + "/move.tmp", mode: 0o644, sync: false)
        } catch {
            errno = error.code
            throw MoveJournal.failure("cannot write", error.path)
        }
    }

    /// Removes the journal: the move is complete.
    static func clear(gitDir: String) throws {
        let path = path(gitDir: gitDir)
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot remove", path) }
    }

    static func failure(_ what: String, _ path: String) -> WorkTreeMoveRefusal {
        WorkTreeMoveRefusal(reason: "\(what) \(path): \(String(cString: strerror(errno)))", paths: [path],
                            hint: "fix the cause, then run the command again")
    }
}

/// Who writes a move's work tree.
public enum MoveWriterKind: Sendable, Equatable {
    /// `MoveWriter`: every file by rename, index and refs by GitKit.
    case modkit
    /// `git read-tree -m -u` (see `GitMove`), refs by GitKit.
    case git
}

/// Why a work-tree move did not start (nothing was written), or why an interrupted one cannot be finished safely.
public struct WorkTreeMoveRefusal: Error, Sendable, CustomStringConvertible {
    /// What stands in the way, e.g. "index.lock exists: another git process is running".
    public var reason: String
    /// The paths concerned (relative to the work tree where they are inside it).
    public var paths: [String]
    /// What to do next.
    public var hint: String

    public init(reason: String, paths: [String], hint: String) {
        self.reason = reason
        self.paths = paths
        self.hint = hint
    }

    /// The reason with up to five paths named.
    public var description: String {
        guard !paths.isEmpty else { return reason }
        let shown = paths.prefix(5).joined(separator: ", ")
        return "\(reason): \(shown)" + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
    }
}
