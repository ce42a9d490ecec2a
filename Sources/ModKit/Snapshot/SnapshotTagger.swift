import Foundation
import GitKit

/// The tag of a snapshot that one `modkit tag` result is about.
public struct TagFacts: Sendable, Encodable, Equatable {
    public var tag: String
    /// The commit the tag points at.
    public var commit: String

    /// The result of placing `tag` in one repository (module nil: the manifest repository's snapshot tag): `created`,
    /// `upToDate` (already on the right commit) or `updated` (moved with `--force`), its detail `TAG created|unchanged|moved`.
    static func result(module: String?, path: String, tag: String, commit: String, outcome: ModuleOutcome) -> ModuleResult<TagFacts> {
        ModuleResult(name: module, path: path, outcome: outcome, detail: "\(tag) \(word(for: outcome))", facts: TagFacts(tag: tag, commit: commit))
    }

    /// What happened to a tag, as `modkit tag` words it: created, moved or unchanged.
    public static func word(for outcome: ModuleOutcome) -> String {
        outcome == .created ? "created" : outcome == .updated ? "moved" : "unchanged"
    }
}

/// What `modkit tag` did.
public struct TagReport: Sendable {
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
    public var tags: [ModuleResult<TagFacts>]
    public var warnings: [Diagnostic]
}

/// `modkit tag`: records a snapshot and tags every repository, all or nothing.
public enum SnapshotTagger {
    /// Checks everything first, then commits the snapshot file and creates the tags; any failure undoes what this run did.
    /// `isCancelled` is polled between steps (Ctrl-C): a cancelled run is rolled back too.
    public static func tag(_ name: String, workspace: Workspace, options: TagOptions, jobs: Int, now: Date = Date(),
                           isCancelled: @escaping () -> Bool = { false }) throws -> TagReport {
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit tag")
        let settled = try TagJournal.settle(in: workspace.root, manifestRepository: manifestRepository)
        var plan = try SnapshotPreflight.plan(name, workspace: workspace, manifestRepository: manifestRepository,
                                              options: options, jobs: jobs, now: now)
        plan.warnings.insert(contentsOf: settled.map(\.asWarning), at: 0)
        var run = TagRun(manifestRepository: manifestRepository, workspace: workspace, options: options, isCancelled: isCancelled)
        do {
            let report = try run.create(plan)
            return report
        } catch {
            // What the roll-back did is said in notes that name their repository, as the journal's replay words them.
            let notes = run.rollBack()
            let interrupted = (error as? SnapshotFailure)?.interrupted ?? false
            let problems = (error as? SnapshotFailure)?.problems ?? [.error(ErrorText.describe(error))]
            throw SnapshotFailure(problems: problems, notes: notes, interrupted: interrupted)
        }
    }
}

/// One run of `modkit tag` after the preflight. The snapshot commit is written as an object first; then the journal,
/// every tag, and last the work-tree file, its index entry and the branch (see `TagJournal`).
private struct TagRun {
    let manifestRepository: ManifestRepository
    let workspace: Workspace
    let options: TagOptions
    let isCancelled: () -> Bool
    /// Tags created or moved when the snapshot already existed (no journal: the snapshot stands either way).
    var placed: [TagJournal.Tag] = []
    var journaled = false

    mutating func create(_ plan: TagPlan) throws -> TagReport {
        let name = plan.snapshot.name
        let repository = manifestRepository.repository
        let message = options.message ?? "modkit snapshot \(name)"
        var results: [ModuleResult<TagFacts>] = []

        let snapshotCommit: OID
        var prepared: PreparedFileCommit?
        var file: (url: URL, data: Data)?
        if let unchanged = plan.unchangedSnapshotCommit {
            snapshotCommit = unchanged
            results.append(TagFacts.result(module: nil, path: ".", tag: name, commit: unchanged.hex, outcome: .upToDate))
        } else {
            let data = Data(SnapshotFile.render(plan.snapshot).utf8)
            let commit = try repository.prepareFileCommit(manifestRepository.snapshotPath(name), contents: data,
                                                          message: "Snapshot \(name)\n\nRecorded by 'modkit tag \(name)': \(plan.snapshot.modules.count) modules.\n")
            guard commit.parent == plan.manifestHead else { throw ModKitError("the manifest repository's HEAD moved while 'modkit tag' ran") }
            prepared = commit
            snapshotCommit = commit.commit
            file = (workspace.root.appendingPathComponent(Snapshot.relativePath(of: name)), data)
            try journal(plan, prepared: commit, message: message).write(in: workspace.root, gitDir: repository.gitDir)
            journaled = true
        }
        for planned in plan.moduleTags {
            try checkCancelled()
            guard let commit = planned.commit else { continue }
            let moduleRepository = try Repository.open(planned.directory.path)
            let action = try place(planned, at: commit, in: moduleRepository, message: message)
            results.append(TagFacts.result(module: planned.module, path: planned.path, tag: planned.name, commit: commit.hex, outcome: action))
        }
        for planned in plan.directoryTags {
            try checkCancelled()
            let version = plan.snapshot.module(named: planned.module ?? "")?.version.map { " \($0)" } ?? ""
            let action = try place(planned, at: snapshotCommit, in: repository, message: "\(planned.module ?? "")\(version) (\(message))")
            let commit = action == .upToDate ? (try repository.resolveCommit("refs/tags/\(planned.name)")) : snapshotCommit
            results.append(TagFacts.result(module: planned.module, path: ".", tag: planned.name, commit: commit.hex, outcome: action))
        }
        if let prepared, let file {
            let snapshotTag = PlannedTag(module: nil, path: ".", directory: workspace.root, name: name, commit: prepared.commit,
                                         existing: plan.existingSnapshotTag)
            let action = try place(snapshotTag, label: "manifest repository", at: prepared.commit, in: repository, message: message)
            results.insert(TagFacts.result(module: nil, path: ".", tag: name, commit: prepared.commit.hex, outcome: action), at: 0)
            try checkCancelled()
            try publish(prepared, file: file, name: name)
            try? FileManager.default.removeItem(at: TagJournal.file(in: workspace.root))
        }
        return TagReport(snapshot: name, file: Snapshot.relativePath(of: name), unchanged: plan.unchangedSnapshotCommit != nil,
                         manifestCommit: plan.manifestHead.hex, snapshotCommit: snapshotCommit.hex,
                         manifestBranch: plan.manifestBranch,
                         modules: plan.snapshot.modules, tags: results, warnings: plan.warnings)
    }

