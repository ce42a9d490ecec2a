import Foundation
import GitKit

/// One tag of a snapshot and what `modkit tag` did with it.
public struct SnapshotTagResult: Sendable, Codable, Equatable {
    public enum Action: String, Sendable, Codable {
        case created
        /// Already there on the right commit.
        case unchanged
        /// Moved from another commit (`--force`).
        case moved
    }

    /// The module the tag belongs to; nil for the snapshot tag of the manifest repository.
    public var module: String?
    /// The repository, relative to the workspace root ("." for the manifest repository).
    public var path: String
    public var tag: String
    public var commit: String
    public var action: Action
}

/// What `modkit tag` did.
public struct TagReport: Sendable, Codable {
    public var snapshot: String
    /// The snapshot file relative to the workspace root.
    public var file: String
    /// True when the snapshot already existed and matched: nothing was committed.
    public var unchanged: Bool
    /// The manifest repository's commit the snapshot was taken from.
    public var manifestCommit: String
    /// The commit that holds the snapshot file, where the snapshot tag points.
    public var snapshotCommit: String
    /// The manifest repository's branch the snapshot was committed on (nil when HEAD was detached).
    public var manifestBranch: String?
    public var modules: [Snapshot.Entry]
    public var tags: [SnapshotTagResult]
    public var warnings: [String]
}

/// `modkit tag`: records a snapshot and tags every repository, all or nothing.
public enum SnapshotTagger {
    /// Checks everything first, then commits the snapshot file and creates the tags; any failure undoes what this run did.
    /// `isCancelled` is polled between steps (Ctrl-C): a cancelled run is rolled back too.
    public static func tag(_ name: String, workspace: Workspace, options: TagOptions, jobs: Int, now: Date = Date(),
                           isCancelled: @escaping () -> Bool = { false }) throws -> TagReport {
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit tag")
        let plan = try SnapshotPreflight.plan(name, workspace: workspace, manifestRepository: manifestRepository,
                                              options: options, jobs: jobs, now: now)
        var run = TagRun(manifestRepository: manifestRepository, workspace: workspace, options: options, isCancelled: isCancelled)
        do {
            let report = try run.create(plan)
            return report
        } catch {
            let notes = run.rollBack()
            let interrupted = (error as? SnapshotFailure)?.interrupted ?? false
            let problems = (error as? SnapshotFailure)?.problems ?? ["\(ErrorText.describe(error))"]
            throw SnapshotFailure(problems: problems, notes: notes, interrupted: interrupted)
        }
    }
}

/// One run of `modkit tag` after the preflight: what it changed, so that it can be undone.
private struct TagRun {
    /// A change this run made.
    enum Change {
        case committed(previousHead: OID, path: String, file: URL, previousContents: Data?)
        case createdTag(directory: URL, name: String, label: String)
        case movedTag(directory: URL, name: String, previous: OID, label: String)
    }

    let manifestRepository: ManifestRepository
    let workspace: Workspace
    let options: TagOptions
    let isCancelled: () -> Bool
    var changes: [Change] = []

    mutating func create(_ plan: TagPlan) throws -> TagReport {
        let name = plan.snapshot.name
        let repository = manifestRepository.repository
        let message = options.message ?? "modkit snapshot \(name)"
        var results: [SnapshotTagResult] = []

        let snapshotCommit: OID
        if let unchanged = plan.unchangedSnapshotCommit {
            snapshotCommit = unchanged
            results.append(SnapshotTagResult(module: nil, path: ".", tag: name, commit: unchanged.hex, action: .unchanged))
        } else {
            snapshotCommit = try commitSnapshotFile(plan.snapshot, head: plan.manifestHead)
            try checkCancelled()
            let action = try place(tag: name, label: "manifest repository", at: snapshotCommit, existing: plan.existingSnapshotTag,
                                   in: repository, directory: workspace.root, message: message)
            results.append(SnapshotTagResult(module: nil, path: ".", tag: name, commit: snapshotCommit.hex, action: action))
        }
        for planned in plan.directoryTags {
            try checkCancelled()
            let version = plan.snapshot.module(named: planned.module ?? "")?.version.map { " \($0)" } ?? ""
            let action = try place(tag: planned.name, label: "\(planned.module ?? "")", at: snapshotCommit, existing: planned.existing,
                                   in: repository, directory: workspace.root,
                                   message: "\(planned.module ?? "")\(version) (\(message))")
            let commit = action == .unchanged ? (try repository.resolveCommit("refs/tags/\(planned.name)")) : snapshotCommit
            results.append(SnapshotTagResult(module: planned.module, path: ".", tag: planned.name, commit: commit.hex, action: action))
        }
        for planned in plan.moduleTags {
            try checkCancelled()
            guard let commit = planned.commit else { continue }
            let moduleRepository = try Repository.open(planned.directory.path)
            let action = try place(tag: planned.name, label: planned.module ?? planned.path, at: commit, existing: planned.existing,
                                   in: moduleRepository, directory: planned.directory, message: message)
            results.append(SnapshotTagResult(module: planned.module, path: planned.path, tag: planned.name, commit: commit.hex, action: action))
        }
        return TagReport(snapshot: name, file: Snapshot.relativePath(of: name), unchanged: plan.unchangedSnapshotCommit != nil,
                         manifestCommit: plan.manifestHead.hex, snapshotCommit: snapshotCommit.hex,
                         manifestBranch: plan.manifestBranch,
                         modules: plan.snapshot.modules, tags: results, warnings: plan.warnings)
    }

