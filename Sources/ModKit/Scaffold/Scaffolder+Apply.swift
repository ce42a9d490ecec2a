import Foundation
import GitKit

/// Applies a plan as `sync` clones: every module is built in a staging folder (files, guard, repository, push), a journal
/// records what is left to do, then each module is renamed into place and the manifest written. A kill before the journal
/// leaves nothing; a kill after it is finished by the next `modkit new` (`ScaffoldStaging.recover`). Any error removes it all.
extension Scaffolder {
    public static func apply(_ plan: ScaffoldPlan) throws -> ScaffoldResult {
        // The manifest must still be the text the plan edited (the caller holds the workspace lock from here on).
        let current = try? ManifestLoader.textForEditing(plan.manifestFile)
        guard current == plan.originalManifest else {
            throw ModKitError.input("\(plan.manifestDisplayPath) changed while modkit new was planning; nothing was written", hint: "run the command again")
        }
        let root = plan.workspaceRoot
        for module in plan.modules where FileManager.default.fileExists(atPath: root.appendingPathComponent(module.path).path) {
            throw ModKitError.input("\(module.path) already exists; nothing was written")
        }
        let staging = try ScaffoldStaging.create(in: root)
        var moved: [(staged: URL, target: URL)] = []
        var createdParents: [URL] = []
        do {
            let staged = plan.modules.indices.map { staging.stagedPath($0) }
            for path in staged { try FileManager.default.createDirectory(at: root.appendingPathComponent(path, isDirectory: true), withIntermediateDirectories: true) }
            for file in plan.files {
                guard let index = plan.modules.firstIndex(where: { RelativePath.isInside(file.path, $0.path) }) else {
                    throw ModKitError("template file \(file.path) lies outside every new module")
                }
                var relocated = file
                relocated.path = staged[index] + file.path.dropFirst(plan.modules[index].path.count)
                try write(relocated, root: root)
            }
            var result = ScaffoldResult(plan: plan, commits: [:], pushed: [], branches: [:], ignoredPaths: [])
            for (index, module) in plan.modules.enumerated() where module.kind == .repository {
                try createRepository(module, at: root.appendingPathComponent(staged[index], isDirectory: true), plan: plan, result: &result)
            }
            let ignored = plan.ignoredPaths.isEmpty || !Repository.isRepository(root.path) ? [] : plan.ignoredPaths
            try staging.writeJournal(ScaffoldStaging.Journal(
                command: "modkit new \(plan.modules.first?.name ?? "")", pid: getpid(), manifestFile: plan.manifestFile.path,
                originalManifest: plan.originalManifest, newManifest: plan.newManifest,
                moves: zip(staged, plan.modules).map { ScaffoldStaging.Journal.Move(staged: $0, target: $1.path) }, ignoredPaths: ignored))
            for (index, module) in plan.modules.enumerated() {
                let target = root.appendingPathComponent(module.path, isDirectory: true)
                createdParents += try createParents(of: target)
                let source = root.appendingPathComponent(staged[index], isDirectory: true)
                try FileManager.default.moveItem(at: source, to: target)
                moved.append((source, target))
            }
            try AtomicFile.write(Data(plan.newManifest.utf8), to: plan.manifestFile)
            if !ignored.isEmpty {
                do { result.ignoredPaths = try GitIgnore.add(ignored, to: root.appendingPathComponent(".gitignore")) } catch {
                    // The modules exist and modkit.yml names them: report, as git would, that the folder was not ignored.
                    result.warnings.append(.warning("could not add \(ignored.joined(separator: ", ")) to the manifest repository's .gitignore "
                                                    + "(\(ErrorText.describe(error)))", hint: "add them by hand, or git will list them as untracked"))
                }
            }
            staging.remove()
            return result
        } catch {
            for (source, target) in moved.reversed() { try? FileManager.default.moveItem(at: target, to: source) }
            for parent in createdParents.reversed() { try? FileManager.default.removeItem(at: parent) }
            staging.remove()
            throw error
        }
    }

    /// Creates the missing parent directories of `directory`; returns them, deepest last, to remove on failure.
    static func createParents(of directory: URL) throws -> [URL] {
        var missing: [URL] = []
        var parent = directory.standardizedFileURL.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: parent.path) {
            missing.insert(parent, at: 0)
            parent = parent.deletingLastPathComponent()
        }
        for url in missing { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false) }
        return missing
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
    static func createRepository(_ module: ScaffoldPlan.NewModule, at directory: URL, plan: ScaffoldPlan, result: inout ScaffoldResult) throws {
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
