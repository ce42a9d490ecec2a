import Foundation
import GitKit

/// How `modkit tag` treats what it finds.
public struct TagOptions: Sendable {
    /// Record repositories with uncommitted changes anyway (their HEAD is recorded, not the changes).
    public var allowDirty = false
    /// Refuse when a recorded commit is on no remote-tracking branch, instead of warning.
    public var requirePushed = false
    /// Move existing tags (and replace an existing, different snapshot) instead of refusing.
    public var force = false
    /// The annotation of the tags; a default naming the snapshot otherwise.
    public var message: String?

    public init(allowDirty: Bool = false, requirePushed: Bool = false, force: Bool = false, message: String? = nil) {
        self.allowDirty = allowDirty
        self.requirePushed = requirePushed
        self.force = force
        self.message = message
    }
}

/// Where a tag stands before `modkit tag` runs.
enum ExistingTag: Sendable, Equatable {
    case absent
    /// Already where the snapshot wants it (or, for a directory module, on a commit with an identical folder).
    case matching
    /// On another commit: a conflict, or moved with `--force`.
    case elsewhere(commit: OID, object: OID)
}

/// One tag the snapshot needs in one repository.
struct PlannedTag: Sendable {
    var module: String?
    /// The repository's path relative to the workspace root ("." for the manifest repository).
    var path: String
    var directory: URL
    var name: String
    /// nil for tags on the snapshot commit, which does not exist before the run.
    var commit: OID?
    var existing: ExistingTag
}

/// Everything `modkit tag` checked before changing anything.
struct TagPlan {
    var snapshot: Snapshot
    var manifestHead: OID
    var manifestBranch: String?
    /// The existing snapshot tag's commit when the same snapshot is already recorded: nothing to commit.
    var unchangedSnapshotCommit: OID?
    var existingSnapshotTag: ExistingTag
    var directoryTags: [PlannedTag]
    var moduleTags: [PlannedTag]
    var warnings: [Diagnostic]
}

/// What the preflight of one repository module found.
private struct ModuleCheck: Sendable {
    var entry: Snapshot.Entry?
    var tag: PlannedTag?
    var problems: [Diagnostic] = []
    var warnings: [Diagnostic] = []
}

/// Checks every repository before `modkit tag` creates anything, collecting every problem.
enum SnapshotPreflight {
    static func plan(_ name: String, workspace: Workspace, manifestRepository: ManifestRepository, options: TagOptions,
                     jobs: Int, now: Date) throws -> TagPlan {
        let manifest = workspace.manifest
        guard Repository.isValidTagName(name), !name.contains("{"), !name.hasPrefix("-") else {
            throw ModKitError.input("'\(name)' is not a valid tag name", hint: "use a name like v1.1.1")
        }
        let repository = manifestRepository.repository
        let head = try repository.head()
        guard let manifestHead = head.commit else {
            throw ModKitError.input("the manifest repository has no commit yet", hint: "commit modkit.yml first")
        }
        var manifestBranch: String?
        if case .branch(let branch, _) = head { manifestBranch = branch }
        var problems: [Diagnostic] = []
        if !options.allowDirty, !(try repository.status(untracked: false).isClean) {
            problems.append(.error("uncommitted changes (commit or stash them, or pass --allow-dirty)", module: "manifest repository"))
        }

        let repositoryModules = manifest.modules.filter { $0.kind == .repository }
        let checks = Parallel.map(repositoryModules, jobs: jobs) { module in
            check(module, snapshot: name, manifest: manifest, options: options)
        }
        var checked: [String: ModuleCheck] = [:]
        for (module, result) in zip(repositoryModules, checks) { checked[module.name] = result }

        var gathered = gather(checked, snapshot: name, manifest: manifest, in: manifestRepository, head: manifestHead, force: options.force)
        problems += gathered.problems
        let existing = try existingSnapshot(name, entries: &gathered.entries, checked: &checked, in: manifestRepository, head: manifestHead)
        if case .elsewhere(let commit, _) = existing.tag, let why = existing.difference, !options.force {
            problems.append(.error("tag \(name) already exists on \(commit.short) and \(why) "
                + "(choose another name, or pass --force to replace the snapshot)", module: "manifest repository"))
        }
        if !problems.isEmpty { throw SnapshotFailure(problems: problems, notes: [.note("nothing was tagged or committed")]) }

        let snapshot = Snapshot(name: name, created: Snapshot.timestamp(now), workspace: manifest.workspace,
                                manifest: Snapshot.ManifestState(commit: manifestHead.hex, branch: manifestBranch),
                                modules: gathered.entries)
        return TagPlan(snapshot: snapshot, manifestHead: manifestHead, manifestBranch: manifestBranch,
                       unchangedSnapshotCommit: existing.unchangedCommit, existingSnapshotTag: existing.tag,
                       directoryTags: gathered.directoryTags,
                       moduleTags: repositoryModules.compactMap { checked[$0.name]?.tag }, warnings: gathered.warnings)
    }

