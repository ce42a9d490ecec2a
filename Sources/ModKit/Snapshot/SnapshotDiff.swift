import Foundation
import GitKit

/// One commit as release notes show it.
public struct CommitLine: Sendable, Codable, Equatable {
    public var commit: String
    public var summary: String
    public var author: String
}

/// How one module changed between two snapshots.
public struct ModuleChange: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        case changed, unchanged, added, removed
    }

    public var name: String
    public var kind: Module.Kind
    public var status: Status
    /// The old side: a commit for repository modules, the snapshot commit of the manifest repository for directory modules.
    public var oldCommit: String?
    public var newCommit: String?
    public var oldVersion: String?
    public var newVersion: String?
    /// Commits in the new snapshot and not in the old one, newest first (for directory modules: those touching its folder).
    public var commits: [CommitLine] = []
    /// Commits of the old snapshot the new one no longer has (history rewritten or rolled back).
    public var droppedCommits: [CommitLine] = []
    public var error: String?
}

/// `modkit diff`: per module, the commits between two snapshots (or a snapshot and the workspace now).
public struct SnapshotComparison: Sendable, Codable {
    public var from: String
    /// A snapshot name, or "workspace" for what is checked out now.
    public var to: String
    public var modules: [ModuleChange]

    public var added: [String] { modules.filter { $0.status == .added }.map(\.name) }
    public var removed: [String] { modules.filter { $0.status == .removed }.map(\.name) }
}

public enum SnapshotDiff {
    /// Compares snapshot `from` with snapshot `to`, or with the workspace as checked out now when `to` is nil.
    public static func compare(_ from: String, _ to: String?, workspace: Workspace) throws -> SnapshotComparison {
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit diff")
        let (old, oldCommit) = try SnapshotCatalog.load(from, in: manifestRepository)
        let new: Snapshot
        let newCommit: OID
        if let to {
            (new, newCommit) = try SnapshotCatalog.load(to, in: manifestRepository)
        } else {
            (new, newCommit) = try current(workspace, manifestRepository: manifestRepository)
        }
        var changes: [ModuleChange] = []
        for entry in new.modules {
            guard let before = old.module(named: entry.name) else {
                changes.append(ModuleChange(name: entry.name, kind: entry.kind, status: .added, newCommit: entry.commit,
                                            newVersion: entry.version))
                continue
            }
            changes.append(compare(before, entry, sides: (from, to), oldCommit: oldCommit, newCommit: newCommit, workspace: workspace,
                                   manifestRepository: manifestRepository))
        }
        for entry in old.modules where new.module(named: entry.name) == nil {
            changes.append(ModuleChange(name: entry.name, kind: entry.kind, status: .removed, oldCommit: entry.commit,
                                        oldVersion: entry.version))
        }
        return SnapshotComparison(from: from, to: to ?? "workspace", modules: changes)
    }

    /// One module's change. Reads only: a commit that is not in the module's repository here (recorded elsewhere and
    /// not fetched yet) or a module not cloned is that module's error, naming the command that fetches it.
    private static func compare(_ old: Snapshot.Entry, _ new: Snapshot.Entry, sides: (from: String, to: String?), oldCommit: OID,
                                newCommit: OID, workspace: Workspace, manifestRepository: ManifestRepository) -> ModuleChange {
        var change = ModuleChange(name: new.name, kind: new.kind, status: .unchanged, oldVersion: old.version, newVersion: new.version)
        do {
            if new.kind == .repository, old.kind == .repository, let a = old.commit.flatMap(OID.init(hex:)) {
                change.oldCommit = a.hex
                let directory = workspace.manifest.directory(ofPath: new.path).path
                guard let b = new.commit.flatMap(OID.init(hex:)) else {
                    // Only the workspace side lacks a commit: the module is not cloned, or its branch has no commit yet.
                    throw Repository.isRepository(directory) ? ModKitError("no commit checked out")
                        : notCloned(new.name)
                }
                change.newCommit = b.hex
                guard a != b else { return change }
                guard Repository.isRepository(directory) else { throw notCloned(new.name) }
                let repository = try Repository.open(directory)
                for (commit, side) in [(a, Optional(sides.from)), (b, sides.to)] where !repository.hasCommit(commit) {
                    throw ModKitError("commit \(commit.short)\(side.map { " (snapshot \($0))" } ?? "") is not in its local repository, and diff fetches nothing",
                                      hint: "run 'modkit sync \(new.name)' to fetch it")
                }
                change.commits = try repository.log(from: b, excluding: [a]).map(line)
                change.droppedCommits = try repository.log(from: a, excluding: [b]).map(line)
            } else {
                // A directory module: commits of the manifest repository that changed its folder.
                change.oldCommit = oldCommit.hex
                change.newCommit = newCommit.hex
                let repository = manifestRepository.repository
                let path = manifestRepository.path(new.path)
                change.commits = try touching(path, in: repository.log(from: newCommit, excluding: [oldCommit]), repository)
                change.droppedCommits = try touching(path, in: repository.log(from: oldCommit, excluding: [newCommit]), repository)
            }
            if !change.commits.isEmpty || !change.droppedCommits.isEmpty || old.version != new.version {
                change.status = .changed
            }
        } catch {
            change.status = .changed
            change.error = ErrorText.describe(error)
        }
        return change
    }

    private static func notCloned(_ name: String) -> ModKitError {
        ModKitError("not cloned here, so its commits cannot be read", hint: "run 'modkit sync \(name)' to clone it")
    }

    /// The commits whose tree at `path` differs from their first parent's.
    private static func touching(_ path: String, in commits: [CommitInfo], _ repository: Repository) throws -> [CommitLine] {
        try commits.filter { commit in
            let mine = try repository.objectID(atPath: path, in: commit.oid.hex)
            let parent = try commit.parents.first.flatMap { try repository.objectID(atPath: path, in: $0.hex) }
            return mine != parent
        }.map(line)
    }

    private static func line(_ commit: CommitInfo) -> CommitLine {
        CommitLine(commit: commit.oid.hex, summary: commit.summary, author: commit.authorName)
    }

    /// The workspace as checked out now, in snapshot form (repository HEADs, versions, the manifest repository's HEAD); a
    /// module not cloned has no commit.
    static func current(_ workspace: Workspace, manifestRepository: ManifestRepository) throws -> (Snapshot, OID) {
        let manifest = workspace.manifest
        guard let head = try manifestRepository.repository.head().commit else {
            throw ModKitError.input("the manifest repository has no commit yet")
        }
        var entries: [Snapshot.Entry] = []
        for module in manifest.modules {
            let version = SnapshotPreflight.versionText(VersionReader.read(module: module, in: manifest))
            var entry = Snapshot.Entry(name: module.name, kind: module.kind, url: manifest.url(of: module), path: module.path,
                                       version: version)
            if module.kind == .repository, Repository.isRepository(manifest.directory(of: module).path) {
                entry.commit = try Repository.open(manifest.directory(of: module).path).head().commit?.hex
            }
            entries.append(entry)
        }
        return (Snapshot(name: "workspace", created: Snapshot.timestamp(Date()), modules: entries), head)
    }
}
