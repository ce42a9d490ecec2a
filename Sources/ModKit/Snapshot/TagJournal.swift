import Foundation
import GitKit

/// The record of a `modkit tag` under way, `.modkit/journal/tag.json`: written before the first tag is created and
/// removed when the snapshot is complete, so whatever stops the run, the next `modkit tag` or `modkit checkout`
/// finds either a complete snapshot or undoes this run's tags, index entry and file.
struct TagJournal: Codable, Equatable {
    /// One tag the run creates or moves.
    struct Tag: Codable, Equatable {
        /// The repository relative to the workspace root ("." for the manifest repository).
        var path: String
        var label: String
        var name: String
        /// The commit the run puts the tag on.
        var commit: String
        /// The tag object before the run; nil when the tag did not exist.
        var previous: String?
    }

    var snapshot: String
    /// The snapshot file relative to the manifest repository's work tree.
    var file: String
    /// The manifest repository's HEAD before the run, and the snapshot commit the run puts on top of it.
    var head: String
    var commit: String
    var blob: String
    var previousBlob: String?
    var tags: [Tag]

    static func file(in root: URL) -> URL { JournalDirectory.url(in: root).appendingPathComponent("tag.json") }

    static func read(in root: URL) throws -> TagJournal? {
        try JournalDirectory.read(file(in: root), hint: "check the tags and 'git status' of the manifest repository, then remove the file")
    }

    func write(in root: URL, gitDir: String) throws {
        try JournalDirectory.write(self, to: Self.file(in: root), root: root, gitDir: gitDir)
    }

    /// Settles a run that stopped: a snapshot commit on the branch means every tag was made first, so the run is kept;
    /// otherwise each of its tags, the index entry and the work-tree file go back to how they were. One note per step.
    static func settle(in root: URL, manifestRepository: ManifestRepository) throws -> [Diagnostic] {
        guard let journal = try read(in: root) else { return [] }
        let notes = try journal.settle(root: root, repository: manifestRepository.repository)
        try FileManager.default.removeItem(at: file(in: root))
        return notes
    }

    private func settle(root: URL, repository: Repository) throws -> [Diagnostic] {
        guard let head = OID(hex: head), let commit = OID(hex: commit), let blob = OID(hex: blob) else {
            throw ModKitError("\(Self.file(in: root).path) is damaged (bad object id)")
        }
        if case .branch(let branch, _) = try repository.head() { Self.removeStaleLock(of: "refs/heads/\(branch)", in: repository) }
        // The index lock the run took to stage the file: made after the journal, so not one an earlier git left.
        KilledRunLock.removeIndexLock(of: repository, madeAfter: Self.file(in: root))
        if try repository.head().commit == commit { return [.note("an interrupted 'modkit tag \(snapshot)' had completed")] }
        var notes = try rollBackTags(root: root)
        if try repository.head().commit == head {
            if try repository.indexBlobID(file) == blob, previousBlob != blob.hex { try repository.resetIndex(paths: [file], to: head) }
            if repository.workTreeBlobID(file) == blob, let workdir = repository.workdir {
                let url = URL(fileURLWithPath: workdir).appendingPathComponent(file)
                if previousBlob != nil {
                    try InvisibleWrite.file(try repository.readFile(file, at: head.hex) ?? Data(), to: url, gitDir: repository.gitDir)
                } else {
                    try FileManager.default.removeItem(at: url)
                }
            }
        }
        notes.append(.note("no snapshot commit left on the branch (HEAD at \(head.short))", module: "manifest repository"))
        return notes
    }

    /// Removes the lock file a killed run left on one of the references it was writing (nobody else writes them:
    /// the run held the workspace lock, and this is its journal).
    private static func removeStaleLock(of reference: String, in repository: Repository) {
        try? FileManager.default.removeItem(atPath: repository.directory.referenceLock(reference))
    }

    /// Deletes the tags this run created and puts back those it moved, leaving any tag someone else has moved since.
    func rollBackTags(root: URL) throws -> [Diagnostic] {
        var notes: [Diagnostic] = []
        var removed = 0
        for tag in tags.reversed() {
            let directory = tag.path == "." ? root : root.appendingPathComponent(tag.path)
            let module = try Repository.open(directory.path)
            Self.removeStaleLock(of: "refs/tags/\(tag.name)", in: module)
            guard let current = try module.tagTarget(tag.name), current.commit.hex == tag.commit,
                  current.object.hex != tag.previous else { continue }
            if let previous = tag.previous.flatMap(OID.init(hex:)) {
                try module.setReference("refs/tags/\(tag.name)", to: previous, force: true, logMessage: "modkit tag: roll back")
                notes.append(.note("tag \(tag.name) put back where it was", module: tag.label))
            } else {
                try module.deleteTag(tag.name)
                removed += 1
            }
        }
        if removed > 0 { notes.insert(.note("removed the \(removed) tag\(removed == 1 ? "" : "s") this run had created"), at: 0) }
        return notes
    }
}
