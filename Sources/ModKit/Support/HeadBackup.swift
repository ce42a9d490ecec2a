import GitKit

/// Saves a detached HEAD that no reference reaches under `refs/modkit/backup/<stamp>/HEAD` before a command moves
/// away from it, so commits made on a detached HEAD are never lost (sync and checkout share it).
enum HeadBackup {
    /// The backup reference it created, or nil when HEAD is on a branch or its commit is reachable from some reference.
    static func saveIfUnreachable(_ repository: Repository, head: Head, stamp: String, command: String) throws -> String? {
        guard case .detached(let commit) = head else { return nil }
        for reference in try repository.references(withPrefix: "refs/") {
            guard let tip = try? repository.resolveCommit(reference.name) else { continue }
            if try tip == commit || repository.isDescendant(tip, of: commit) { return nil }
        }
        return try save(repository, commit: commit, as: "HEAD", stamp: stamp, logMessage: "\(command): save detached HEAD before moving")
    }

    /// Saves `commit` as `refs/modkit/backup/<stamp>/<label>` (or `<label>-2`, … when taken); returns the reference.
    static func save(_ repository: Repository, commit: OID, as label: String, stamp: String, logMessage: String) throws -> String {
        var name = "refs/modkit/backup/\(stamp)/\(label)"
        var counter = 2
        while try repository.reference(name) != nil {
            name = "refs/modkit/backup/\(stamp)/\(label)-\(counter)"
            counter += 1
        }
        try repository.setReference(name, to: commit, force: false, logMessage: logMessage)
        return name
    }
}
