import Foundation
@testable import ModKit
import Testing

/// Which modules a sync starts first: clones to make, then the clones whose remote moved most recently, then the
/// biggest packs.
struct SyncOrderTests {
    /// A repository in `root/name` with one commit and `refs/remotes/origin/main` written through git (with its reflog).
    func clone(_ name: String, in root: URL) throws -> String {
        let path = root.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        _ = try runGit(["init", "-q", "-b", "main"], in: path)
        try "\(name)\n".write(toFile: path + "/README.md", atomically: true, encoding: .utf8)
        _ = try runGit(["add", "README.md"], in: path)
        _ = try runGit(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "first"], in: path)
        _ = try runGit(["update-ref", "-m", "fetch: fast-forward", "refs/remotes/origin/main", "HEAD"], in: path)
        return path
    }

    func age(_ path: String, by seconds: TimeInterval) throws {
        for file in ["/.git/logs/refs/remotes/origin/main", "/.git/refs/remotes/origin/main"] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: path + file)
        }
    }

    @Test func aRemoteThatMovedInTheLastSyncGoesBeforeOneThatMovedHoursAgo() throws {
        let root = try makeTemporaryDirectory()
        let recent = try clone("Recent", in: root)
        let old = try clone("Old", in: root)
        try age(recent, by: 20)
        try age(old, by: 3 * 3600)
        let recentOrder = SyncOrder.of(directory: recent, remote: "origin", mirror: nil)
        let oldOrder = SyncOrder.of(directory: old, remote: "origin", mirror: nil)
        #expect(recentOrder.recency == SyncOrder.recency(age: 20))
        #expect(oldOrder.recency == 0)
        #expect(recentOrder > oldOrder)
        // A module still to clone starts before both.
        let missing = SyncOrder.of(directory: root.appendingPathComponent("Missing").path, remote: "origin", mirror: nil)
        #expect(missing.toClone == 1 && missing > recentOrder)
    }

    /// A remote that a fetch moved in the last 34 minutes is listed over the connection its download would use
    /// (`FetchOptions.likelyMoved`); one a clone wrote, one moved hours ago, or one never moved is not.
    @Test func aRemoteAFetchMovedWithinTheHourIsLikelyToMoveAgain() throws {
        let root = try makeTemporaryDirectory()
        let fetched = try clone("Fetched", in: root)
        #expect(SyncOrder.of(directory: fetched, remote: "origin", mirror: nil).likelyMoved)
        try age(fetched, by: 2 * 3600)
        #expect(!SyncOrder.of(directory: fetched, remote: "origin", mirror: nil).likelyMoved)

        let cloned = try clone("Cloned", in: root)
        _ = try runGit(["update-ref", "-m", "clone: from git://example.com/Cloned.git", "refs/remotes/origin/develop", "HEAD"], in: cloned)
        let order = SyncOrder.of(directory: cloned, remote: "origin", mirror: nil)
        #expect(order.recency > 0 && !order.likelyMoved, "the newest entry is the clone's")
        #expect(!SyncOrder.of(directory: cloned, remote: "upstream", mirror: nil).likelyMoved, "no reflog at all")

        // Without reflogs a loose reference says when, but not who moved it.
        try FileManager.default.removeItem(atPath: fetched + "/.git/logs/refs/remotes")
        try "\(try runGit(["rev-parse", "HEAD"], in: fetched))\n".write(toFile: fetched + "/.git/refs/remotes/origin/main", atomically: true, encoding: .utf8)
        let loose = SyncOrder.of(directory: fetched, remote: "origin", mirror: nil)
        #expect(loose.recency > 0 && !loose.likelyMoved)
    }

    @Test func withoutReflogsTheLooseReferenceSaysWhenAndPackedOnesSayNothing() throws {
        let root = try makeTemporaryDirectory()
        let path = try clone("Net", in: root)
        try FileManager.default.removeItem(atPath: path + "/.git/logs/refs/remotes")
        #expect(SyncOrder.of(directory: path, remote: "origin", mirror: nil).recency > 0)
        _ = try runGit(["pack-refs", "--all"], in: path)
        #expect(SyncOrder.of(directory: path, remote: "origin", mirror: nil).recency == 0)
    }

    @Test func modulesMovedByOneSyncTieAndTheBiggerPackGoesFirst() {
        #expect(SyncOrder.recency(age: 0.2) == 12)
        #expect(SyncOrder.recency(age: 10) == SyncOrder.recency(age: 12))
        #expect(SyncOrder.recency(age: 10) > SyncOrder.recency(age: 100))
        #expect(SyncOrder.recency(age: 5000) == 0)
        let small = SyncOrder(toClone: 0, recency: 8, packBytes: 10, likelyMoved: false)
        let big = SyncOrder(toClone: 0, recency: 8, packBytes: 10_000, likelyMoved: false)
        let bigButOld = SyncOrder(toClone: 0, recency: 2, packBytes: 10_000_000, likelyMoved: false)
        #expect(big > small && small > bigButOld)
    }
}
