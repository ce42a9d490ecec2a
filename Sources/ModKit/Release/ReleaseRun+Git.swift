import Foundation
import GitKit

extension ReleaseRun {
    // MARK: test

    /// Runs each released module's `test:` command in its directory, dependencies first; the first failure stops the step.
    /// A test that changes tracked files stops it too: the release commit would otherwise leave them behind or carry them.
    func test() throws -> [String] {
        var lines: [String] = []
        for module in plan.modules {
            guard let command = module.test else { continue }
            if dryRun {
                lines.append("would run `\(command)` in \(module.path)")
                continue
            }
            let repository = try self.repository(of: module)
            let before = try trackedChanges(in: repository)
            var environment = ProcessInfo.processInfo.environment
            environment["MODKIT_MODULE"] = module.name
            environment["MODKIT_VERSION"] = version(of: module)
            let result = try ShellCommand.run(command, in: manifest.directory(of: module), environment: environment)
            guard result.status == 0 else {
                throw ReleaseStepFailure([Self.exited(command, result, module: module.name)])
            }
            let after = try trackedChanges(in: repository)
            let dirtied = after.keys.filter { before[$0] != after[$0] }.sorted()
            if !dirtied.isEmpty {
                throw ReleaseStepFailure([.error("`\(command)` changed tracked files: \(dirtied.joined(separator: ", "))",
                                                 hint: "a release commits only its own files; make the test leave tracked files alone, restore them (git checkout -- FILE), then resume",
                                                 module: module.name)])
            }
            lines.append("\(module.name): `\(command)` passed")
        }
        return lines.isEmpty ? ["no module has a test command (set test: in modkit.yml)"] : lines
    }

    /// The repository holding a module: its own, or the manifest repository for a directory module.
    func repository(of module: Module) throws -> Repository {
        if module.kind == .repository { return try Repository.open(manifest.directory(of: module).path) }
        return try ManifestRepository.open(workspace, for: "modkit release").repository
    }

    /// Each changed tracked file with its contents now (nil when deleted).
    func trackedChanges(in repository: Repository) throws -> [String: Data?] {
        let workdir = URL(fileURLWithPath: repository.workdir ?? manifest.root.path)
        var changes: [String: Data?] = [:]
        for path in try repository.changedTrackedPaths() {
            changes[path] = FileManager.default.contents(atPath: workdir.appendingPathComponent(path).path)
        }
        return changes
    }

    // MARK: commit

    /// One commit in every repository the release changed, of the files it changed only (spec files, changelogs,
    /// guards, the manifest): each released module repository, and the manifest repository.
    func commit() throws -> [String] {
        var lines: [String] = []
        for module in plan.modules where module.kind == .repository {
            let directory = manifest.directory(of: module)
            let message = "Release \(module.name) \(version(of: module))\n\n\(ReleaseHistory.trailer) \(name)\n"
            let files = releaseFiles(below: directory).map { String($0.path.dropFirst(directory.path.count + 1)) }
            if let line = try commit(files, in: directory, label: module.path, message: message) { lines.append(line) }
        }
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit release")
        let files = releaseFiles(below: manifest.root)
            .map { manifestRepository.path(String($0.path.dropFirst(manifest.root.path.count + 1))) }
        let summary = plan.released.map { "\($0.name) \($0.next)" }.joined(separator: ", ")
        let message = "Release \(name)\n\n\(summary)\n\n\(ReleaseHistory.trailer) \(name)\n"
        let directory = URL(fileURLWithPath: manifestRepository.repository.workdir ?? manifest.root.path)
        if let line = try commit(files, in: directory, label: "manifest repository", message: message) { lines.append(line) }
        return lines.isEmpty ? ["nothing to commit"] : lines
    }