    /// What the preflight found for every module, in the manifest's order.
    private struct Gathered {
        var entries: [Snapshot.Entry] = []
        var directoryTags: [PlannedTag] = []
        var problems: [Diagnostic] = []
        var warnings: [Diagnostic] = []
    }

    /// The snapshot entries of every module in the manifest's order: a repository module's from its check, a directory
    /// module's read here, with the tags directory modules need and every problem and warning, in that order too.
    private static func gather(_ checked: [String: ModuleCheck], snapshot name: String, manifest: Manifest,
                               in manifestRepository: ManifestRepository, head: OID, force: Bool) -> Gathered {
        var gathered = Gathered()
        for module in manifest.modules {
            if module.kind == .repository {
                let result = checked[module.name]!
                gathered.problems += result.problems
                gathered.warnings += result.warnings
                if let entry = result.entry { gathered.entries.append(entry) }
                continue
            }
            do {
                let (entry, tag, problem) = try checkDirectory(module, snapshot: name, manifest: manifest,
                                                              in: manifestRepository, head: head, force: force)
                gathered.entries.append(entry)
                if let tag { gathered.directoryTags.append(tag) }
                if let problem { gathered.problems.append(problem) }
            } catch {
                gathered.problems.append(.error("\(ErrorText.describe(error))", module: module.name))
            }
        }
        return gathered
    }

    /// Where the snapshot tag stands: absent; matching when it holds the same snapshot (then its module tags keep the
    /// names that snapshot recorded, in `entries` and `checked`); else elsewhere, with why it differs.
    private static func existingSnapshot(_ name: String, entries: inout [Snapshot.Entry], checked: inout [String: ModuleCheck],
                                         in manifestRepository: ManifestRepository, head: OID) throws
        -> (tag: ExistingTag, unchangedCommit: OID?, difference: String?) {
        guard let target = try manifestRepository.repository.tagTarget(name) else { return (.absent, nil, nil) }
        let recorded = try? SnapshotCatalog.read(name, at: target.commit, in: manifestRepository)
        let why: String? = recorded.map { difference(between: $0, and: entries, in: manifestRepository,
                                                   recordedAt: target.commit, head: head) }
            ?? "it has no snapshot file"
        guard why == nil, let recorded else { return (.elsewhere(commit: target.commit, object: target.object), nil, why) }
        // The snapshot is already recorded: its module tags keep the names it was made with (an older tag-format too).
        for planned in checked.values.compactMap(\.tag) {
            guard let module = planned.module, let name = recorded.module(named: module)?.tag, name != planned.name else { continue }
            checked[module]?.tag = try renamed(planned, to: name)
            if let index = entries.firstIndex(where: { $0.name == module }) { entries[index].tag = name }
        }
        return (.matching, target.commit, nil)
    }

    /// A planned module tag under the name an existing snapshot recorded, with where that tag stands now.
    private static func renamed(_ planned: PlannedTag, to name: String) throws -> PlannedTag {
        var copy = planned
        copy.name = name
        copy.existing = .absent
        if let target = try Repository.open(planned.directory.path).tagTarget(name) {
            copy.existing = target.commit == planned.commit ? .matching : .elsewhere(commit: target.commit, object: target.object)
        }
        return copy
    }

    /// The version as a tag component: the semantic version, else the raw text when it is a plain word.
    static func versionText(_ version: ModuleVersion) -> String? {
        version.version?.description ?? version.raw.flatMap { raw in
            raw.isEmpty || raw.contains(where: { " ()'\"#{}".contains($0) }) ? nil : raw
        }
    }

