import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `modkit sync` against real bare remotes: clones, no-op, fast-forward, tags and commits, local work.
@Suite struct SyncEndToEndTests {
    @Test func fiftyRepositoriesCloneNoOpAndFastForward() throws {
        let sandbox = try Sandbox()
        let names = Sandbox.moduleNames(50)
        for name in names { try sandbox.makeRemote(name) }
        // Mod49 follows a tag, Mod50 a commit id: both must end detached exactly there.
        try sandbox.git("tag", "-a", "v1.0.0", "-m", "v1.0.0", in: "src/Mod49")
        try sandbox.git("push", "-q", sandbox.url("remotes/Mod49.git").path, "v1.0.0", in: "src/Mod49")
        let pinnedCommit = try sandbox.remoteHead("Mod50")
        let revisions: [String: String] = ["Mod49": "v1.0.0", "Mod50": pinnedCommit]
        try sandbox.writeManifest(names.map { ($0, revisions[$0]) })

        let first = try sandbox.modkit("sync", "--json", in: "ws")
        #expect(first.status == 0, "\(first.err)")
        let cloned = try sandbox.syncJSON(first)
        #expect(cloned.summary["cloned"] == 50)
        for name in names.prefix(48) {
            #expect(try sandbox.head(of: name) == sandbox.remoteHead(name))
            #expect(try sandbox.git("rev-parse", "--abbrev-ref", "HEAD", in: "ws/Libs/\(name)") == "main")
            #expect(try sandbox.git("rev-parse", "--abbrev-ref", "@{upstream}", in: "ws/Libs/\(name)") == "origin/main")
        }
        #expect(try sandbox.git("rev-parse", "--abbrev-ref", "HEAD", in: "ws/Libs/Mod49") == "HEAD")
        #expect(try sandbox.head(of: "Mod49") == sandbox.remoteHead("Mod49", "v1.0.0"))
        #expect(try sandbox.git("rev-parse", "--abbrev-ref", "HEAD", in: "ws/Libs/Mod50") == "HEAD")
        #expect(try sandbox.head(of: "Mod50") == pinnedCommit)
        #expect(try sandbox.strayEntries(expected: names).isEmpty)

        let second = try sandbox.modkit("sync", in: "ws")
        #expect(second.status == 0, "\(second.err)")
        #expect(second.out.contains("50 modules: 0 cloned, 0 updated, 50 up to date"), "\(second.out)")

        var expected: [String: String] = [:]
        for name in names { expected[name] = try sandbox.pushNewCommit(name) }
        let third = try sandbox.modkit("sync", "--json", in: "ws")
        #expect(third.status == 0, "\(third.err)")
        let updated = try sandbox.syncJSON(third)
        #expect(updated.summary["updated"] == 48)
        #expect(updated.summary["upToDate"] == 2)
        for name in names.prefix(48) {
            #expect(try sandbox.head(of: name) == expected[name])
        }
        #expect(try sandbox.head(of: "Mod49") == sandbox.remoteHead("Mod49", "v1.0.0"))
        #expect(try sandbox.head(of: "Mod50") == pinnedCommit)
    }