    /// Stages exactly `files` (relative to the repository at `directory`) on the release branch and commits them.
    private func commit(_ files: [String], in directory: URL, label: String, message: String) throws -> String? {
        guard !files.isEmpty else { return nil }
        let subject = message.prefix { $0 != "\n" }
        if dryRun {
            return "would commit \(files.count) file\(files.count == 1 ? "" : "s") in \(label): \"\(subject)\": \(files.sorted().joined(separator: ", "))"
        }
        let repository = try Repository.open(directory.path)
        let switched = try cutReleaseBranch(in: repository)
        try repository.add(files)
        guard try repository.status(paths: files, untracked: false).staged > 0 else { return nil }
        let commit = try repository.commit(message: message)
        return "\(label): \(commit.short) \(subject) (\(files.count) file\(files.count == 1 ? "" : "s"))" + (switched.map { " on new branch \($0)" } ?? "")
    }

    /// Creates and checks out `release.branch` at HEAD unless it is checked out already; returns it when it was created.
    func cutReleaseBranch(in repository: Repository) throws -> String? {
        guard let branch = plan.branch else { return nil }
        let head = try repository.head()
        if case .branch(branch, _) = head { return nil }
        guard let commit = head.commit else { throw ReleaseStepFailure("HEAD has no commit") }
        if let existing = try repository.branchTarget(branch), existing != commit {
            throw ReleaseStepFailure("branch \(branch) already exists at \(existing.short) in \(repository.workdir ?? "")")
        }
        if try repository.branchTarget(branch) == nil { try repository.createBranch(branch, at: commit) }
        try repository.checkoutBranch(branch)
        return branch
    }

    // MARK: tag

    /// The product snapshot (`modkit tag NAME`: `{workspace}/{snapshot}` in every module repository, directory tags),
    /// then each released repository module's own version tag at its release commit.
    func tag() throws -> [String] {
        if dryRun { return plan.tags.map { "would create tag \($0.name) in \($0.place)" } }
        if plan.branch != nil { _ = try cutReleaseBranch(in: ManifestRepository.open(workspace, for: "modkit release").repository) }
        let report = try SnapshotTagger.tag(name, workspace: workspace, options: TagOptions(message: "Release \(name)"), jobs: jobs)
        var lines = [report.unchanged ? "snapshot \(name) already recorded" : "snapshot \(name) recorded in \(report.file)"]
        lines += report.tags.filter { $0.outcome != .upToDate }.map {
            "\($0.tag) in \($0.path == "." ? "the manifest repository" : $0.path) (\($0.outcome == .created ? "created" : "moved"))"
        }
        for (module, tag) in versionTags() {
            let repository = try Repository.open(manifest.directory(of: module).path)
            let head = try repository.resolveCommit("HEAD")
            if let existing = try repository.tag(tag) {
                guard existing.commit == head else {
                    throw ReleaseStepFailure("tag \(tag) already exists at \(existing.commit.short), not at the release commit \(head.short)", module: module.name)
                }
                continue
            }
            try repository.createAnnotatedTag(tag, at: head, message: "\(module.name) \(version(of: module))")
            lines.append("\(tag) in \(module.path) (created)")
        }
        // The release commits reach their remotes in the push step; other warnings are worth repeating.
        warnings += report.warnings.filter { !$0.message.contains("on no remote branch") }
        return lines
    }

    /// The version tag of each released repository module.
    func versionTags() -> [(Module, String)] {
        plan.modules.filter { $0.kind == .repository }.compactMap { module in plan.entry(module.name).map { (module, $0.tag) } }
    }

    // MARK: push

