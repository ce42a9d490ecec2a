import Foundation
import GitKit

/// What `modkit tag --push` sent to one repository's remote.
public struct PushFacts: Sendable, Encodable, Equatable {
    public var remote: String?
    /// References the remote received in this run.
    public var pushed: [String] = []
    /// References the remote already had.
    public var alreadyThere: [String] = []
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

    public static func push(_ report: TagReport, workspace: Workspace, force: Bool, jobs: Int) -> [ModuleResult<PushFacts>] {
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
            targets.append(Target(module: tag.name, path: tag.path, directory: manifest.directory(ofPath: tag.path),
                                  refs: [("refs/tags/\(tag.tag)", "refs/tags/\(tag.tag)")], remote: manifest.defaults.remote))
        }
        return Parallel.map(targets, jobs: jobs) { target in push(target, force: force) }
    }

    /// One repository's push: `pushed`, `upToDate` (the remote has it all) or `failed` (the tags stay; a later
    /// `modkit tag --push` completes the work).
    static func push(_ target: Target, force: Bool) -> ModuleResult<PushFacts> {
        var facts = PushFacts(remote: target.remote)
        let error = send(target, force: force, into: &facts)
        let outcome: ModuleOutcome = error != nil ? .failed : facts.pushed.isEmpty ? .upToDate : .pushed
        let detail = error ?? (facts.pushed.isEmpty ? "the remote has it all" : "pushed \(facts.pushed.joined(separator: ", "))")
        return ModuleResult(name: target.module, path: target.path, outcome: outcome, detail: detail, facts: facts)
    }

    /// Sends what the remote lacks, noting in `facts` what went and what was there; returns why it failed, or nil.
    private static func send(_ target: Target, force: Bool, into result: inout PushFacts) -> String? {
        guard let remote = target.remote else {
            return "no remote to push to (add one, e.g. 'git remote add origin URL')"
        }
        do {
            let repository = try Repository.open(target.directory.path)
            guard try repository.remoteURL(remote) != nil else {
                return "no remote '\(remote)'"
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
                        result.alreadyThere.append(destination)
                        continue
                    }
                }
                let forced = force && destination.hasPrefix("refs/tags/")
                refspecs.append("\(forced ? "+" : "")\(source):\(destination)")
            }
            guard !refspecs.isEmpty else { return nil }
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
            return rejected.isEmpty ? nil : rejected.map { "\($0.ref) rejected: \($0.error!)" }.joined(separator: "; ")
        } catch {
            return ErrorText.describe(error)
        }
    }
}

extension Manifest {
    /// The directory of a path relative to the workspace root.
    func directory(ofPath path: String) -> URL {
        path.isEmpty || path == "." ? root : root.appendingPathComponent(path, isDirectory: true)
    }
}
