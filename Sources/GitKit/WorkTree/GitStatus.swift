import Foundation

/// `git --no-optional-locks status --porcelain=v1 -z`, read into entries: the answer to "what changed" where `FastPaths` says only git
/// gives git's answer (filter drivers, encodings, sparse and skip-worktree entries, assume-unchanged files).
struct GitStatus {
    struct Entry {
        /// The index column (`M`, `A`, `D`, `R`, `C`, `T`, `U`, `?`, or a space).
        var index: UInt8
        /// The work-tree column.
        var workTree: UInt8
        var path: String
        /// The source of a staged rename or copy.
        var origin: String?

        var isConflicted: Bool {
            let pair = [index, workTree]
            return index == UInt8(ascii: "U") || workTree == UInt8(ascii: "U")
                || pair == Array("DD".utf8) || pair == Array("AA".utf8)
        }
        var isUntracked: Bool { index == UInt8(ascii: "?") }
        var isStaged: Bool { !isConflicted && !isUntracked && index != UInt8(ascii: " ") }
        var isModified: Bool { !isConflicted && !isUntracked && workTree != UInt8(ascii: " ") }
    }

    let entries: [Entry]

    /// `untracked`: list untracked files one by one (else none); `submodules`: count a submodule's own changes.
    init(_ repository: Repository, paths: [String] = [], untracked: Bool, submodules: Bool) throws {
        guard let workdir = repository.workdir else {
            throw GitError(code: .bareRepository, message: "a bare repository has no work tree", function: "git status")
        }
        // A question writes nothing: without --no-optional-locks git writes back the stat data it found stale.
        var arguments = ["--no-optional-locks", "--literal-pathspecs", "status", "--porcelain=v1", "-z", "--no-renames",
                         untracked ? "--untracked-files=all" : "--untracked-files=no"]
        if !submodules { arguments.append("--ignore-submodules=all") }
        let output = try GitCommand(arguments: arguments + ["--"] + paths, directory: workdir).run()
        var entries: [Entry] = []
        var fields = output.split(separator: 0, omittingEmptySubsequences: true)[...]
        while let field = fields.popFirst() {
            let bytes = Array(field)
            guard bytes.count > 3 else { continue }
            var entry = Entry(index: bytes[0], workTree: bytes[1], path: String(decoding: bytes[3...], as: UTF8.self))
            if entry.index == UInt8(ascii: "R") || entry.index == UInt8(ascii: "C"), let origin = fields.popFirst() {
                entry.origin = String(decoding: origin, as: UTF8.self)
            }
            entries.append(entry)
        }
        self.entries = entries
    }

    var summary: StatusSummary {
        var summary = StatusSummary()
        for entry in entries {
            if entry.isConflicted { summary.conflicted += 1; continue }
            if entry.isUntracked { summary.untracked += 1; continue }
            if entry.isStaged { summary.staged += 1 }
            if entry.isModified { summary.modified += 1 }
        }
        return summary
    }
}
