import Foundation
import GitKit

/// The git lock files a killed `modkit tag`, `checkout` or `sync` left: made after that run's journal (its own, or
/// the repository's move journal), so no earlier git process's, and no other modkit's while the workspace lock is held.
enum KilledRunLock {
    /// Removes `repository`'s index lock when it is newer than `journal`; leaves any other alone.
    static func removeIndexLock(of repository: Repository, madeAfter journal: URL) {
        remove([repository.directory.indexLock], madeAfter: journal)
    }

    /// Removes the locks a move to `branch` takes (index, HEAD, the branch) when they are newer than `journal`.
    static func removeMoveLocks(of repository: Repository, branch: String?, madeAfter journal: URL) {
        remove(WorkTreeMove.lockFiles(in: repository, branch: branch), madeAfter: journal)
    }

    /// Removes the locks an interrupted move of `repository` took after it wrote its journal; nothing when none was
    /// interrupted. The move itself is finished by `WorkTreeMove.recoverIfInterrupted`.
    static func removeInterruptedMoveLocks(of repository: Repository) throws {
        guard let journal = try WorkTreeMove.interruptedMove(in: repository) else { return }
        // Only a move git was writing can have left a git running that still holds its locks.
        remove(WorkTreeMove.lockFiles(in: repository, branch: journal.toBranch),
               madeAfter: URL(fileURLWithPath: WorkTreeMove.journalFile(in: repository)), orphanGrace: journal.writer == .git ? 10 : 0)
    }

    /// A lock newer than the journal of a git-written move may still be held by the git the killed run started (a
    /// `read-tree` outlives it, and one spawned just before the kill is named in no lock file): that git removes its
    /// own lock when it ends, so the lock is given up to `orphanGrace` seconds to go before it is taken for stale.
    private static func remove(_ locks: [String], madeAfter journal: URL, orphanGrace: TimeInterval = 0) {
        guard let journalDate = try? FileManager.default.attributesOfItem(atPath: journal.path)[.modificationDate] as? Date else { return }
        for lock in locks {
            guard let lockDate = try? FileManager.default.attributesOfItem(atPath: lock)[.modificationDate] as? Date,
                  lockDate >= journalDate else { continue }
            let deadline = Date().addingTimeInterval(orphanGrace)
            while orphanGrace > 0, FileManager.default.fileExists(atPath: lock), Date() < deadline { usleep(20_000) }
            try? FileManager.default.removeItem(atPath: lock)
        }
    }
}
