import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What git's index says about a work tree, read before anything (`git status`, `modkit status`) may refresh it.
struct IndexView: Equatable {
    /// `git ls-files -s`: mode, blob, stage and path of every entry.
    var stage: [String]
    /// `git ls-files -v`: the status tag of every entry (`S` skip-worktree, lowercase assume-unchanged, …).
    var tags: [String]
    /// `git ls-files --debug`: each entry's `flags` (skip-worktree, intent-to-add, stage, extended bits).
    var flags: [String]
    /// Entries whose stat data (inode, size, mtime, ctime) does not describe the file on disk, so every later
    /// `git status` has to read and hash the file again. Entries git smudged on purpose (size 0, racy) do not count.
    var staleStat: [String]

    static func read(_ directory: URL, environment: [String: String]) throws -> IndexView {
        let stage = try Exec.git(["ls-files", "-s"], in: directory, environment: environment).lines
        let tags = try Exec.git(["ls-files", "-v"], in: directory, environment: environment).lines
        let debug = try Exec.git(["ls-files", "--debug"], in: directory, environment: environment).lines
        var flags: [String] = [], stale: [String] = []
        var index = 0
        while index + 5 < debug.count {
            let name = debug[index]
            var fields: [String: String] = [:]
            for line in debug[(index + 1)...(index + 5)] {
                for part in line.split(separator: "\t") {
                    let pair = part.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
                    if pair.count == 2 { fields[String(pair[0])] = pair[1].trimmingCharacters(in: .whitespaces) }
                }
            }
            index += 6
            flags.append("\(name) flags: \(fields["flags"] ?? "?")")
            let size = Int(fields["size"] ?? "") ?? 0
            let path = RawFS.join(Array(directory.path.utf8), RawFS.unquote(name))
            guard size != 0, let info = RawFS.lstatInfo(path), info.st_mode & S_IFMT != S_IFDIR else { continue }
            let seconds = { (field: String) in (fields[field] ?? "").split(separator: ":").first.flatMap { Int($0) } ?? -1 }
            let ino = Int(fields["ino"] ?? "") ?? -1
            if ino != Int(info.st_ino) || size != Int(info.st_size) || seconds("mtime") != RawFS.times(info).mtime
                || seconds("ctime") != RawFS.times(info).ctime {
                stale.append(name)
            }
        }
        return IndexView(stage: stage, tags: tags, flags: flags, staleStat: stale)
    }
}

/// Everything the differential tests compare about one side's repository after a step.
struct SideState {
    var tree: [[UInt8]: TreeEntry]
    var index: IndexView
    var head: String
    /// `git symbolic-ref -q HEAD`, empty when detached.
    var branch: String
    /// `git status --porcelain --untracked-files=all --ignored`.
    var status: [String]

    static func read(_ directory: URL, index: IndexView, environment: [String: String]) throws -> SideState {
        let head = try Exec.git(["rev-parse", "HEAD"], in: directory, environment: environment).text
        let branch = try Exec.run("/usr/bin/env", ["git", "symbolic-ref", "-q", "HEAD"], in: directory, environment: environment).text
        let status = try Exec.git(["status", "--porcelain", "--untracked-files=all", "--ignored"], in: directory,
                                  environment: environment).lines
        return SideState(tree: try RawFS.tree(Array(directory.path.utf8)), index: index,
                         head: head.trimmingCharacters(in: .whitespacesAndNewlines),
                         branch: branch.trimmingCharacters(in: .whitespacesAndNewlines), status: status)
    }

    /// Every way `a` (modkit's) differs from `b` (git's), one line each, naming the path or the git output line.
    static func differences(_ a: SideState, _ b: SideState) -> [String] {
        var lines: [String] = []
        if a.head != b.head { lines.append("HEAD: modkit \(a.head), git \(b.head)") }
        if a.branch != b.branch { lines.append("symbolic HEAD: modkit '\(a.branch)', git '\(b.branch)'") }
        lines += treeDifferences(a.tree, b.tree)
        lines += lineDifferences("git ls-files -s", a.index.stage, b.index.stage)
        lines += lineDifferences("git ls-files -v", a.index.tags, b.index.tags)
        lines += lineDifferences("git ls-files --debug flags", a.index.flags, b.index.flags)
        lines += lineDifferences("index stat data stale for", a.index.staleStat, b.index.staleStat)
        lines += lineDifferences("git status --porcelain --untracked-files=all --ignored", a.status, b.status)
        return lines
    }

    static func treeDifferences(_ a: [[UInt8]: TreeEntry], _ b: [[UInt8]: TreeEntry]) -> [String] {
        var lines: [String] = []
        let paths = Set(a.keys).union(b.keys).sorted { $0.lexicographicallyPrecedes($1) }
        for path in paths where a[path] != b[path] {
            lines.append("work tree \(RawFS.show(path)): modkit \(describe(a[path])), git \(describe(b[path]))")
        }
        return capped(lines)
    }

    /// At most 12 lines of one kind, then how many more: 150 files missing on one side are one problem, not 150.
    static func capped(_ lines: [String]) -> [String] {
        lines.count <= 12 ? lines : Array(lines.prefix(12)) + ["… and \(lines.count - 12) more like these"]
    }

    static func describe(_ entry: TreeEntry?) -> String {
        switch entry {
        case nil: return "absent"
        case .directory(let mode): return "directory \(String(mode, radix: 8))"
        case .link(let target): return "symlink -> \(RawFS.show(target))"
        case .file(let mode, let bytes):
            let preview = RawFS.show(Array(bytes.prefix(48))) + (bytes.count > 48 ? "…" : "")
            return "file \(String(mode, radix: 8)) \(bytes.count) bytes \"\(preview)\""
        }
    }

    /// The lines only one side has (or the same lines in another order).
    static func lineDifferences(_ what: String, _ a: [String], _ b: [String]) -> [String] {
        guard a != b else { return [] }
        let onlyA = a.filter { !b.contains($0) }, onlyB = b.filter { !a.contains($0) }
        if onlyA.isEmpty && onlyB.isEmpty { return ["\(what): same lines in another order (modkit \(a), git \(b))"] }
        return capped(onlyA.map { "\(what): only modkit's has '\($0)'" }) + capped(onlyB.map { "\(what): only git's has '\($0)'" })
    }
}
