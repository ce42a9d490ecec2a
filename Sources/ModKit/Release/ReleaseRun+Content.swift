import Foundation
import GitKit

extension ReleaseRun {
    // MARK: bump

    func bump() throws -> [String] {
        var lines: [String] = []
        for module in plan.modules {
            let old = VersionReader.read(module: module, in: manifest).raw ?? "none"
            try VersionBump.plan(module, in: manifest, to: version, edits: &edits)
            lines.append(old == version ? "\(module.name) already at \(version)" : "\(module.name) \(old) → \(version)")
        }
        return lines
    }

    // MARK: changelog

    /// Adds a section to each released module's CHANGELOG.md from its commit subjects since the previous snapshot.
    func changelog() throws -> [String] {
        let previous = try SnapshotCatalog.list(in: workspace).last { $0.name != version }
        let snapshot = try previous.map { try SnapshotCatalog.load($0.name, in: workspace, command: "modkit release").snapshot }
        let date = Changelog.today()
        var lines: [String] = []
        for module in plan.modules {
            let subjects = try commitSubjects(of: module, since: snapshot)
            let file = manifest.directory(of: module).appendingPathComponent("CHANGELOG.md")
            var added = false
            edits.update(file) { text in
                let updated = Changelog.adding(version: version, date: date, entries: subjects, to: text)
                added = updated != nil
                return updated
            }
            let since = previous.map { " since \($0.name)" } ?? ""
            lines.append(added ? "\(module.name): \(subjects.count) change\(subjects.count == 1 ? "" : "s")\(since)"
                               : "\(module.name): section \(version) already there, kept")
        }
        return lines
    }

    /// Subjects of the commits made in a module since a snapshot (all commits when there is none), oldest first.
    func commitSubjects(of module: Module, since snapshot: Snapshot?) throws -> [String] {
        let commits: [CommitInfo]
        switch module.kind {
        case .repository:
            let repository = try Repository.open(manifest.directory(of: module).path)
            let head = try repository.resolveCommit("HEAD")
            let hidden = snapshot?.module(named: module.name)?.commit.flatMap(OID.init(hex:)).flatMap { repository.hasCommit($0) ? $0 : nil }
            commits = try repository.log(from: head, excluding: hidden.map { [$0] } ?? [])
        case .directory:
            let manifestRepository = try ManifestRepository.open(workspace, for: "modkit release")
            let repository = manifestRepository.repository
            let head = try repository.resolveCommit("HEAD")
            let hidden = snapshot?.manifest.flatMap { OID(hex: $0.commit) }.flatMap { repository.hasCommit($0) ? $0 : nil }
            commits = try repository.log(from: head, excluding: hidden.map { [$0] } ?? [], touching: manifestRepository.path(module.path))
        }
        return commits.filter { $0.parents.count <= 1 }.map(\.summary).reversed()
    }

    // MARK: pin and guard

    func pin() throws -> [String] {
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs, overlay: edits, versions: plannedVersions)
        let plans = Pinner.plan(specs, modules: plan.modules)
        let blocking = plans.flatMap(\.findings).filter { $0.kind == .unresolved || $0.kind == .unrewritable }
        if !blocking.isEmpty { throw ReleaseStepFailure(problems: blocking.map(\.message)) }
        var lines: [String] = []
        for filePlan in plans where filePlan.hasChanges {
            edits.updateBytes(filePlan.url) { _ in filePlan.newBytes }
            let count = filePlan.findings.filter { $0.kind == .loose || $0.kind == .stale }.count
            lines.append("\(filePlan.path): \(count) requirement\(count == 1 ? "" : "s") pinned")
        }
        for dependent in plan.dependents {
            lines.append("note: \(dependent.module) depends on \(dependent.dependsOn.joined(separator: ", ")) but is not released; run 'modkit pin \(dependent.module)' after this release")
        }
        return lines.isEmpty ? ["every requirement already pinned"] : lines
    }

    func regenerateGuards() throws -> [String] {
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs, overlay: edits, versions: plannedVersions)
        let outcomes = GuardRun.run(specs.guardModules, selected: Set(plan.modules.map(\.name)), generatedDir: manifest.defaults.generatedDir, mode: .check)
        let problems = outcomes.compactMap { outcome in outcome.problem.map { "\(outcome.module): \($0)" } }
        if !problems.isEmpty { throw ReleaseStepFailure(problems: problems) }
        var lines: [String] = []
        for file in outcomes.flatMap({ $0.plan?.changes ?? [] }) {
            edits.update(file.url, settles: file.language == .swift) { _ in file.expected }
            lines.append("\(Workspace.displayPath(of: file.url)) \(file.state == .missing ? "created" : "updated")")
        }
        return lines.isEmpty ? ["every guard file already up to date"] : lines
    }
}
