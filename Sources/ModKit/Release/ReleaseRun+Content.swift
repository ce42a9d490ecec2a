import Foundation
import GitKit

extension ReleaseRun {
    // MARK: bump

    func bump() throws -> [String] {
        var lines: [String] = []
        for module in plan.modules {
            let entry = plan.entry(module.name)!
            let old = VersionReader.read(module: module, in: manifest).raw ?? "none"
            try VersionBump.plan(module, in: manifest, to: entry.next, edits: &edits)
            lines.append(old == entry.next ? "\(module.name) already at \(entry.next)" : "\(module.name) \(old) → \(entry.next)")
        }
        return lines
    }

    // MARK: changelog

    /// Adds a section to each released module's CHANGELOG.md from its commits since its own previous version tag.
    func changelog() throws -> [String] {
        let date = Changelog.today()
        var lines: [String] = []
        for module in plan.modules {
            let entry = plan.entry(module.name)!
            let history = try ReleaseHistory.read(module, version: entry.current, workspace: workspace)
            let link = entry.previousTag.flatMap { previous in
                remoteURL(of: module).flatMap { Changelog.compareLink(remote: $0, from: previous, to: entry.tag) }
            }
            var body = Changelog.body(commits: history.commits.map { ($0.message, $0.oid.short) }, link: link)
            if let changes = entry.apiChanges, !changes.isEmpty {
                body += (body.last?.isEmpty == false ? [""] : []) + ["### API changes", ""] + changes.map { "- \($0)" }
                if let understated = entry.understatedBump { body += ["", "- **\(understated)**"] }
            }
            if history.commits.isEmpty, case let dependencies = releasedDependencies(of: module), !dependencies.isEmpty {
                body = body.dropLast() + ["- Dependencies updated: " + dependencies.map { "\($0.name) \($0.next)" }.joined(separator: ", ")]
            }
            let file = manifest.directory(of: module).appendingPathComponent("CHANGELOG.md")
            var added = false
            edits.update(file) { text in
                let updated = Changelog.adding(version: entry.next, date: date, body: body, to: text)
                added = updated != nil
                return updated
            }
            let count = history.commits.count
            let since = history.previousTag.map { " since \($0)" } ?? ""
            lines.append(added ? "\(module.name): \(count) change\(count == 1 ? "" : "s")\(since)"
                               : "\(module.name): section \(entry.next) already there, kept")
        }
        return lines
    }

    /// The released modules `module` depends on.
    func releasedDependencies(of module: Module) -> [ReleasedModule] {
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs)
        return specs.dependencies(of: module.name).compactMap { plan.entry($0) }
    }

    /// The url of the remote holding a module's commits: its own repository's, or the manifest repository's.
    func remoteURL(of module: Module) -> String? {
        if module.kind == .repository { return manifest.url(of: module) }
        guard let manifestRepository = try? ManifestRepository.open(workspace, for: "modkit release"),
              let remote = (try? manifestRepository.pushRemote(branch: nil))??.remote else { return nil }
        return try? manifestRepository.repository.remoteURL(remote)
    }

    // MARK: pin and guard

    func pin() throws -> [String] {
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs, overlay: edits, versions: plannedVersions)
        let plans = Pinner.plan(specs, modules: plan.modules)
        let findings = plans.flatMap(\.findings)
        let blocking = findings.filter { $0.blocks(strict: strict) }
        // What modkit cannot verify is reported as `modkit pin` reports it, and stops the step only with --strict.
        warnings += findings.filter { $0.kind == .unrewritable && !$0.blocks(strict: strict) }.map { .warning($0.message) }
        if !blocking.isEmpty { throw ReleaseStepFailure(blocking.map { .error($0.message) }) }
        var lines: [String] = []
        for filePlan in plans where filePlan.hasChanges {
            edits.updateBytes(filePlan.url) { _ in filePlan.newBytes }
            let count = filePlan.findings.filter { $0.kind == .loose || $0.kind == .stale }.count
            lines.append("\(filePlan.path): \(count) requirement\(count == 1 ? "" : "s") pinned")
        }
        return lines.isEmpty ? ["every requirement already pinned"] : lines
    }

    func regenerateGuards() throws -> [String] {
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs, overlay: edits, versions: plannedVersions)
        let outcomes = GuardRun.run(specs.guardModules, selected: Set(plan.modules.map(\.name)), generatedDir: manifest.defaults.generatedDir, mode: .check)
        let problems = outcomes.filter { $0.outcome == .failed }.compactMap(\.error)
        if !problems.isEmpty { throw ReleaseStepFailure(problems) }
        var lines: [String] = []
        for file in outcomes.flatMap({ $0.plan?.changes ?? [] }) {
            edits.update(file.url, settles: file.language == .swift) { _ in file.expected }
            lines.append("\(Workspace.displayPath(of: file.url)) \(file.state == .missing ? "created" : "updated")")
        }
        return lines.isEmpty ? ["every guard file already up to date"] : lines
    }
}