    private func checkCancelled() throws {
        if isCancelled() { throw SnapshotFailure(problems: [.error("interrupted")], interrupted: true) }
    }

    /// The journal of this run: every tag it will create or move, and the snapshot commit it will put on the branch.
    private func journal(_ plan: TagPlan, prepared: PreparedFileCommit, message: String) -> TagJournal {
        func entry(_ planned: PlannedTag, label: String, at commit: OID) -> TagJournal.Tag? {
            switch planned.existing {
            case .matching: return nil
            case .absent: return TagJournal.Tag(path: planned.path, label: label, name: planned.name, commit: commit.hex, previous: nil)
            case .elsewhere(_, let object):
                return TagJournal.Tag(path: planned.path, label: label, name: planned.name, commit: commit.hex, previous: object.hex)
            }
        }
        var tags = plan.moduleTags.compactMap { planned in
            planned.commit.flatMap { entry(planned, label: planned.module ?? planned.path, at: $0) }
        }
        tags += plan.directoryTags.compactMap { entry($0, label: $0.module ?? "", at: prepared.commit) }
        let snapshotTag = PlannedTag(module: nil, path: ".", directory: workspace.root, name: plan.snapshot.name, commit: prepared.commit,
                                     existing: plan.existingSnapshotTag)
        tags += [entry(snapshotTag, label: "manifest repository", at: prepared.commit)].compactMap { $0 }
        return TagJournal(snapshot: plan.snapshot.name, file: manifestRepository.snapshotPath(plan.snapshot.name),
                          head: prepared.parent.hex, commit: prepared.commit.hex, blob: prepared.blob.hex,
                          previousBlob: prepared.previousBlob?.hex, tags: tags)
    }

    /// The commit point, in the order that keeps `git status` clean before and after: the work-tree file (a new file
    /// renamed into place), its index entry, then the branch.
    private func publish(_ prepared: PreparedFileCommit, file: (url: URL, data: Data), name: String) throws {
        let repository = manifestRepository.repository
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try InvisibleWrite.file(file.data, to: file.url, gitDir: repository.gitDir)
        try repository.stageFile(manifestRepository.snapshotPath(name))
        try repository.moveHead(from: prepared.parent, to: prepared.commit, logMessage: "commit: Snapshot \(name)")
    }

    /// Creates or (with `--force`) moves one annotated tag.
    private mutating func place(_ planned: PlannedTag, label: String? = nil, at commit: OID, in repository: Repository,
                                message: String) throws -> ModuleOutcome {
        let label = label ?? planned.module ?? planned.path
        do {
            switch planned.existing {
            case .matching:
                return .upToDate
            case .absent:
                try repository.createAnnotatedTag(planned.name, at: commit, message: message)
                placed.append(TagJournal.Tag(path: planned.path, label: label, name: planned.name, commit: commit.hex, previous: nil))
                return .created
            case .elsewhere(_, let object):
                try repository.createAnnotatedTag(planned.name, at: commit, message: message, force: true)
                placed.append(TagJournal.Tag(path: planned.path, label: label, name: planned.name, commit: commit.hex, previous: object.hex))
                return .updated
            }
        } catch {
            throw SnapshotFailure(problems: [.error("could not create tag \(planned.name): \(ErrorText.describe(error))", module: label)])
        }
    }

    /// Undoes this run (through its journal when it had one); one note per step for the user.
    mutating func rollBack() -> [Diagnostic] {
        let root = workspace.root
        do {
            if journaled { return try TagJournal.settle(in: root, manifestRepository: manifestRepository) }
            guard !placed.isEmpty else { return [.note("nothing was tagged or committed")] }
            let head = try manifestRepository.repository.head().commit?.hex ?? ""
            let undo = TagJournal(snapshot: "", file: "", head: head, commit: "", blob: "", tags: placed)
            return try undo.rollBackTags(root: root)
        } catch {
            return [.note("could not undo a step: \(ErrorText.describe(error)); check the tags by hand")]
        }
    }
}
