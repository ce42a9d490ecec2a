import Foundation
import GitKit

/// Whether one repository can be moved from one commit to another without touching anything of the user's.
/// It reads the repository only: no checkout, no write.
struct MoveCheck {
    /// Every reason the move would break or overwrite something; empty when it can go ahead.
    var problems: [String] = []
    /// An earlier, interrupted move left paths at their new content: finish with a forced checkout, not a safe one.
    var needsCompletion = false

    /// Checks a move of `repository` from `old` to `target`. `interrupted`: a move between these commits was cut
    /// short, so a path holding exactly its old or its new content is the move's, not a local change.
    init(_ repository: Repository, label: String, path: String, from old: OID, to target: OID, branch: String?,
         interrupted: Bool) throws {
        if let operation = repository.operationInProgress {
            problems.append("\(label): \(operation) is in progress in \(path) (finish or abort it first)")
        }
        if repository.isIndexLocked {
            problems.append("\(label): \(path)/.git/index.lock exists: another git process is using \(path) "
                + "(wait for it, or remove the file if no git process is running)")
        }
        if let branch, let holder = repository.linkedWorkTrees(holding: branch).first {
            problems.append("\(label): branch \(branch) is checked out in the linked work tree \(holder)")
        }
        let changes = old == target ? [] : try repository.treeChanges(from: old, to: target)
        var byPath: [String: TreeChange] = [:]
        for change in changes { byPath[change.path] = change }

        let changed = try repository.changedPaths()
        if !interrupted, !changed.isEmpty {
            problems.append("\(label): local changes in \(path) (\(Self.list(changed)); commit or stash them first)")
        } else if interrupted {
            var foreign: [String] = []
            for file in Set(changed).union(byPath.keys).sorted() {
                let before = try byPath[file].map(\.old) ?? repository.treeEntryID(file, in: old)
                let after = byPath[file].map(\.new) ?? before
                let disk = repository.workTreeBlobID(file), staged = try repository.indexBlobID(file)
                let diskIsTheMoves = disk == before || disk == after || Self.isCutShort(file, writing: after, in: repository)
                if !diskIsTheMoves || (staged != before && staged != after) { foreign.append(file) }
            }
            if !foreign.isEmpty {
                problems.append("\(label): local changes in \(path) (\(Self.list(foreign)) differ from both the old and the new commit; commit or stash them first)")
            }
            needsCompletion = needsCompletion || !changed.isEmpty
        }
        let nested = repository.workdir.map { NestedRepositories.changes(changes.map(\.path), under: $0) } ?? []
        if let first = nested.first {
            problems.append("\(label): the snapshot changes \(Self.list(nested.map(\.path))) in \(path), inside the git repository nested at "
                + "\(first.repository) (another module's files; move that repository away first)")
        }
        let inTheWay = try filesInTheWay(repository, old: old, changes: changes, interrupted: interrupted)
        if !inTheWay.isEmpty {
            problems.append("\(label): \(Self.list(inTheWay)) in \(path) would be overwritten by the snapshot (move \(inTheWay.count == 1 ? "it" : "them") away first)")
        }
    }

    /// Untracked or ignored files at paths the move creates, or inside a folder it turns into a file, or a file
    /// where it needs a folder. A file already holding the incoming content is no loss and is not listed.
    private mutating func filesInTheWay(_ repository: Repository, old: OID, changes: [TreeChange], interrupted: Bool) throws -> [String] {
        guard var workdir = repository.workdir else { return [] }
        while workdir.hasSuffix("/") { workdir.removeLast() }
        var found: [String] = []
        var seenFolders = Set<String>()
        func describe(_ path: String) -> String {
            ((try? repository.isIgnored(path)) == true ? "ignored file " : "untracked file ") + path
        }
        for change in changes where change.old == nil {
            guard let new = change.new else { continue }
            // A parent that must become a folder.
            var parts = change.path.split(separator: "/").dropLast().map(String.init)
            var prefix = ""
            while !parts.isEmpty {
                prefix += (prefix.isEmpty ? "" : "/") + parts.removeFirst()
                guard seenFolders.insert(prefix).inserted else { continue }
                if let kind = Self.kind(workdir + "/" + prefix), kind != .directory, try repository.treeEntryID(prefix, in: old) == nil {
                    found.append(describe(prefix))
                }
            }
            switch Self.kind(workdir + "/" + change.path) {
            case nil: continue
            case .directory:
                for file in Self.files(under: workdir + "/" + change.path) {
                    let relative = change.path + "/" + file
                    if try repository.treeEntryID(relative, in: old) == nil { found.append(describe(relative)) }
                }
            case .file:
                if repository.workTreeBlobID(change.path) == new || (interrupted && Self.isCutShort(change.path, writing: new, in: repository)) {
                    needsCompletion = true
                } else {
                    found.append(describe(change.path))
                }
            }
        }
        return found
    }

    /// Whether the work-tree file at `path` holds the start of blob `new` (empty included): a write the interrupted
    /// move had begun (a checkout writes a file in place, so a kill can leave it cut short).
    private static func isCutShort(_ path: String, writing new: OID?, in repository: Repository) -> Bool {
        guard let new, let workdir = repository.workdir,
              let disk = FileManager.default.contents(atPath: workdir + "/" + path),
              let content = try? repository.blobContent(new) else { return false }
        return disk.count < content.count && content.starts(with: disk)
    }

    private enum Kind { case file, directory }

    private static func kind(_ path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR ? .directory : .file
    }

    /// Files (not folders) below `directory`, relative to it.
    private static func files(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var result: [String] = []
        while let next = enumerator.nextObject() as? String {
            if kind(directory + "/" + next) != .directory { result.append(next) }
        }
        return result.sorted()
    }

    /// A few paths for a message, with a count of the rest.
    static func list(_ paths: [String]) -> String {
        let shown = paths.prefix(3).joined(separator: ", ")
        return paths.count > 3 ? "\(shown) and \(paths.count - 3) more" : shown
    }
}