    @Test func localWorkSurvivesByteForByte() throws {
        let sandbox = try Sandbox()
        let names = ["Edited", "Diverged", "Detached", "Clean"]
        for name in names { try sandbox.makeRemote(name) }
        try sandbox.writeManifest(names.map { ($0, nil) })
        let first = try sandbox.modkit("sync", in: "ws")
        #expect(first.status == 0, "\(first.err)")

        // An uncommitted edit.
        let editedFile = "ws/Libs/Edited/Sources/Edited/Edited.swift"
        try sandbox.write("public enum Edited { /* my unsaved work */ }\n", to: editedFile)
        let editedBytes = try Data(contentsOf: sandbox.url(editedFile))
        // A local commit diverging from upstream.
        try sandbox.write("mine\n", to: "ws/Libs/Diverged/LOCAL.md")
        try sandbox.git("add", "-A", in: "ws/Libs/Diverged")
        try sandbox.git("commit", "-qm", "Local work", in: "ws/Libs/Diverged")
        let divergedLocal = try sandbox.head(of: "Diverged")
        // A commit made on a detached HEAD.
        try sandbox.git("checkout", "-q", "--detach", in: "ws/Libs/Detached")
        try sandbox.write("detached work\n", to: "ws/Libs/Detached/DETACHED.md")
        try sandbox.git("add", "-A", in: "ws/Libs/Detached")
        try sandbox.git("commit", "-qm", "Work on a detached HEAD", in: "ws/Libs/Detached")
        let detachedCommit = try sandbox.head(of: "Detached")
        for name in names { try sandbox.pushNewCommit(name) }

        let result = try sandbox.modkit("sync", in: "ws")
        #expect(result.status == 1)
        #expect(result.err.contains("Edited") && result.err.contains("kept: local changes"), "\(result.err)")
        #expect(result.err.contains("kept: local commits on main diverge from origin/main"), "\(result.err)")
        #expect(try Data(contentsOf: sandbox.url(editedFile)) == editedBytes)
        #expect(try sandbox.head(of: "Edited") != sandbox.remoteHead("Edited"))
        #expect(try sandbox.head(of: "Diverged") == divergedLocal)
        #expect(try sandbox.read("ws/Libs/Diverged/LOCAL.md") == "mine\n")

        // The detached commit was moved away from, but saved first and named in the output.
        #expect(try sandbox.head(of: "Detached") == sandbox.remoteHead("Detached"))
        let backups = try sandbox.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/modkit/backup/", in: "ws/Libs/Detached")
        let backup = try #require(backups.split(separator: "\n").first.map(String.init))
        #expect(backup.hasSuffix("/HEAD \(detachedCommit)"), "\(backups)")
        let backupRef = String(backup.split(separator: " ")[0])
        #expect(result.err.contains(backupRef), "\(result.err)")
        #expect(try sandbox.git("show", "\(backupRef):DETACHED.md", in: "ws/Libs/Detached") == "detached work")
        #expect(try sandbox.head(of: "Clean") == sandbox.remoteHead("Clean"))
    }

