import Foundation
import Testing

/// `git config modkit.cache DIR` (or `MODKIT_CACHE`): new clones are made from one mirror per url in the cache.
@Suite(.serialized) struct SyncCacheEndToEndTests {
    /// Two workspaces sync the same three remotes at the same moment through one cold cache: both succeed, every
    /// clone is whole and points at the real url, a third workspace clones from the warm cache, and every
    /// clone stays whole after the cache is deleted.
    @Test func concurrentSyncsShareOneCacheAndClonesOutliveIt() throws {
        let sandbox = try Sandbox()
        let names = ["Core", "Network", "UI"]
        for name in names { try sandbox.makeRemote(name) }
        let daemon = try GitDaemon(basePath: sandbox.url("remotes"), sandbox: sandbox)
        defer { daemon.stop() }
        let base = "git://127.0.0.1:\(daemon.port)"
        try sandbox.git("config", "--global", "modkit.cache", sandbox.url("cache").path)
        try sandbox.writeRemoteManifest(names.map { ($0, "\(base)/\($0).git") })
        for workspace in ["ws1", "ws2", "ws3"] { try sandbox.write(try sandbox.read("ws/modkit.yml"), to: "\(workspace)/modkit.yml") }

        let first = try sandbox.spawnModkit(["sync"], in: "ws1")
        let second = try sandbox.spawnModkit(["sync"], in: "ws2")
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        let mirrors = try FileManager.default.contentsOfDirectory(atPath: sandbox.url("cache").path).filter { $0.hasSuffix(".git") }
        #expect(mirrors.count == 3, "\(mirrors)")

        let pushed = try sandbox.git("rev-parse", "HEAD", in: "src/Core")
        let warm = try sandbox.modkit("sync", "--json", in: "ws3")
        #expect(warm.status == 0, "\(warm.err)")
        try FileManager.default.removeItem(at: sandbox.url("cache"))
        for workspace in ["ws1", "ws2", "ws3"] {
            for name in names {
                let clone = "\(workspace)/Libs/\(name)"
                #expect(try sandbox.git("rev-parse", "HEAD", in: clone) == sandbox.git("--git-dir", sandbox.url("remotes/\(name).git").path, "rev-parse", "main"))
                #expect(try sandbox.git("remote", "get-url", "origin", in: clone) == "\(base)/\(name).git")
                #expect(!FileManager.default.fileExists(atPath: sandbox.url("\(clone)/.git/objects/info/alternates").path))
                #expect(try sandbox.git("fsck", "--no-progress", in: clone).isEmpty)
                #expect(try sandbox.git("status", "--porcelain", in: clone).isEmpty)
            }
        }
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws3/Libs/Core") == pushed)

        // Without the cache the next sync fetches straight from the server.
        let commit = try sandbox.spawnPushNewCommit("Core")
        let update = try sandbox.modkit("sync", "Core", in: "ws3")
        #expect(update.status == 0, "\(update.err)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws3/Libs/Core") == commit)
    }
}