    /// Pushes each released module's branch and version tag, then the snapshot's tags and commit everywhere.
    func push() throws -> [String] {
        if dryRun {
            let tags = Dictionary(grouping: plan.tags, by: \.repository).mapValues { $0.map(\.name) }
            func with(_ repository: String) -> String {
                guard let names = tags[repository] else { return "" }
                return " and tag\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
            }
            let released = plan.modules.filter { $0.kind == .repository }.map(\.path)
            var lines = released.map { "would push the release branch of \($0)\(with($0))" }
            lines.append("would push the manifest repository's branch and snapshot commit\(with("."))")
            for (repository, names) in tags.sorted(by: { $0.key < $1.key }) where repository != "." && !released.contains(repository) {
                lines.append("would push tag\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) to \(repository)")
            }
            return lines
        }
        var lines: [String] = []
        var problems: [Diagnostic] = []
        for module in plan.modules where module.kind == .repository {
            do {
                let repository = try Repository.open(manifest.directory(of: module).path)
                guard case .branch(let branch, _) = try repository.head() else {
                    problems.append(.error("not on a branch", module: module.name))
                    continue
                }
                let upstream = try repository.upstream(ofBranch: branch)
                let remote = try upstream.flatMap { upstream in try repository.remoteNames().first { upstream.hasPrefix($0 + "/") } }
                    ?? manifest.defaults.remote
                let remoteBranch = upstream.map { String($0.dropFirst(remote.count + 1)) } ?? branch
                var refspecs = ["refs/heads/\(branch):refs/heads/\(remoteBranch)"]
                refspecs += versionTags().filter { $0.0.name == module.name }.map { "refs/tags/\($0.1):refs/tags/\($0.1)" }
                let results = try repository.push(remote: remote, refspecs: refspecs)
                let rejected = results.filter { $0.error != nil }
                if rejected.isEmpty {
                    if upstream == nil { try repository.setUpstream(branch: branch, to: "\(remote)/\(remoteBranch)") }
                    lines.append("\(module.path): pushed \(branch) and \(plan.entry(module.name)!.tag)")
                } else {
                    problems += rejected.map { .error("\($0.ref) rejected: \($0.error ?? "")", module: module.name) }
                }
            } catch {
                problems.append(.error(ErrorText.describe(error), module: module.name))
            }
        }
        if !problems.isEmpty { throw ReleaseStepFailure(problems) }
        let report = try SnapshotTagger.tag(name, workspace: workspace, options: TagOptions(message: "Release \(name)"), jobs: jobs)
        for result in SnapshotPusher.push(report, workspace: workspace, force: false, jobs: jobs) {
            if let error = result.error {
                problems.append(result.name.map { .error(error.message, module: $0) } ?? .error("manifest repository: \(error.message)"))
            } else if !result.pushed.isEmpty {
                lines.append("\(result.path == "." ? "manifest repository" : result.path): pushed \(result.pushed.joined(separator: ", "))")
            }
        }
        if !problems.isEmpty { throw ReleaseStepFailure(problems) }
        if let branch = plan.branch, report.manifestBranch == branch {
            let repository = try ManifestRepository.open(workspace, for: "modkit release")
            if try repository.repository.upstream(ofBranch: branch) == nil, let remote = try repository.pushRemote(branch: branch)?.remote {
                try repository.repository.setUpstream(branch: branch, to: "\(remote)/\(branch)")
            }
        }
        return lines
    }

    // MARK: publish

    /// Runs each released module's publish command in its directory, dependencies first, with MODKIT_MODULE and
    /// MODKIT_VERSION set; a module published in an earlier run is not published again, and a module whose
    /// dependency failed to publish waits for the next run.
    func publish() throws -> [String] {
        var lines: [String] = []
        var problems: [Diagnostic] = []
        var failed: [String] = []
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs)
        for module in plan.modules {
            guard let command = manifest.publishCommand(of: module) else { continue }
            if published.contains(module.name) {
                lines.append("\(module.name): published in an earlier run")
                continue
            }
            if dryRun {
                lines.append("would run `\(command)` in \(module.path) (MODKIT_VERSION=\(version(of: module)))")
                continue
            }
            let waiting = specs.dependencies(of: module.name).filter(failed.contains)
            if !waiting.isEmpty {
                problems.append(.error("not published, it depends on \(waiting.joined(separator: ", ")), which failed to publish", module: module.name))
                failed.append(module.name)
                continue
            }
            var environment = ProcessInfo.processInfo.environment
            environment["MODKIT_MODULE"] = module.name
            environment["MODKIT_VERSION"] = version(of: module)
            environment["MODKIT_RELEASE"] = name
            let result = try ShellCommand.run(command, in: manifest.directory(of: module), environment: environment)
            if result.status == 0 {
                published.append(module.name)
                lines.append("\(module.name) \(version(of: module)): `\(command)` passed")
            } else {
                failed.append(module.name)
                problems.append(Self.exited(command, result, module: module.name))
            }
        }
        if !problems.isEmpty { throw ReleaseStepFailure(problems, lines: lines) }
        return lines.isEmpty ? ["no released module has a publish command (set publish: in modkit.yml)"] : lines
    }
}