    @Test func oneDeletedRemoteDoesNotStopTheOthers() throws {
        let sandbox = try Sandbox()
        let names = Sandbox.moduleNames(50)
        for name in names { try sandbox.makeRemote(name) }
        try sandbox.writeManifest(names.map { ($0, nil) })
        try FileManager.default.removeItem(at: sandbox.url("remotes/Mod17.git"))

        let result = try sandbox.modkit("sync", "-j", "8", in: "ws")
        #expect(result.status == 1)
        #expect(result.out.contains("50 modules: 49 cloned, 0 updated, 0 up to date, 1 failed"), "\(result.out)")
        #expect(result.err.contains("modkit: error: 1 module failed:"), "\(result.err)")
        let failure = try #require(result.err.split(separator: "\n").first { $0.contains("Mod17") })
        #expect(failure.contains("failed:"))
        for name in names where name != "Mod17" {
            #expect(try sandbox.head(of: name) == sandbox.remoteHead(name))
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Mod17").path))
        #expect(try sandbox.strayEntries(expected: names).isEmpty)
    }

    @Test func killedSyncsLeaveNothingTheNextSyncTripsOver() throws {
        let sandbox = try Sandbox()
        let names = Sandbox.moduleNames(50)
        try sandbox.makeHeavyRemotes(names, lines: 2000)
        try sandbox.writeManifest(names.map { ($0, nil) })

        for round in 0..<4 {
            let process = try sandbox.spawnModkit(["sync", "-j", "4"], in: "ws")
            usleep(UInt32.random(in: 20_000...(150_000 + UInt32(round) * 100_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0)
        }

        let result = try sandbox.modkit("sync", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        for name in names {
            #expect(try sandbox.head(of: name) == sandbox.remoteHead(name))
            #expect(try sandbox.git("status", "--porcelain", in: "ws/Libs/\(name)").isEmpty)
            #expect(try sandbox.git("fsck", "--no-progress", in: "ws/Libs/\(name)").isEmpty)
        }
        #expect(try sandbox.strayEntries(expected: names).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/lock").path))
    }

    @Test func secondSyncNamesTheLockHolderAndStaleLocksAreTakenOver() throws {
        let sandbox = try Sandbox()
        let names = Sandbox.moduleNames(30)
        for name in names { try sandbox.makeRemote(name) }
        try sandbox.writeManifest(names.map { ($0, nil) })

        // A lock held by a live process (this test) blocks a sync and names the holder.
        try sandbox.write("pid: \(getpid())\ncommand: modkit sync\nsince: 2026-11-30T12:00:00Z\nhost: \(ProcessInfo.processInfo.hostName)\n", to: "ws/.modkit/lock")
        let blocked = try sandbox.modkit("sync", in: "ws")
        #expect(blocked.status == 1)
        #expect(blocked.err.contains("pid \(getpid()) ('modkit sync') since 2026-11-30T12:00:00Z"), "\(blocked.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Mod01").path))

        // Two real syncs at once: the second one sees the first one's lock.
        try FileManager.default.removeItem(at: sandbox.url("ws/.modkit/lock"))
        let first = try sandbox.spawnModkit(["sync", "-j", "1"], in: "ws")
        let lockFile = sandbox.url("ws/.modkit/lock").path
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: lockFile) { usleep(2_000) }
        let second = try sandbox.modkit("sync", in: "ws")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(second.status == 1)
        #expect(second.err.contains("pid \(first.processIdentifier) ('modkit sync')"), "\(second.err)")

        // A lock left by a dead process is taken over.
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        try sandbox.write("pid: \(dead.processIdentifier)\ncommand: modkit sync\nsince: 2026-11-30T12:00:00Z\nhost: \(ProcessInfo.processInfo.hostName)\n", to: "ws/.modkit/lock")
        let after = try sandbox.modkit("sync", in: "ws")
        #expect(after.status == 0, "\(after.err)")
        #expect(after.err.contains("took over a stale workspace lock left by pid \(dead.processIdentifier)"))
    }

    @Test func syncOverGitDaemonOnLoopback() throws {
        let sandbox = try Sandbox()
        let names = ["Core", "Network", "UI"]
        for name in names { try sandbox.makeRemote(name) }
        let daemon = try GitDaemon(basePath: sandbox.url("remotes"), sandbox: sandbox)
        defer { daemon.stop() }
        try sandbox.writeManifest(names.map { ($0, nil) }, urlBase: "git://127.0.0.1:\(daemon.port)")

        let result = try sandbox.modkit("sync", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        for name in names {
            #expect(try sandbox.head(of: name) == sandbox.remoteHead(name))
            #expect(try sandbox.git("remote", "get-url", "origin", in: "ws/Libs/\(name)") == "git://127.0.0.1:\(daemon.port)/\(name).git")
        }
        try sandbox.pushNewCommit("Network")
        let update = try sandbox.modkit("sync", in: "ws")
        #expect(update.status == 0, "\(update.err)")
        #expect(try sandbox.head(of: "Network") == sandbox.remoteHead("Network"))
    }
}

/// A `git daemon` serving a directory on 127.0.0.1 at a free port, for the git:// transport.
/// The `git-daemon` program is run directly (not through the `git` wrapper) and stopped with SIGKILL:
/// children of Foundation's Process may have SIGTERM blocked, and killing the wrapper would orphan it.
final class GitDaemon {
    let port: Int
    private let process: Process

    init(basePath: URL, sandbox: Sandbox) throws {
        var lastError = ""
        let execPath = try sandbox.git("--exec-path")
        for _ in 0..<10 {
            let port = Int.random(in: 20_000...60_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: execPath).appendingPathComponent("git-daemon")
            process.arguments = ["--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port=\(port)",
                                 "--base-path=\(basePath.path)", basePath.path]
            process.environment = sandbox.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<100 {
                usleep(50_000)
                guard process.isRunning else { break }
                let probe = try sandbox.run("/usr/bin/env", ["git", "ls-remote", "git://127.0.0.1:\(port)/Core.git"], in: sandbox.root)
                if probe.status == 0 {
                    self.port = port
                    self.process = process
                    return
                }
                lastError = probe.err
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw SandboxError("git daemon did not start on 127.0.0.1: \(lastError)")
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
