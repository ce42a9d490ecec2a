import Foundation
import GitKit

/// The git repository holding the workspace's manifest, and where the workspace root lies inside its work tree.
struct ManifestRepository {
    let repository: Repository
    /// The workspace root relative to the work tree: "" when they are the same directory, else ending in "/".
    let prefix: String

    /// Opens the repository containing the workspace root; a workspace outside git is an input error naming `command`.
    static func open(_ workspace: Workspace, for command: String) throws -> ManifestRepository {
        let root = workspace.root
        guard let repository = try Repository.discover(from: root.path), let workdir = repository.workdir else {
            throw ModKitError.input(
                "the manifest repository is not a git repository: \(root.path) has no .git",
                hint: "'\(command)' records snapshots in the manifest repository; run 'git init && git add -A && git commit -m Manifest' there first")
        }
        let base = URL(fileURLWithPath: workdir).resolvingSymlinksInPath().path
        let path = root.resolvingSymlinksInPath().path
        let prefix = path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) + "/" : ""
        return ManifestRepository(repository: repository, prefix: prefix)
    }

    /// A path relative to the workspace root as a path relative to the repository's work tree.
    func path(_ relative: String) -> String {
        relative.isEmpty || relative == "." ? (prefix.isEmpty ? "" : String(prefix.dropLast())) : prefix + relative
    }

    /// The snapshot file of `name` relative to the work tree.
    func snapshotPath(_ name: String) -> String { path(Snapshot.relativePath(of: name)) }

    /// The remote that receives pushes: the upstream's remote of `branch`, else `origin`, else the only remote.
    func pushRemote(branch: String?) throws -> (remote: String, branch: String?)? {
        if let branch, let upstream = try repository.upstream(ofBranch: branch), let slash = upstream.firstIndex(of: "/") {
            return (String(upstream[..<slash]), String(upstream[upstream.index(after: slash)...]))
        }
        let remotes = try repository.remoteNames()
        if remotes.contains("origin") { return ("origin", branch) }
        return remotes.count == 1 ? (remotes[0], branch) : nil
    }
}

extension Repository {
    /// Whether some remote-tracking ref contains `commit` (so others can fetch it).
    func isOnRemote(_ commit: OID) throws -> Bool {
        for reference in try references(withPrefix: "refs/remotes/") {
            guard let tip = try? resolveCommit(reference.name) else { continue }
            if try tip == commit || isDescendant(tip, of: commit) { return true }
        }
        return false
    }

    /// The commit a tag peels to and its own object id; nil when the tag does not exist.
    func tagTarget(_ name: String) throws -> (commit: OID, object: OID)? {
        guard let object = try reference("refs/tags/\(name)") else { return nil }
        return (try resolveCommit("refs/tags/\(name)"), object)
    }
}
