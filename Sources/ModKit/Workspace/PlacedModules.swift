import Foundation
import GitKit

/// A directory `modkit sync` once placed that is no longer a module of the manifest (removed, or its path changed).
public struct OrphanedModule: Sendable, Codable, Equatable {
    /// Relative to the workspace root.
    public var path: String
    /// What it still holds that exists nowhere else, e.g. "2 uncommitted changes", "unpushed commits on main".
    public var work: [String]

    /// One line for people: what it holds and what to do.
    public var advice: String {
        work.isEmpty
            ? "\(path) is no longer a module in modkit.yml and holds no unpushed work; delete it when you no longer need it"
            : "\(path) is no longer a module in modkit.yml but still holds work (\(work.joined(separator: ", "))): commit and push it, or move it elsewhere; modkit never deletes it"
    }
}

/// The record of the module directories sync placed (`.modkit/placed`, one path a line, ignored by git), so a
/// module removed from the manifest or moved is found by reading one file rather than scanning the workspace.
public enum PlacedModules {
    static func file(in root: URL) -> URL { root.appendingPathComponent(".modkit/placed") }

    static func read(in root: URL) -> [String] {
        guard let text = try? String(contentsOf: file(in: root), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// Records the repository modules whose directories exist, keeping earlier entries whose directory still exists.
    /// Written only when it changes, so a no-op sync writes nothing.
    public static func record(_ workspace: Workspace) throws {
        let root = workspace.root
        let manifest = workspace.manifest
        let earlier = read(in: root)
        let current = manifest.modules.filter { $0.kind == .repository }.map(\.path)
        var kept = Set<String>()
        let placed = (earlier + current).filter { path in
            kept.insert(path).inserted && FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
        }
        guard placed != earlier else { return }
        let directory = root.appendingPathComponent(".modkit", isDirectory: true)
        try PrivateState.prepare(directory)
        try GitIgnore.ensure(["/placed"], in: directory.appendingPathComponent(".gitignore"))
        try AtomicFile.write(Data(placed.map { $0 + "\n" }.joined().utf8), to: file(in: root))
    }

    /// Recorded directories that still exist but are no longer a module (nor inside one), with the work each holds.
    public static func orphans(in workspace: Workspace) -> [OrphanedModule] {
        let root = workspace.root
        let modules = Set(workspace.manifest.modules.map(\.path))
        // A path is a module's when it or a directory above it is one: one set lookup per level, not a scan of the
        // manifest per recorded path (1,431 modules: 2 million comparisons on every status).
        func isInsideAModule(_ path: String) -> Bool {
            var candidate = Substring(path)
            while true {
                if modules.contains(String(candidate)) { return true }
                guard let slash = candidate.lastIndex(of: "/") else { return false }
                candidate = candidate[..<slash]
            }
        }
        return read(in: root).filter { path in
            !isInsideAModule(path) && Repository.isRepository(root.appendingPathComponent(path).path)
        }.map { path in
            OrphanedModule(path: path, work: (try? work(in: root.appendingPathComponent(path))) ?? ["a repository modkit cannot read"])
        }
    }

    /// Uncommitted changes, untracked files, commits no remote-tracking branch has, and stashes.
    static func work(in directory: URL) throws -> [String] {
        let repository = try Repository.open(directory.path)
        var work: [String] = []
        let status = try repository.status()
        let changes = status.staged + status.modified + status.conflicted
        if changes > 0 { work.append("\(changes) uncommitted change\(changes == 1 ? "" : "s")") }
        if status.untracked > 0 { work.append("\(status.untracked) untracked file\(status.untracked == 1 ? "" : "s")") }
        let remoteTips = try repository.references(matching: "refs/remotes/*").map(\.target)
        func isPushed(_ commit: OID) throws -> Bool {
            try remoteTips.contains { try $0 == commit || repository.isDescendant($0, of: commit) }
        }
        for branch in try repository.localBranches() {
            guard let tip = try repository.branchTarget(branch), try !isPushed(tip) else { continue }
            work.append("unpushed commits on \(branch)")
        }
        if case .detached(let commit) = try repository.head(), try !isPushed(commit),
           try !repository.references(matching: "refs/heads/*").contains(where: { try $0.target == commit || repository.isDescendant($0.target, of: commit) }) {
            work.append("commits on a detached HEAD")
        }
        if try repository.reference("refs/stash") != nil {
            let count = max(1, (try? repository.reflogTargets("refs/stash").count) ?? 1)
            work.append("\(count) stash\(count == 1 ? "" : "es")")
        }
        return work
    }
}
