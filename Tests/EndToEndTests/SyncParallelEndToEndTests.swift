import Foundation
import Testing

/// `modkit sync` with its default parallelism (64 workers; up to 64 connections to a git daemon, 16 of them holding one
/// of its processes) against one `git daemon`, which serves 32 processes at once: every repository ends at its remote's commit with `git fsck` clean, and a fetch skipped
/// because the remote's references did not move still notices a new tag and a deleted branch.
@Suite(.serialized) struct SyncParallelEndToEndTests {
    @Test func fortyRepositoriesOverGitDaemonWithDefaultJobs() throws {
        let sandbox = try Sandbox()
        let names = ["Core"] + Sandbox.moduleNames(39)
        for name in names { try sandbox.makeRemote(name) }
        let daemon = try GitDaemon(basePath: sandbox.url("remotes"), sandbox: sandbox)
        defer { daemon.stop() }
        try sandbox.writeManifest(names.map { ($0, nil) }, urlBase: "git://127.0.0.1:\(daemon.port)")

        func expectAllAtRemoteAndClean(_ step: String) throws {
            for name in names {
                #expect(try sandbox.head(of: name) == sandbox.remoteHead(name), "\(step): \(name)")
                let fsck = try sandbox.run("/usr/bin/env", ["git", "fsck", "--no-progress"], in: sandbox.url("ws/Libs/\(name)"))
                #expect(fsck.status == 0, "\(step): git fsck in \(name): \(fsck.err)")
            }
        }

        let fresh = try sandbox.modkit("sync", in: "ws")
        #expect(fresh.status == 0, "\(fresh.err)")
        try expectAllAtRemoteAndClean("fresh sync")

        let noOp = try sandbox.modkit("sync", in: "ws")
        #expect(noOp.status == 0, "\(noOp.err)")
        #expect(noOp.out.contains("40 modules: 0 cloned, 0 updated, 40 up to date"), "\(noOp.out)")

        for name in names.filter({ $0.hasSuffix("0") || $0.hasSuffix("5") }) { try sandbox.pushNewCommit(name) }
        // Moves no branch: only the tag list and the branch list of these two remotes change.
        try sandbox.git("tag", "-a", "v9.0.0", "-m", "v9.0.0", in: "src/Core")
        try sandbox.git("push", "-q", sandbox.url("remotes/Core.git").path, "v9.0.0", in: "src/Core")
        let before = try sandbox.git("rev-parse", "main", in: "src/\(names[1])")
        try sandbox.git("push", "-q", sandbox.url("remotes/\(names[1]).git").path, "\(before):refs/heads/gone", in: "src/\(names[1])")
        let withBranch = try sandbox.modkit("sync", in: "ws")
        #expect(withBranch.status == 0, "\(withBranch.err)")
        #expect(try sandbox.git("rev-parse", "-q", "--verify", "origin/gone", in: "ws/Libs/\(names[1])") == before)
        try sandbox.git("push", "-q", sandbox.url("remotes/\(names[1]).git").path, ":refs/heads/gone", in: "src/\(names[1])")

        let update = try sandbox.modkit("sync", in: "ws")
        #expect(update.status == 0, "\(update.err)")
        try expectAllAtRemoteAndClean("update sync")
        #expect(try sandbox.git("rev-parse", "v9.0.0^{commit}", in: "ws/Libs/Core") == sandbox.remoteHead("Core"))
        let pruned = try sandbox.run("/usr/bin/env", ["git", "rev-parse", "-q", "--verify", "origin/gone"], in: sandbox.url("ws/Libs/\(names[1])"))
        #expect(pruned.status != 0, "origin/gone was deleted on the remote and must be pruned")
    }
}
