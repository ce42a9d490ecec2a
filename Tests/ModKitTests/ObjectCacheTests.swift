import Foundation
@testable import ModKit
import Testing

@Suite struct ObjectCacheTests {
    @Test func oneMirrorPerRepositoryWhateverTheSpellingOfItsURL() {
        let cache = ObjectCache(directory: "/cache")
        let spellings = ["https://ada:token@Example.com/Org/Repo.git", "https://example.com/Org/Repo/",
                         "HTTPS://EXAMPLE.COM/Org/Repo"]
        #expect(Set(spellings.map(cache.mirrorPath(for:))).count == 1)
        #expect(cache.mirrorPath(for: spellings[0]).hasPrefix("/cache/Repo-"))
        #expect(!cache.mirrorPath(for: spellings[0]).contains("token"))
        #expect(cache.mirrorPath(for: "https://example.com/Org/Repo") != cache.mirrorPath(for: "https://example.com/Other/Repo"))
    }

    @Test func directoryComesFromTheEnvironmentThenGitConfig() {
        let environment = ["MODKIT_CACHE": "/from/env", "HOME": "/home/ada"]
        #expect(ObjectCache.directory(environment: environment, config: "~/m") == "/from/env")
        #expect(ObjectCache.directory(environment: ["HOME": "/home/ada"], config: "~/.cache/modkit") == "/home/ada/.cache/modkit")
        #expect(ObjectCache.directory(environment: ["MODKIT_CACHE": ""], config: nil) == nil)
        #expect(ObjectCache.directory(environment: [:], config: nil) == nil)
    }

    /// Six threads update one mirror at once, then two workspaces clone through it at once: all succeed, the clones
    /// point at the real url, and they stay whole (fsck) after the cache is deleted.
    @Test func concurrentUsersOfOneMirrorAllSucceedAndClonesOutliveTheCache() throws {
        let sandbox = try TransferSandbox()
        let cache = ObjectCache(directory: sandbox.path("cache"))
        let newest = try sandbox.commit("more.txt", "more\n", push: true)
        let failures = ErrorLog()
        onThreads(6) { _ in
            do { try cache.update(url: sandbox.remoteURL) } catch { failures.record(error) }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let mirror = cache.mirrorPath(for: sandbox.remoteURL)
        #expect(try sandbox.git("-C", mirror, "rev-parse", "main") == newest)

        onThreads(2) { index in
            do {
                _ = try cache.clone(url: sandbox.remoteURL, to: sandbox.path("ws\(index)/Lib"), remote: "origin", options: TransferOptions())
            } catch { failures.record(error) }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        try FileManager.default.removeItem(atPath: sandbox.path("cache"))
        for index in 0..<2 {
            let clone = sandbox.path("ws\(index)/Lib")
            #expect(!FileManager.default.fileExists(atPath: clone + "/.git/objects/info/alternates"))
            #expect(try sandbox.git("-C", clone, "remote", "get-url", "origin") == sandbox.remoteURL)
            #expect(try sandbox.git("-C", clone, "rev-parse", "origin/main") == newest)
            #expect(try sandbox.git("-C", clone, "rev-parse", "v1^{commit}") == sandbox.git("-C", "work", "rev-parse", "main~1"))
            #expect(try sandbox.git("-C", clone, "fsck", "--no-progress", "--strict").isEmpty)
        }
    }

    @Test func aWarmCacheCloneReceivesNothingFromTheServer() throws {
        let sandbox = try TransferSandbox()
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        let url = daemon.url("remote.git")
        let cache = ObjectCache(directory: sandbox.path("cache"))
        try cache.update(url: url)
        let log = ProgressLog()
        _ = try cache.clone(url: url, to: sandbox.path("warm"), remote: "origin",
                            options: TransferOptions(progress: { log.record($0); return true }))
        // the mirror was up to date and so is the clone made from it: no pack from the server
        #expect(log.all.allSatisfy { $0.totalObjects == 0 }, "\(log.all)")
        #expect(try sandbox.git("-C", "warm", "rev-parse", "origin/main") == sandbox.git("-C", "work", "rev-parse", "main"))
        #expect(try sandbox.git("-C", "warm", "fsck", "--no-progress").isEmpty)
    }

    /// The clone makes one trip to the server, the mirror's fetch: what was pushed since the cache was filled reaches
    /// the clone through it, the clone's remote is the real url and a later fetch works without the cache.
    @Test func aCloneThroughAStaleMirrorGetsWhatWasPushedSince() throws {
        let sandbox = try TransferSandbox()
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        let url = daemon.url("remote.git")
        let cache = ObjectCache(directory: sandbox.path("cache"))
        try cache.update(url: url)
        let pushed = try sandbox.commit("later.txt", "later\n", push: true)
        _ = try cache.clone(url: url, to: sandbox.path("warm"), remote: "origin", options: TransferOptions())
        #expect(try sandbox.git("-C", "warm", "rev-parse", "origin/main") == pushed)
        #expect(try sandbox.git("-C", "warm", "config", "remote.origin.url") == url)
        try FileManager.default.removeItem(atPath: sandbox.path("cache"))
        let newer = try sandbox.commit("newer.txt", "newer\n", push: true)
        _ = try sandbox.git("-C", "warm", "fetch", "-q", "origin")
        #expect(try sandbox.git("-C", "warm", "rev-parse", "origin/main") == newer)
        #expect(try sandbox.git("-C", "warm", "fsck", "--no-progress", "--strict").isEmpty)
    }
}

/// Errors thrown on concurrent workers.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func record(_ error: Error) { lock.withLock { errors.append("\(error)") } }
    var all: [String] { lock.withLock { errors } }
}

/// Runs `body` on `count` threads released at the same moment, and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            start.wait()
            body(index)
            group.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}
