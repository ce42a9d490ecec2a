import Foundation
import GitKit

/// What `modkit tag --push` did for one repository.
public struct SnapshotPushResult: Sendable, Codable, Equatable {
    /// nil for the manifest repository.
    public var module: String?
    public var path: String
    public var remote: String?
    /// References the remote received in this run.
    public var pushed: [String] = []
    /// References the remote already had.
    public var upToDate: [String] = []
    /// Why the push failed (the tags stay; a later `modkit tag --push` completes the work).
    public var error: String?

    public var failed: Bool { error != nil }
}

/// Pushes a snapshot's tags (and the snapshot commit) to every repository's remote, only what the remote lacks.
public enum SnapshotPusher {
    /// One repository's share of the push.
    struct Target: Sendable {
        var module: String?
        var path: String
        var directory: URL
        /// (local reference or commit, remote reference)
        var refs: [(source: String, destination: String)]
        var remote: String?
    }

    public static func push(_ report: TagReport, workspace: Workspace, force: Bool, jobs: Int) -> [SnapshotPushResult] {
        let manifest = workspace.manifest
        var targets: [Target] = []
        var manifestTarget = Target(module: nil, path: ".", directory: manifest.root, refs: [], remote: nil)
        for tag in report.tags where tag.path == "." {
            manifestTarget.refs.append(("refs/tags/\(tag.tag)", "refs/tags/\(tag.tag)"))
        }
        if let manifestRepository = try? ManifestRepository.open(workspace, for: "modkit tag"),
           let (remote, branch) = (try? manifestRepository.pushRemote(branch: report.manifestBranch)) ?? nil {
            manifestTarget.remote = remote
            manifestTarget.directory = URL(fileURLWithPath: manifestRepository.repository.workdir ?? manifest.root.path)
            if let branch, report.manifestBranch != nil {
                manifestTarget.refs.append((report.snapshotCommit, "refs/heads/\(branch)"))
            }
        }
        targets.append(manifestTarget)
        for tag in report.tags where tag.path != "." {
            targets.append(Target(module: tag.module, path: tag.path, directory: manifest.directory(ofPath: tag.path),
                                  refs: [("refs/tags/\(tag.tag)", "refs/tags/\(tag.tag)")], remote: manifest.defaults.remote))
        }
        return Parallel.map(targets, jobs: jobs) { target in push(target, force: force) }
    }

    static func push(_ target: Target, force: Bool) -> SnapshotPushResult {
        var result = SnapshotPushResult(module: target.module, path: target.path, remote: target.remote)
        guard let remote = target.remote else {
            result.error = "no remote to push to (add one, e.g. 'git remote add origin URL')"
            return result
        }
        do {
            let repository = try Repository.open(target.directory.path)
            guard try repository.remoteURL(remote) != nil else {
                result.error = "no remote '\(remote)'"
                return result
            }
            let advertised = Dictionary(try repository.remoteReferences(remote).map { ($0.name, $0.target) },
                                        uniquingKeysWith: { first, _ in first })
            var refspecs: [String] = []
            for (source, destination) in target.refs {
                let local = try OID(hex: source) ?? repository.reference(source)
                guard let local else { continue }
                if let there = advertised[destination] {
                    let contained = try destination.hasPrefix("refs/heads/")
                        && repository.hasCommit(there) && repository.isDescendant(there, of: local)
                    if there == local || contained {
                        result.upToDate.append(destination)
                        continue
                    }
                }
                let forced = force && destination.hasPrefix("refs/tags/")
                refspecs.append("\(forced ? "+" : "")\(source):\(destination)")
            }
            guard !refspecs.isEmpty else { return result }
            // libgit2 pushes references only: a bare commit id goes out through a temporary reference.
            var temporary: [String] = []
            defer { for name in temporary { try? repository.deleteReference(name) } }
            refspecs = try refspecs.map { refspec in
                guard let colon = refspec.firstIndex(of: ":"), let commit = OID(hex: String(refspec[..<colon])) else { return refspec }
                let name = "refs/modkit/push/\(commit.hex)"
                try repository.setReference(name, to: commit, force: true, logMessage: "modkit tag --push")
                temporary.append(name)
                return name + refspec[colon...]
            }
            let answers = try repository.push(remote: remote, refspecs: refspecs)
            let rejected = answers.filter { $0.error != nil }
            result.pushed = answers.filter { $0.error == nil }.map(\.ref)
            if !rejected.isEmpty {
                result.error = rejected.map { "\($0.ref) rejected: \($0.error!)" }.joined(separator: "; ")
            }
        } catch {
            result.error = ErrorText.describe(error)
        }
        return result
    }
}

extension Manifest {
    /// The directory of a path relative to the workspace root.
    func directory(ofPath path: String) -> URL {
        path.isEmpty || path == "." ? root : root.appendingPathComponent(path, isDirectory: true)
    }
}
