import Foundation
import GitKit

/// Which modules a sync starts first: the slowest, so that none runs alone at the end. Not yet cloned before
/// cloned (a clone is the biggest transfer); among the cloned, those whose remote moved most recently (a module that
/// changed in the last syncs is likely to change again, and its update costs a fetch on top of the reference
/// check); then the biggest packs (a module's own, or the object cache's mirror of it). The later, the smaller.
struct SyncOrder: Comparable {
    /// 1 for a module still to be cloned, 0 for a clone.
    let toClone: Int
    /// How recently a fetch moved one of the clone's remote-tracking references, in powers of two: 0 for an hour or
    /// more ago (or never), up to 12 for within a second. Coarse, so that modules moved by one sync tie.
    let recency: Int
    let packBytes: UInt64

    static func < (lhs: SyncOrder, rhs: SyncOrder) -> Bool {
        (lhs.toClone, lhs.recency, lhs.packBytes) < (rhs.toClone, rhs.recency, rhs.packBytes)
    }

    /// The order of the module in `directory` whose remote is `remote`; `mirror` is the object cache's copy of it.
    static func of(directory: String, remote: String, mirror: String?, now: Date = Date()) -> SyncOrder {
        let gitDir = directory + "/.git"
        guard FileManager.default.fileExists(atPath: gitDir) else {
            return SyncOrder(toClone: 1, recency: 0, packBytes: mirror.flatMap { PackSize.bytes(gitDir: $0) } ?? 0)
        }
        let moved = lastMove(gitDir: gitDir, remote: remote)
        return SyncOrder(toClone: 0, recency: moved.map { recency(age: now.timeIntervalSince($0)) } ?? 0,
                         packBytes: PackSize.bytes(gitDir: gitDir) ?? 0)
    }

    /// 12 for an age under a second, one less for each doubling, 0 from about an hour (2^12 s).
    static func recency(age: TimeInterval) -> Int {
        guard age >= 1 else { return 12 }
        return max(0, 12 - Int(log2(age)) - 1)
    }

    /// When a reference of `refs/remotes/<remote>/` last moved: the newest of their reflogs (git and libgit2 log every
    /// update of a remote-tracking reference in a work tree's repository), else of their loose files. nil when neither
    /// exists (packed by `git gc`, or never fetched).
    static func lastMove(gitDir: String, remote: String) -> Date? {
        for folder in ["logs/refs/remotes/", "refs/remotes/"] {
            if let newest = newestFile(under: gitDir + "/" + folder + remote) { return newest }
        }
        return nil
    }

    private static func newestFile(under folder: String) -> Date? {
        guard let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: folder),
                                                          includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey]) else { return nil }
        var newest: Date?
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey]),
                  values.isRegularFile == true, let date = values.contentModificationDate else { continue }
            newest = max(newest ?? date, date)
        }
        return newest
    }
}