    private static func check(_ module: Module, snapshot name: String, manifest: Manifest, options: TagOptions) -> ModuleCheck {
        var result = ModuleCheck()
        let directory = manifest.directory(of: module)
        guard Repository.isRepository(directory.path) else {
            result.problems.append(.error("no repository at \(module.path) (run 'modkit sync' first)", module: module.name))
            return result
        }
        do {
            let repository = try Repository.open(directory.path)
            let head = try repository.head()
            guard let commit = head.commit else {
                result.problems.append(.error("HEAD has no commit (unborn branch) in \(module.path)", module: module.name))
                return result
            }
            if !options.allowDirty, !(try repository.status(untracked: false).isClean) {
                result.problems.append(.error("uncommitted changes in \(module.path) (commit or stash them, or pass --allow-dirty)", module: module.name))
            }
            let version = versionText(VersionReader.read(module: module, in: manifest))
            let format = manifest.defaults.tagFormat
            let tag = Snapshot.tagName(format: format, workspace: manifest.workspace, snapshot: name, module: module.name, version: version)
            if format.contains("{version}"), version == nil {
                result.problems.append(.error("no version for tag-format '\(format)' (set 'version:' in modkit.yml, s.version in its podspec or a VERSION file)", module: module.name))
                return result
            }
            guard Repository.isValidTagName(tag) else {
                result.problems.append(.error("'\(tag)' (from tag-format '\(format)') is not a valid tag name", module: module.name))
                return result
            }
            var existing = ExistingTag.absent
            if let target = try repository.tagTarget(tag) {
                if target.commit == commit {
                    existing = .matching
                } else {
                    existing = .elsewhere(commit: target.commit, object: target.object)
                    if !options.force {
                        result.problems.append(.error("tag \(tag) already exists in \(module.path) on \(target.commit.short), not on HEAD \(commit.short) (pass --force to move it)", module: module.name))
                    }
                }
            }
            if !(try repository.isOnRemote(commit)) {
                let message = "commit \(commit.short) is on no remote branch; others cannot restore this snapshot until it is pushed"
                if options.requirePushed {
                    result.problems.append(.error(message, module: module.name))
                } else {
                    result.warnings.append(.warning(message, module: module.name))
                }
            }
            var branch: String?
            if case .branch(let name, _) = head { branch = name }
            let url = manifest.url(of: module).map(Redact.url)
            result.entry = Snapshot.Entry(name: module.name, kind: .repository, url: url, path: module.path, commit: commit.hex,
                                          version: version, branch: branch, tag: tag)
            result.tag = PlannedTag(module: module.name, path: module.path, directory: directory, name: tag, commit: commit,
                                    existing: existing)
        } catch {
            result.problems.append(.error("\(ErrorText.describe(error))", module: module.name))
        }
        return result
    }

    /// A directory module's entry and tag; an existing tag is kept when the module's folder is identical there.
    private static func checkDirectory(_ module: Module, snapshot name: String, manifest: Manifest, in manifestRepository: ManifestRepository,
                                       head: OID, force: Bool) throws -> (Snapshot.Entry, PlannedTag?, Diagnostic?) {
        let repository = manifestRepository.repository
        let version = versionText(VersionReader.read(module: module, in: manifest))
        var entry = Snapshot.Entry(name: module.name, kind: .directory, path: module.path, version: version)
        let path = manifestRepository.path(module.path)
        guard let folder = try repository.objectID(atPath: path, in: head.hex) else {
            return (entry, nil, .error("\(module.path) is not committed in the manifest repository", module: module.name))
        }
        let format = manifest.defaults.dirTagFormat
        if format.contains("{version}"), version == nil {
            return (entry, nil, .error("no version for dir-tag-format '\(format)' (set 'version:' in modkit.yml, s.version in its podspec or a VERSION file)", module: module.name))
        }
        let tag = Snapshot.tagName(format: format, workspace: manifest.workspace, snapshot: name, module: module.name, version: version)
        guard Repository.isValidTagName(tag) else {
            return (entry, nil, .error("'\(tag)' (from dir-tag-format '\(format)') is not a valid tag name", module: module.name))
        }
        entry.tag = tag
        var existing = ExistingTag.absent
        var problem: Diagnostic?
        if let target = try repository.tagTarget(tag) {
            if try repository.objectID(atPath: path, in: target.commit.hex) == folder {
                existing = .matching
            } else {
                existing = .elsewhere(commit: target.commit, object: target.object)
                if !force {
                    problem = .error("tag \(tag) already exists on \(target.commit.short), where \(module.path) differs; bump \(module.name)'s version (or pass --force to move the tag)", module: module.name)
                }
            }
        }
        let planned = PlannedTag(module: module.name, path: ".", directory: manifest.root, name: tag, commit: nil, existing: existing)
        return (entry, planned, problem)
    }

    /// Why an existing snapshot differs from the one about to be recorded; nil when it records the same state.
    static func difference(between recorded: Snapshot, and entries: [Snapshot.Entry], in manifestRepository: ManifestRepository,
                           recordedAt commit: OID, head: OID) -> String? {
        let old = Set(recorded.modules.map(\.name)), new = Set(entries.map(\.name))
        if let added = new.subtracting(old).sorted().first { return "records no module \(added)" }
        if let removed = old.subtracting(new).sorted().first { return "records module \(removed), which the manifest no longer lists" }
        for entry in entries {
            guard let before = recorded.module(named: entry.name) else { continue }
            if entry.kind == .repository, before.commit != entry.commit {
                return "records \(entry.name) at \((before.commit ?? "").prefix(7)), which is now at \((entry.commit ?? "").prefix(7))"
            }
            if entry.kind == .directory {
                if before.version != entry.version {
                    return "records \(entry.name) \(before.version ?? "without a version"), which is now \(entry.version ?? "without a version")"
                }
                let path = manifestRepository.path(entry.path)
                let repository = manifestRepository.repository
                if (try? repository.objectID(atPath: path, in: commit.hex)) != (try? repository.objectID(atPath: path, in: head.hex)) {
                    return "\(entry.name)'s folder \(entry.path) has changed since"
                }
            }
        }
        return nil
    }
}
