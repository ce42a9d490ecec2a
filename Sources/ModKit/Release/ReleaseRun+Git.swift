import Foundation
import GitKit

extension ReleaseRun {
    // MARK: test

    /// Runs each released module's `test:` command in its directory, dependencies first; the first failure stops the step.
    func test() throws -> [String] {
        var lines: [String] = []
        for module in plan.modules {
            guard let command = module.test else { continue }
            if dryRun {
                lines.append("would run `\(command)` in \(module.path)")
                continue
            }
            var environment = ProcessInfo.processInfo.environment
            environment["MODKIT_MODULE"] = module.name
            environment["MODKIT_VERSION"] = version
            let result = try ShellCommand.run(command, in: manifest.directory(of: module), environment: environment)
            guard result.status == 0 else {
                throw ReleaseStepFailure(problems: ["\(module.name): `\(command)` exited \(result.status)"] + Self.tail(result.output))
            }
            lines.append("\(module.name): `\(command)` passed")
        }
        return lines.isEmpty ? ["no module has a test command (set test: in modkit.yml)"] : lines
    }

    // MARK: commit

    /// One commit in every touched repository: each released module repository, and the manifest repository
    /// for directory modules and modkit.yml.
    func commit() throws -> [String] {
        var lines: [String] = []
        for module in plan.modules where module.kind == .repository {
            let directory = manifest.directory(of: module)
            if dryRun {
                let files = edits.changed.filter { $0.url.path.hasPrefix(directory.path + "/") }
                if !files.isEmpty { lines.append("would commit \(files.count) file\(files.count == 1 ? "" : "s") in \(module.path): \"Release \(module.name) \(version)\"") }
                continue
            }
            let repository = try Repository.open(directory.path)
            let status = try repository.status()
            guard !status.isClean || status.untracked > 0 else { continue }
            try repository.addAll()
            let commit = try repository.commit(message: "Release \(module.name) \(version)")
            lines.append("\(module.path): \(commit.short) Release \(module.name) \(version)")
        }
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit release")
        let paths = [manifestRepository.path(ManifestLoader.fileName)]
            + plan.modules.filter { $0.kind == .directory }.map { manifestRepository.path($0.path) }
        let message = "Release \(version)\n\nModules: \(plan.modules.map(\.name).joined(separator: ", "))\n"
        if dryRun {
            let files = edits.changed.filter { file in
                manifest.modules.filter { $0.kind == .repository }.allSatisfy { !file.url.path.hasPrefix(manifest.directory(of: $0).path + "/") }
            }
            if !files.isEmpty { lines.append("would commit \(files.count) file\(files.count == 1 ? "" : "s") in the manifest repository: \"Release \(version)\"") }
        } else {
            let repository = manifestRepository.repository
            let status = try repository.status(paths: paths)
            if !status.isClean || status.untracked > 0 {
                try repository.add(paths)
                let commit = try repository.commit(message: message)
                lines.append("manifest repository: \(commit.short) Release \(version)")
            }
        }
        return lines.isEmpty ? ["nothing to commit"] : lines
    }

    // MARK: tag

    /// `modkit tag VERSION`, then each released repository module's own version tag where it differs from the snapshot tag.
    func tag() throws -> [String] {
        if dryRun { return plannedTags().map { "would create tag \($0.tag) in \($0.path)" } }
        let report = try SnapshotTagger.tag(version, workspace: workspace, options: TagOptions(message: "Release \(version)"), jobs: jobs)
        var lines = [report.unchanged ? "snapshot \(version) already recorded" : "snapshot \(version) recorded in \(report.file)"]
        lines += report.tags.filter { $0.action != .unchanged }.map {
            "\($0.tag) in \($0.path == "." ? "the manifest repository" : $0.path) (\($0.action.rawValue))"
        }
        for (module, name) in versionTags() {
            let repository = try Repository.open(manifest.directory(of: module).path)
            let head = try repository.resolveCommit("HEAD")
            if let existing = try repository.tag(name) {
                guard existing.commit == head else {
                    throw ReleaseStepFailure(problems: ["\(module.name): tag \(name) already exists at \(existing.commit.short), not at the release commit \(head.short)"])
                }
                continue
            }
            try repository.createAnnotatedTag(name, at: head, message: "\(module.name) \(version)")
            lines.append("\(name) in \(module.path) (created)")
        }
        // The release commits reach their remotes in the push step; other warnings are worth repeating.
        report.warnings.filter { !$0.contains("on no remote branch") }.forEach { lines.append("warning: \($0)") }
        return lines
    }

