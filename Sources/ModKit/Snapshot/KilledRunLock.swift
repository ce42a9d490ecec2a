import Foundation
import GitKit

/// The `index.lock` a killed `modkit tag` or `modkit checkout` left: made after that run's journal, so no
/// earlier git process's, and no other modkit's while the workspace lock is held.
enum KilledRunLock {
    /// Removes `repository`'s index lock when it is newer than `journal`; leaves any other alone.
    static func removeIndexLock(of repository: Repository, madeAfter journal: URL) {
        let indexLock = repository.gitDir.hasSuffix("/") ? repository.gitDir + "index.lock" : repository.gitDir + "/index.lock"
        guard let journalDate = try? FileManager.default.attributesOfItem(atPath: journal.path)[.modificationDate] as? Date,
              let lockDate = try? FileManager.default.attributesOfItem(atPath: indexLock)[.modificationDate] as? Date,
              lockDate >= journalDate else { return }
        try? FileManager.default.removeItem(atPath: indexLock)
    }
}
