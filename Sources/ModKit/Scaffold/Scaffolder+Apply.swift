import Foundation
import GitKit

/// Applies a plan: module files and guards, then the repositories (commit, push), then the manifest; any failure removes what was created.
extension Scaffolder {
    public static func apply(_ plan: ScaffoldPlan) throws -> ScaffoldResult {
        // The manifest must still be the text the plan edited (the caller holds the workspace lock from here on).
        let current = try? String(contentsOf: plan.manifestFile, encoding: .utf8)
        guard current == plan.originalManifest else {
            throw ModKitError.input("\(plan.manifestDisplayPath) changed while modkit new was planning; nothing was written", hint: "run the command again")
        }
        var created: [URL] = []
        do {
            for module in plan.modules {
                created.append(try createDirectory(plan.workspaceRoot.appendingPathComponent(module.path, isDirectory: true)))
            }
            for file in plan.files { try write(file, root: plan.workspaceRoot) }
            var result = ScaffoldResult(plan: plan, commits: [:], pushed: [], branches: [:], ignoredPaths: [])
            for module in plan.modules where module.kind == .repository {
                try createRepository(module, plan: plan, result: &result)
            }
            try AtomicFile.write(Data(plan.newManifest.utf8), to: plan.manifestFile)
            if !plan.ignoredPaths.isEmpty, Repository.isRepository(plan.workspaceRoot.path) {
                result.ignoredPaths = (try? GitIgnore.add(plan.ignoredPaths, to: plan.workspaceRoot.appendingPathComponent(".gitignore"))) ?? []
            }
            return result
        } catch {
            for directory in created.reversed() { try? FileManager.default.removeItem(at: directory) }
            throw error
        }
    }

    /// Creates `directory` and any missing parents; returns the top-most directory it created, to remove on failure.
    static func createDirectory(_ directory: URL) throws -> URL {
        var top = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: top.deletingLastPathComponent().path) { top = top.deletingLastPathComponent() }
        if FileManager.default.fileExists(atPath: directory.path) {
            throw ModKitError.input("\(directory.path) already exists; nothing was written")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return top
    }

    static func write(_ file: ScaffoldPlan.File, root: URL) throws {
        let url = root.appendingPathComponent(file.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        switch file.content {
        case .symlink(let target):
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        case .data(let data):
            try AtomicFile.write(data, to: url)
            if file.executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }
    }

    /// `git init`, add everything, the initial commit, and with a remote: `origin`, push, upstream.
    static func createRepository(_ module: ScaffoldPlan.NewModule, plan: ScaffoldPlan, result: inout ScaffoldResult) throws {
        let directory = plan.workspaceRoot.appendingPathComponent(module.path)
        let repository = try Repository.create(at: directory.path, initialBranch: plan.initialBranch)
        try repository.addAll()
        let commit = try repository.commit(message: "Create \(module.name) from template \(plan.template.name)")
        result.commits[module.name] = commit.hex
        guard case .branch(let branch, _) = try repository.head() else { return }
        result.branches[module.name] = branch
        guard let url = module.remoteURL else { return }
        try repository.addRemote("origin", url: url)
        guard plan.pushes else { return }
        let refspec = "refs/heads/\(branch):refs/heads/\(branch)"
        let rejections = try repository.push(remote: "origin", refspecs: [refspec]).compactMap(\.error)
        if let reason = rejections.first {
            throw ModKitError("the remote refused the push of \(module.name) to \(Redact.secrets(in: url)): \(reason)")
        }
        if try repository.remoteBranchTarget(remote: "origin", branch: branch) == nil {
            try repository.setReference("refs/remotes/origin/\(branch)", to: commit, force: true, logMessage: "modkit new: push")
        }
        try repository.setUpstream(branch: branch, to: "origin/\(branch)")
        result.pushed.append(module.name)
    }
}
