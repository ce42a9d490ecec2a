import Foundation
import GitKit

/// One snapshot as `modkit snapshots` lists it.
public struct SnapshotSummary: Sendable, Codable, Equatable {
    public var name: String
    public var created: String
    /// The commit the snapshot tag points at (the commit that added the snapshot file).
    public var commit: String
    public var modules: Int
}

/// Finds snapshots: a snapshot is a tag of the manifest repository whose commit holds `.modkit/snapshots/<tag>.yml`.
public enum SnapshotCatalog {
    /// A tag whose commit holds a snapshot file that does not read: listed with its problems instead of being dropped.
    public struct InvalidSnapshot: Sendable {
        public var name: String
        public var commit: String
        public var error: ManifestError
    }

    /// Every snapshot of the workspace, oldest first (invalid snapshot files left out: `listing` reports them).
    public static func list(in workspace: Workspace) throws -> [SnapshotSummary] {
        try listing(in: workspace).snapshots
    }

    /// Every snapshot of the workspace, oldest first, and the tags whose snapshot file is invalid.
    public static func listing(in workspace: Workspace) throws -> (snapshots: [SnapshotSummary], invalid: [InvalidSnapshot]) {
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit snapshots")
        var found: [SnapshotSummary] = []
        var invalid: [InvalidSnapshot] = []
        for name in try manifestRepository.repository.tagNames() {
            guard let commit = try? manifestRepository.repository.resolveCommit("refs/tags/\(name)") else { continue }
            do {
                guard let snapshot = try read(name, at: commit, in: manifestRepository) else { continue }
                found.append(SnapshotSummary(name: name, created: snapshot.created, commit: commit.hex, modules: snapshot.modules.count))
            } catch let error as ManifestError {
                invalid.append(InvalidSnapshot(name: name, commit: commit.hex, error: error))
            }
        }
        return (found.sorted { ($0.created, $0.name) < ($1.created, $1.name) }, invalid.sorted { $0.name < $1.name })
    }

    /// Loads snapshot `name` from its tag in the local manifest repository; reads only (`modkit diff`, `modkit affected`).
    public static func load(_ name: String, in workspace: Workspace, command: String) throws -> (snapshot: Snapshot, commit: OID) {
        let manifestRepository = try ManifestRepository.open(workspace, for: command)
        return try load(name, in: manifestRepository)
    }

    /// Loads snapshot `name` from its tag; `fetchingTags` first fetches the tags of the manifest repository's remote when
    /// the tag is not here (`modkit checkout` only: every other reader of snapshots writes nothing).
    static func load(_ name: String, in manifestRepository: ManifestRepository,
                     fetchingTags: Bool = false) throws -> (snapshot: Snapshot, commit: OID) {
        let repository = manifestRepository.repository
        var fetchFailure: String?
        if fetchingTags, try repository.reference("refs/tags/\(name)") == nil, let remote = try? manifestRepository.pushRemote(branch: nil) {
            do {
                _ = try repository.fetch(remote: remote.remote, options: FetchOptions(downloadTags: .all))
            } catch {
                fetchFailure = "fetching the tags of '\(remote.remote)' failed: \(ErrorText.describe(error))"
            }
        }
        guard try repository.reference("refs/tags/\(name)") != nil else {
            if let fetchFailure {
                throw ModKitError("no snapshot named '\(name)' here, and \(fetchFailure)",
                                  hint: "check the network and the manifest repository's remote, then run the command again")
            }
            let known = (try? repository.tagNames()) ?? []
            throw ModKitError.input("no snapshot named '\(name)' here: the manifest repository has no tag \(name)\(DidYouMean.suffix(for: name, among: known))",
                                    hint: fetchingTags ? "'modkit snapshots' lists the snapshots"
                                        : "'modkit snapshots' lists the snapshots here; 'modkit sync' fetches one recorded elsewhere (so does 'git fetch --tags' in the manifest repository)")
        }
        let commit = try repository.resolveCommit("refs/tags/\(name)")
        guard let snapshot = try read(name, at: commit, in: manifestRepository) else {
            throw ModKitError.input("tag \(name) is not a snapshot: its commit \(commit.short) has no \(manifestRepository.snapshotPath(name))",
                                    hint: "'modkit snapshots' lists the snapshots")
        }
        return (snapshot, commit)
    }

    /// The snapshot file of `name` in a commit; nil when that commit has no such file.
    static func read(_ name: String, at commit: OID, in manifestRepository: ManifestRepository) throws -> Snapshot? {
        let path = manifestRepository.snapshotPath(name)
        guard let data = try manifestRepository.repository.readFile(path, at: commit.hex) else { return nil }
        return try SnapshotFile.parse([UInt8](data), displayPath: "\(name):\(path)", tag: name)
    }
}
