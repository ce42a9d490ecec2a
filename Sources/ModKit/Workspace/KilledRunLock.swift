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
        removeMoveLocks(of: repository, branch: journal.toBranch,
                        madeAfter: URL(fileURLWithPath: WorkTreeMove.journalFile(in: repository)))
    }

    private static func remove(_ locks: [String], madeAfter journal: URL) {
        guard let journalDate = try? FileManager.default.attributesOfItem(atPath: journal.path)[.modificationDate] as? Date else { return }
        for lock in locks {
            guard let lockDate = try? FileManager.default.attributesOfItem(atPath: lock)[.modificationDate] as? Date,
                  lockDate >= journalDate else { continue }
            try? FileManager.default.removeItem(atPath: lock)
        }
    }
}