    private func checkCancelled() throws {
        if isCancelled() { throw SnapshotFailure(problems: ["interrupted"], interrupted: true) }
    }

    /// Commits the snapshot file on HEAD, then makes the index and work tree agree with the new commit for that file only.
    private mutating func commitSnapshotFile(_ snapshot: Snapshot, head: OID) throws -> OID {
        let repository = manifestRepository.repository
        let path = manifestRepository.snapshotPath(snapshot.name)
        let file = workspace.root.appendingPathComponent(Snapshot.relativePath(of: snapshot.name))
        let data = Data(SnapshotFile.render(snapshot).utf8)
        let previous = try? Data(contentsOf: file)
        let commit = try repository.commitFile(path, contents: data,
                                               message: "Snapshot \(snapshot.name)\n\nRecorded by 'modkit tag \(snapshot.name)': \(snapshot.modules.count) modules.\n")
        changes.append(.committed(previousHead: head, path: path, file: file, previousContents: previous))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(data, to: file)
        try repository.resetIndex(paths: [path], to: commit)
        return commit
    }

    /// Creates or (with `--force`) moves one annotated tag, remembering how to undo it.
    private mutating func place(tag: String, label: String, at commit: OID, existing: ExistingTag, in repository: Repository,
                                directory: URL, message: String) throws -> SnapshotTagResult.Action {
        do {
            switch existing {
            case .matching:
                return .unchanged
            case .absent:
                try repository.createAnnotatedTag(tag, at: commit, message: message)
                changes.append(.createdTag(directory: directory, name: tag, label: label))
                return .created
            case .elsewhere(_, let object):
                try repository.createAnnotatedTag(tag, at: commit, message: message, force: true)
                changes.append(.movedTag(directory: directory, name: tag, previous: object, label: label))
                return .moved
            }
        } catch {
            throw SnapshotFailure(problems: ["\(label): could not create tag \(tag): \(ErrorText.describe(error))"])
        }
    }

    /// Undoes every change in reverse order; returns one line per step for the user.
    mutating func rollBack() -> [String] {
        var notes: [String] = []
        var removed = 0
        for change in changes.reversed() {
            do {
                switch change {
                case .createdTag(let directory, let name, _):
                    try Repository.open(directory.path).deleteTag(name)
                    removed += 1
                case .movedTag(let directory, let name, let previous, let label):
                    try Repository.open(directory.path).setReference("refs/tags/\(name)", to: previous, force: true,
                                                                    logMessage: "modkit tag: roll back")
                    notes.append("\(label): tag \(name) put back where it was")
                case .committed(let previousHead, let path, let file, let previousContents):
                    let repository = manifestRepository.repository
                    try repository.moveHead(to: previousHead, logMessage: "modkit tag: roll back the snapshot commit")
                    try repository.resetIndex(paths: [path], to: previousHead)
                    if let previousContents {
                        try AtomicFile.write(previousContents, to: file)
                    } else {
                        try? FileManager.default.removeItem(at: file)
                    }
                    notes.append("manifest repository: snapshot commit undone (HEAD back at \(previousHead.short))")
                }
            } catch {
                notes.append("could not undo a step: \(ErrorText.describe(error)); check the tags by hand")
            }
        }
        if removed > 0 { notes.insert("removed the \(removed) tag\(removed == 1 ? "" : "s") this run had created", at: 0) }
        if changes.isEmpty { notes.append("nothing was tagged or committed") }
        changes.removeAll()
        return notes
    }
}