    /// Version tags (`version-tag-format`) of released repository modules that differ from their snapshot tag.
    func versionTags() -> [(Module, String)] {
        plan.modules.filter { $0.kind == .repository }.compactMap { module in
            let versionTag = Snapshot.tagName(format: manifest.defaults.versionTagFormat, snapshot: version, module: module.name, version: version)
            let snapshotTag = Snapshot.tagName(format: manifest.defaults.tagFormat, snapshot: version, module: module.name, version: version)
            return versionTag == snapshotTag ? nil : (module, versionTag)
        }
    }

    /// Every tag a real run would create, for dry runs.
    func plannedTags() -> [(tag: String, path: String)] {
        var tags: [(String, String)] = [(version, "the manifest repository")]
        for module in manifest.modules {
            let moduleVersion = plannedVersions[module.name] ?? VersionReader.read(module: module, in: manifest).raw
            switch module.kind {
            case .repository:
                tags.append((Snapshot.tagName(format: manifest.defaults.tagFormat, snapshot: version, module: module.name, version: moduleVersion), module.path))
            case .directory:
                tags.append((Snapshot.tagName(format: manifest.defaults.dirTagFormat, snapshot: version, module: module.name, version: moduleVersion), "the manifest repository"))
            }
        }
        tags += versionTags().map { ($0.1, $0.0.path) }
        return tags
    }

    // MARK: push

    /// Pushes each released module's branch to its upstream, then the snapshot's tags and commit everywhere.
    func push() throws -> [String] {
        if dryRun {
            var lines = plan.modules.filter { $0.kind == .repository }.map { "would push the release branch of \($0.path)" }
            lines.append("would push the manifest repository's branch and snapshot commit")
            lines += plannedTags().map { "would push tag \($0.tag) (\($0.path))" }
            return lines
        }
        var lines: [String] = []
        var problems: [String] = []
        for module in plan.modules where module.kind == .repository {
            do {
                let repository = try Repository.open(manifest.directory(of: module).path)
                guard case .branch(let branch, _) = try repository.head(), let upstream = try repository.upstream(ofBranch: branch) else {
                    problems.append("\(module.name): not on a branch with an upstream")
                    continue
                }
                let remote = try repository.remoteNames().first { upstream.hasPrefix($0 + "/") } ?? manifest.defaults.remote
                let remoteBranch = String(upstream.dropFirst(remote.count + 1))
                var refspecs = ["refs/heads/\(branch):refs/heads/\(remoteBranch)"]
                refspecs += versionTags().filter { $0.0.name == module.name }.map { "refs/tags/\($0.1):refs/tags/\($0.1)" }
                let results = try repository.push(remote: remote, refspecs: refspecs)
                let rejected = results.filter { $0.error != nil }
                if rejected.isEmpty {
                    lines.append("\(module.path): pushed \(branch)")
                } else {
                    problems += rejected.map { "\(module.name): \($0.ref) rejected: \($0.error ?? "")" }
                }
            } catch {
                problems.append("\(module.name): \(ErrorText.describe(error))")
            }
        }
        if !problems.isEmpty { throw ReleaseStepFailure(problems: problems) }
        let report = try SnapshotTagger.tag(version, workspace: workspace, options: TagOptions(message: "Release \(version)"), jobs: jobs)
        for result in SnapshotPusher.push(report, workspace: workspace, force: false, jobs: jobs) {
            if let error = result.error {
                problems.append("\(result.module ?? "manifest repository"): \(error)")
            } else if !result.pushed.isEmpty {
                lines.append("\(result.path == "." ? "manifest repository" : result.path): pushed \(result.pushed.joined(separator: ", "))")
            }
        }
        if !problems.isEmpty { throw ReleaseStepFailure(problems: problems) }
        return lines
    }
}
