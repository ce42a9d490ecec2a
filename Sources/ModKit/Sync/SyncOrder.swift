import Foundation
import GitKit

/// Which modules a sync starts first: the slowest, so that none runs alone at the end. Not yet cloned before
/// cloned (a clone is the biggest transfer); among the cloned, those whose remote moved most recently (a module that
/// changed in the last syncs is likely to change again, and its update costs a fetch on top of the reference
/// check); then the biggest packs (a module's own, or the object cache's mirror of it). The later, the smaller.
struct SyncOrder: Comparable {
    /// 1 for a module still to be cloned, 0 for a clone.
    let toClone: Int
    /// How recently a fetch moved one of the clone's remote-tracking references, in powers of two: 0 for 34 minutes
    /// (2^11 s) or more ago (or never), up to 12 for within a second. Coarse, so that modules moved by one sync tie.
    let recency: Int
    let packBytes: UInt64
    /// Whether a fetch moved one of the clone's remote-tracking references in the last 34 minutes (`recency` above 0,
    /// and the newest reflog entry is a fetch's: a clone writes every reference it makes, and says nothing of which
    /// remotes move). Such a remote is likely to have moved again (`FetchOptions.likelyMoved`). Not part of the order.
    let likelyMoved: Bool

    static func < (lhs: SyncOrder, rhs: SyncOrder) -> Bool {
        (lhs.toClone, lhs.recency, lhs.packBytes) < (rhs.toClone, rhs.recency, rhs.packBytes)
    }

    /// The order of the module in `directory` whose remote is `remote`; `mirror` is the object cache's copy of it.
    /// A reference of `refs/remotes/<remote>/` last moved when the newest of their reflogs was written (git and libgit2
    /// log every update of a remote-tracking reference in a work tree's repository), else the newest of their loose
    /// files; never, when neither exists (packed by `git gc`, or never fetched).
    static func of(directory: String, remote: String, mirror: String?, now: Date = Date()) -> SyncOrder {
        let gitDir = directory + "/.git"
        guard FileManager.default.fileExists(atPath: gitDir) else {
            return SyncOrder(toClone: 1, recency: 0, packBytes: mirror.flatMap { PackSize.bytes(gitDir: $0) } ?? 0,
                             likelyMoved: false)
        }
        let reflog = FileStatus.newestFile(under: gitDir + "/logs/refs/remotes/" + remote)
        let moved = reflog?.date ?? FileStatus.newestFile(under: gitDir + "/refs/remotes/" + remote)?.date
        let recency = moved.map { Self.recency(age: now.timeIntervalSince($0)) } ?? 0
        return SyncOrder(toClone: 0, recency: recency, packBytes: PackSize.bytes(gitDir: gitDir) ?? 0,
                         likelyMoved: recency > 0 && reflog.map { newestEntryIsFetch(reflog: $0.path) } ?? false)
    }

    /// 12 for an age under a second, one less for each doubling, 0 from 34 minutes (2^11 s).
    static func recency(age: TimeInterval) -> Int {
        guard age >= 1 else { return 12 }
        return max(0, 12 - Int(log2(age)) - 1)
    }

    /// Whether the last entry of `reflog` ("<old> <new> <who> <when>\t<message>\n") is a fetch's.
    private static func newestEntryIsFetch(reflog: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: reflog) else { return false }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 4_096 ? size - 4_096 : 0)
        guard let tail = try? handle.readToEnd(), let line = tail.split(separator: UInt8(ascii: "\n")).last,
              let tab = line.firstIndex(of: UInt8(ascii: "\t")) else { return false }
        return line[(tab + 1)...].starts(with: "fetch".utf8)
    }
}
