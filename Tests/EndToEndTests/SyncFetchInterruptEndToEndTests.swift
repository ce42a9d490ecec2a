import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Crashes and races around `modkit sync`: fetches killed mid-pack, syncs started together on a stale lock,
/// and the manifest repository's `.gitignore` in encodings modkit does not write itself.
@Suite struct SyncFetchInterruptEndToEndTests {
    @Test func killedFetchesLeaveNoTemporaryPackAfterTheNextSync() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Big")
        try sandbox.writeManifest([("Big", nil)])
        let kills = try KilledFetches(sandbox, module: "Big", megabytes: 12)
        let interrupted = try kills.killSyncs(rounds: 6, after: 150_000...1_200_000)
        // Where a kill lands depends on the machine's speed; the healing below is checked whatever the count.
        print("killedFetchesLeaveNoTemporaryPackAfterTheNextSync: \(interrupted) of 6 kills left fetch leftovers")
        let result = try kills.expectTheNextSyncHeals()
        #expect(!result.out.contains("kept"), "\(result.out)")
    }

    /// Over git:// a moved remote is listed and downloaded over modkit's own connection (`GitDaemonFetch`), its pack
    /// written by libgit2's indexer: killed at random moments, mid-pack included, the next sync finishes the update
    /// with nothing left over and every object whole.
    @Test func killedFetchesOverGitDaemonLeaveNothingTheNextSyncCannotFinish() throws {
        let sandbox = try Sandbox()
        // git daemon's helper checks that it serves by listing Core
        try sandbox.makeRemote("Core")
        let daemon = try GitDaemon(basePath: sandbox.url("remotes"), sandbox: sandbox)
        defer { daemon.stop() }
        try sandbox.writeManifest([("Core", nil)], urlBase: "git://127.0.0.1:\(daemon.port)")
        let kills = try KilledFetches(sandbox, module: "Core", megabytes: 8)
        let interrupted = try kills.killSyncs(rounds: 8, after: 50_000...900_000)
        print("killedFetchesOverGitDaemonLeaveNothingTheNextSyncCannotFinish: \(interrupted) of 8 kills left a pack being written")
        try kills.expectTheNextSyncHeals()
        // and the path under test is the one a moved remote takes
        try kills.pushBigCommit(99)
        let last = try sandbox.modkit("sync", "-v", in: "ws")
        #expect(last.status == 0, "\(last.err)")
        #expect((last.out + last.err).contains("fetched over modkit's own connection to the git daemon"), "\(last.out)\(last.err)")
        #expect(try sandbox.head(of: "Core") == sandbox.remoteHead("Core"))
    }

    /// A fetch from a remote on this machine copies the objects in-process, then moves the refs: killed at any moment,
    /// it leaves every ref's history whole (`git fsck --strict`), and the next sync finishes the update.
    @Test func killedInProcessFetchesLeaveEveryRefWhole() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.writeManifest([("Core", nil)])
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        let clone = "ws/Libs/Core"
        // 40 files of 300 KB in 8 directories and a tag: about 50 objects (copied in-process, below fetch.unpackLimit),
        // 12 MB to compress, so that kills land while objects are written as well as before and after.
        func pushUpdate(_ round: Int) throws {
            _ = try sandbox.run("/bin/sh", ["-c", "for i in $(seq 40); do mkdir -p Assets/D$((i % 8)); head -c 300000 /dev/urandom > Assets/D$((i % 8))/A$i.bin; done"],
                                in: sandbox.url("src/Core"))
            try sandbox.pushNewCommit("Core", file: "CHANGES.md", text: "round \(round)\n")
            try sandbox.git("tag", "-a", "r\(round)", "-m", "round \(round)", in: "src/Core")
            try sandbox.git("push", "-q", sandbox.url("remotes/Core.git").path, "r\(round)", in: "src/Core")
        }
        var outcomes: [String: Int] = [:]
        var pushed = 0
        for round in 1...12 {
            // A new update only once the last one is in: two of them would be more than fetch.unpackLimit objects.
            if try sandbox.git("rev-parse", "refs/remotes/origin/main", in: clone) == sandbox.remoteHead("Core") {
                pushed += 1
                try pushUpdate(pushed)
            }
            let trace = sandbox.url("trace-\(round)").path
            let process = try sandbox.spawnModkit(["sync"], in: "ws", extra: ["GIT_TRACE": trace])
            usleep(UInt32.random(in: 0...900_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            #expect(!text.contains("fetch"), "round \(round): the update went to git, not the in-process fetch")
            let moved = try sandbox.git("rev-parse", "refs/remotes/origin/main", in: clone) == sandbox.remoteHead("Core")
            outcomes[moved ? "refs moved" : "refs not moved yet", default: 0] += 1
            #expect(try sandbox.git("fsck", "--no-progress", "--strict", "--no-dangling", in: clone).isEmpty, "round \(round)")
            if round % 3 == 0 {
                let result = try sandbox.modkit("sync", in: "ws")
                #expect(result.status == 0, "\(result.err)")
                #expect(try sandbox.head(of: "Core") == sandbox.remoteHead("Core"))
            }
        }
        print("killedInProcessFetchesLeaveEveryRefWhole: \(outcomes)")
        let result = try sandbox.modkit("sync", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(try sandbox.head(of: "Core") == sandbox.remoteHead("Core"))
        #expect(try sandbox.git("rev-parse", "r\(pushed)", in: clone) == sandbox.git("rev-parse", "r\(pushed)", in: "src/Core"))
        #expect(try sandbox.git("status", "--porcelain", in: clone).isEmpty)
        #expect(try sandbox.git("fsck", "--no-progress", "--strict", in: clone).isEmpty)
    }

    @Test func syncsStartedTogetherOnAStaleLockLetExactlyOneProceed() throws {
        let sandbox = try Sandbox()
        // The stalled module keeps the winner busy (and holding the lock) for the timeout.
        let server = try coreAndStalledWorkspace(sandbox)
        defer { server.stop() }
        try FileManager.default.createDirectory(at: sandbox.url("ws/.modkit"), withIntermediateDirectories: true)
        let dead = try Spawn.start("/bin/true", [], environment: sandbox.environment, directory: sandbox.root.path,
                                   stdout: "/dev/null", stderr: "/dev/null")
        _ = Spawn.wait(dead)
        var environment = sandbox.environment
        environment["MODKIT_TIMEOUT"] = "3"
        for round in 1...3 {
            try sandbox.write("pid: \(dead)\ncommand: modkit sync\nsince: 2026-11-30T12:00:00Z\nhost: \(ProcessInfo.processInfo.hostName)\n",
                              to: "ws/.modkit/lock")
            let runs = try (0..<8).map { index -> (pid: pid_t, err: String) in
                let err = sandbox.url("lock-\(round)-\(index).err").path
                let pid = try Spawn.start(Sandbox.modkitBinary.path, ["sync"], environment: environment,
                                          directory: sandbox.url("ws").path, stdout: "/dev/null", stderr: err)
                return (pid, err)
            }
            let finished = runs.map { run in (pid: run.pid, status: Spawn.wait(run.pid),
                                              err: (try? String(contentsOfFile: run.err, encoding: .utf8)) ?? "") }
            let winners = finished.filter { $0.err.contains("took over a stale workspace lock left by pid \(dead)") }
            #expect(winners.count == 1, "round \(round): \(finished.map(\.err))")
            guard let winner = winners.first else { continue }
            for loser in finished where loser.pid != winner.pid {
                #expect(loser.status == 1)
                #expect(loser.err.contains("another modkit command holds the workspace lock: pid \(winner.pid) ('modkit sync')"),
                        "round \(round): \(loser.err)")
            }
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/lock").path))
        }
    }

    /// A SIGKILLed sync leaves its `git fetch` running until that git's next write. The lock file names it, and the
    /// next sync waits for it to end instead of taking the lock over and racing it for the refs.
    @Test func theNextSyncWaitsForTheGitAKilledSyncLeftRunning() throws {
        let sandbox = try Sandbox()
        let server = try coreAndStalledWorkspace(sandbox)
        defer { server.stop() }
        var environment = sandbox.environment
        environment["MODKIT_TIMEOUT"] = "0"  // the first run's git waits for the silent server for ever
        let lockFile = sandbox.url("ws/.modkit/lock").path
        func children() -> [pid_t] {
            let text = (try? String(contentsOfFile: lockFile, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { $0.hasPrefix("child: ") ? pid_t($0.dropFirst(7)) : nil }
        }
        let first = try Spawn.start(Sandbox.modkitBinary.path, ["sync", "-j", "1"], environment: environment,
                                    directory: sandbox.url("ws").path, stdout: "/dev/null", stderr: sandbox.url("first.err").path)
        // Core is cloned first; then the only child left is the git that waits on the silent server.
        var orphan: pid_t = 0
        for _ in 0..<3000 {
            if FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Core/Core.podspec").path), children().count == 1 {
                orphan = children()[0]
                break
            }
            usleep(10_000)
        }
        #expect(orphan > 0, "the lock file never named the git of the stalled fetch: \(children())")
        kill(first, SIGKILL)
        _ = Spawn.wait(first)
        #expect(kill(orphan, 0) == 0, "the killed sync's git ended with it; nothing to wait for")
        let cmdline = (try? String(contentsOfFile: "/proc/\(orphan)/cmdline", encoding: .utf8)) ?? "git"
        #expect(cmdline.contains("git"), "\(cmdline)")

        environment["MODKIT_TIMEOUT"] = "2"
        let err = sandbox.url("second.err").path
        let second = try Spawn.start(Sandbox.modkitBinary.path, ["sync"], environment: environment,
                                     directory: sandbox.url("ws").path, stdout: "/dev/null", stderr: err)
        var said = ""
        for _ in 0..<1000 where !said.contains("waiting for pid") {
            usleep(10_000)
            said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        }
        #expect(said.contains("waiting for pid \(orphan), left running by the interrupted 'modkit sync' (pid \(first)), to end"), "\(said)")
        usleep(1_500_000)
        #expect(kill(second, 0) == 0, "the second sync did not wait: \(said)")
        #expect(!said.contains("took over"), "\(said)")

        // The orphan ends (here: killed, as its next write would end it); the second sync takes the lock over and runs.
        kill(orphan, SIGKILL)
        let status = Spawn.wait(second)
        said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(status == 1, "\(said)")  // the silent server still times out, after 2 s
        #expect(said.contains("took over a stale workspace lock left by pid \(first) ('modkit sync')"), "\(said)")
        #expect(said.contains("Stalled") && said.contains("timed out after 2 s"), "\(said)")
        #expect(!said.contains("cannot lock ref"), "\(said)")
        #expect(try sandbox.head(of: "Core") == sandbox.remoteHead("Core"))
        #expect(!FileManager.default.fileExists(atPath: lockFile))
    }

    /// A workspace of `Core` (a bare remote over file://) and `Stalled`, served by a server that accepts and never
    /// answers; returns that server, for the caller to stop.
    private func coreAndStalledWorkspace(_ sandbox: Sandbox) throws -> SilentServer {
        try sandbox.makeRemote("Core")
        let server = try SilentServer(sandbox: sandbox)
        try sandbox.writeRemoteManifest([
            ("Core", "file://\(sandbox.url("remotes/Core.git").path)"),
            ("Stalled", "git://127.0.0.1:\(server.port)/Stalled.git"),
        ])
        return server
    }

    @Test func theManifestRepositorysGitignoreKeepsEveryByte() throws {
        let variants: [(name: String, bytes: [UInt8], newline: [UInt8])] = [
            ("latin1-no-final-newline", Array("build/\n# caf".utf8) + [0xE9] + Array("\n*.o".utf8), [10]),
            ("crlf", Array("build/\r\n# caf".utf8) + [0xE9] + Array("\r\n*.o\r\n".utf8), [13, 10]),
            ("crlf-no-final-newline", Array("build/\r\n# na".utf8) + [0xEF, 0xF6] + Array("ve\r\n*.o".utf8), [13, 10]),
        ]
        for variant in variants {
            let sandbox = try Sandbox()
            try sandbox.makeRemote("Core")
            try sandbox.writeManifest([("Core", nil)])
            try sandbox.git("init", "-q", in: "ws")
            let file = sandbox.url("ws/.gitignore")
            try Data(variant.bytes).write(to: file)

            let result = try sandbox.modkit("sync", in: "ws")
            #expect(result.status == 0, "\(variant.name): \(result.err)")
            let separator = variant.bytes.last == 10 ? [] : variant.newline
            let expected = variant.bytes + separator + Array("# module repositories (modkit)".utf8) + variant.newline
                + Array("/Libs/Core/".utf8) + variant.newline
            #expect(Array(try Data(contentsOf: file)) == expected, "\(variant.name)")
            #expect(try sandbox.git("check-ignore", "Libs/Core/Core.podspec", in: "ws") == "Libs/Core/Core.podspec", "\(variant.name)")

            // Already listed: a second sync leaves the file exactly as it is.
            #expect(try sandbox.modkit("sync", in: "ws").status == 0)
            #expect(Array(try Data(contentsOf: file)) == expected, "\(variant.name)")
        }
    }
}

/// One module whose remote gets big commits while syncs of it are killed at random moments, and the checks that the
/// next sync heals what they left.
private struct KilledFetches {
    let sandbox: Sandbox
    let module: String
    let megabytes: Int

    /// Syncs the module once, then pushes the first big commit.
    init(_ sandbox: Sandbox, module: String, megabytes: Int) throws {
        self.sandbox = sandbox
        self.module = module
        self.megabytes = megabytes
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        try pushBigCommit(0)
    }

    /// libgit2's pack being written, and reference locks.
    var leftovers: [String] {
        let pack = sandbox.url("ws/Libs/\(module)/.git/objects/pack").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: pack)) ?? []).filter { $0.hasPrefix("pack_git2_") || $0.hasSuffix(".lock") }
    }

    func pushBigCommit(_ round: Int) throws {
        _ = try sandbox.run("/bin/sh", ["-c", "head -c \(megabytes * 1_000_000) /dev/urandom > Big\(round).bin"], in: sandbox.url("src/\(module)"))
        try sandbox.pushNewCommit(module, file: "CHANGES.md", text: "round \(round)\n")
    }

    /// Starts `rounds` syncs, each killed after a random number of microseconds in `after` (a new big commit follows
    /// a sync that finished first); returns how many left a pack being written.
    func killSyncs(rounds: Int, after: ClosedRange<UInt32>) throws -> Int {
        var interrupted = 0
        for round in 1...rounds {
            let process = try sandbox.spawnModkit(["sync"], in: "ws")
            usleep(UInt32.random(in: after))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if !leftovers.isEmpty { interrupted += 1 }
            if try sandbox.head(of: module) == sandbox.remoteHead(module) { try pushBigCommit(round) }
        }
        return interrupted
    }

    /// The next sync: the module at its remote's commit, clean, every big file whole, no leftovers, `git fsck --strict`
    /// clean and no garbage.
    @discardableResult
    func expectTheNextSyncHeals() throws -> ProcessResult {
        let clone = "ws/Libs/\(module)"
        let result = try sandbox.modkit("sync", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(try sandbox.head(of: module) == sandbox.remoteHead(module))
        #expect(try sandbox.git("status", "--porcelain", in: clone).isEmpty)
        for file in try sandbox.git("ls-files", "Big*.bin", in: clone).split(separator: "\n") {
            #expect(try Data(contentsOf: sandbox.url("\(clone)/\(file)")) == Data(contentsOf: sandbox.url("src/\(module)/\(file)")), "\(file)")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try sandbox.git("fsck", "--no-progress", "--strict", in: clone).isEmpty)
        let counts = try sandbox.git("count-objects", "-v", in: clone)
        #expect(counts.contains("garbage: 0") && counts.contains("size-garbage: 0"), "\(counts)")
        return result
    }
}
