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

    @Test func directoryComesFromTheFlagThenTheEnvironmentThenTheManifest() {
        let environment = ["MODKIT_CACHE": "/from/env", "HOME": "/home/ada"]
        #expect(ObjectCache.directory(flag: "/flag", environment: environment, manifest: "~/m") == "/flag")
        #expect(ObjectCache.directory(flag: nil, environment: environment, manifest: "~/m") == "/from/env")
        #expect(ObjectCache.directory(flag: nil, environment: ["HOME": "/home/ada"], manifest: "~/.cache/modkit")
                == "/home/ada/.cache/modkit")
        #expect(ObjectCache.directory(flag: nil, environment: [:], manifest: nil) == nil)
    }

    @Test func concurrentUpdatesOfOneMirrorBothSucceedAndClonesBorrowItsObjects() throws {
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
        #expect(try sandbox.git("-C", mirror, "config", "gc.pruneExpire") == "never")

        // two workspaces clone at once, each updating the mirror first
        onThreads(2) { index in
            do { _ = try cache.clone(url: sandbox.remoteURL, to: sandbox.path("ws\(index)/Lib")) } catch { failures.record(error) }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        for index in 0..<2 {
            let clone = sandbox.path("ws\(index)/Lib")
            let alternates = try String(contentsOfFile: clone + "/.git/objects/info/alternates", encoding: .utf8)
            #expect(alternates.trimmingCharacters(in: .whitespacesAndNewlines) == mirror + "/objects")
            #expect(try sandbox.git("-C", clone, "rev-parse", "origin/main") == newest)
            #expect(try sandbox.git("-C", clone, "fsck", "--no-progress", "--strict").isEmpty)
            #expect(try sandbox.git("-C", clone, "count-objects", "-v").contains("count: 0"))
        }
    }

    @Test func aWarmCacheCloneReceivesNothingFromTheServer() throws {
        let sandbox = try TransferSandbox()
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        let url = daemon.url("remote.git")
        let cache = ObjectCache(directory: sandbox.path("cache"))
        try cache.update(url: url)
        var options = TransferOptions()
        options.reference = cache.mirrorPath(for: url)
        let warm = try GitCLIEngine().clone(url: url, to: sandbox.path("warm"), options: options)
        let cold = try GitCLIEngine().clone(url: url, to: sandbox.path("cold"), options: TransferOptions())
        #expect(cold.progress.totalObjects == 10)
        #expect(warm.progress.totalObjects == 0)
        #expect(try sandbox.git("-C", "warm", "fsck", "--no-progress").isEmpty)
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
