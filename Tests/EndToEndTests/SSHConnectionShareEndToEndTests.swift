import Foundation
import Testing

/// A sync of more modules on one ssh server than it connects to at once shares a few connections among them
/// (`SSHConnectionShare`), against a real `sshd` on 127.0.0.1 whose log counts the connections it accepted.
@Suite(.serialized, .enabled(if: RemoteTools.available, "needs openssh-server, openssh-client, openssl, python3 (.ci/run installs them)"))
struct SSHConnectionShareEndToEndTests {
    static let names = (1...10).map { String(format: "Mod%02d", $0) }

    private func fixture(names: [String] = names, settings: String = "") throws -> (Sandbox, SSHServer, SSHAgent) {
        let sandbox = try Sandbox()
        for name in names { try sandbox.makeRemote(name) }
        let key = try sandbox.makeSSHKey("keys/agent_key")
        let server = try SSHServer(sandbox: sandbox, authorizedKeys: [key], settings: settings)
        let agent = try SSHAgent(sandbox: sandbox, keys: [key])
        let remotes = sandbox.url("remotes").path
        try sandbox.writeRemoteManifest(names.map { ($0, "ssh://\(SSHUser.name)@127.0.0.1:\(server.port)\(remotes)/\($0).git") })
        return (sandbox, server, agent)
    }

    /// A server that takes 2 channels per connection, where 8 are asked for: the channels it refuses are opened over
    /// connections of their own, the rest of the sync goes unshared, and every module arrives.
    @Test func aServerThatRefusesChannelsStillGetsEveryModule() throws {
        let names = (1...20).map { String(format: "Mod%02d", $0) }
        let (sandbox, server, agent) = try fixture(names: names, settings: "MaxSessions 2\nMaxStartups 100")
        defer { server.stop(); agent.stop() }
        let fresh = try sandbox.modkitRemote("sync", "--accept-new-host-keys", agent: agent)
        #expect(fresh.status == 0, "\(fresh.out)\n\(fresh.err)")
        #expect(fresh.out.contains("20 modules: 20 cloned"), "\(fresh.out)")
        for name in names { #expect(try sandbox.spawnHead(name) == sandbox.spawnRemoteHead(name), "\(name)") }
        // 3 shared connections at most 2 channels each, and the refused ones on their own: more than 3, at most 3 + 20.
        let accepted = server.acceptedConnections()
        #expect(accepted > 3 && accepted <= 23, "\(server.log())")

        let moved = try names.map { ($0, try sandbox.spawnPushNewCommit($0)) }
        let update = try sandbox.modkitRemote("sync", agent: agent)
        #expect(update.status == 0, "\(update.err)")
        for (name, commit) in moved { #expect(try sandbox.spawnHead(name) == commit, "\(name)") }
    }

    /// Syncs killed at random moments (SIGKILL): their shared connections end with them, and the next sync brings every
    /// module to its remote's commit, with `git fsck` clean.
    @Test func syncsKilledAtRandomMomentsLeaveNothingTheNextSyncCannotFinish() throws {
        let (sandbox, server, agent) = try fixture()
        defer { server.stop(); agent.stop() }
        let fresh = try sandbox.modkitRemote("sync", "--accept-new-host-keys", agent: agent)
        #expect(fresh.status == 0, "\(fresh.err)")
        // How long an update takes here, uninterrupted: the window the kills aim into.
        _ = try Self.names.prefix(3).map { try sandbox.spawnPushNewCommit($0) }
        let started = Date()
        #expect(try sandbox.modkitRemote("sync", agent: agent).status == 0)
        let window = max(0.2, Date().timeIntervalSince(started))
        var environment = sandbox.environment
        environment["SSH_AUTH_SOCK"] = agent.socket
        for _ in 0..<8 {
            for name in Self.names.shuffled().prefix(4) { _ = try sandbox.spawnPushNewCommit(name) }
            let pid = try Spawn.start(Sandbox.modkitBinary.path, ["sync"], environment: environment, directory: sandbox.url("ws").path,
                                      stdout: "/dev/null", stderr: "/dev/null")
            let deadline = Date().addingTimeInterval(Double.random(in: 0...window))
            while Date() < deadline, Spawn.isRunning(pid) { usleep(5_000) }
            Spawn.kill(pid)
        }
        // The shared connections of the killed syncs end with them, not after the minute ssh keeps an idle one.
        try server.waitForDisconnects(server.acceptedConnections(), timeout: 40)
        let final = try sandbox.modkitRemote("sync", agent: agent)
        #expect(final.status == 0, "\(final.out)\n\(final.err)")
        for name in Self.names {
            #expect(try sandbox.spawnHead(name) == sandbox.spawnRemoteHead(name), "\(name)")
            #expect(try sandbox.spawnGit("fsck", in: "ws/Libs/\(name)").isEmpty, "\(name)")
            #expect(try sandbox.spawnGit("status", "--porcelain", in: "ws/Libs/\(name)").isEmpty, "\(name)")
        }
    }

    /// An ssh that never answers (a script named ssh that sleeps): each shared connection is given up on after the
    /// timeout, its keeper and the ssh it started are stopped (none is left running after the sync), and the modules
    /// fail as they do without sharing (nothing listens on port 1).
    @Test func aConnectionThatNeverOpensIsGivenUpOnAndLeavesNoProcess() throws {
        let sandbox = try Sandbox()
        let started = sandbox.url("ssh-started").path
        try sandbox.write("#!/bin/sh\necho $$ >> \(started)\nexec sleep 300\n", to: "bin/ssh")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.url("bin/ssh").path)
        try sandbox.writeRemoteManifest(Self.names.map { ($0, "ssh://git@127.0.0.1:1/srv/\($0).git") })
        let sync = try sandbox.runRemote(Sandbox.modkitBinary.path, ["sync"],
                                         extra: ["GIT_SSH_COMMAND": sandbox.url("bin/ssh").path, "MODKIT_TIMEOUT": "2"], in: "ws")
        #expect(sync.status == 1, "\(sync.out)\n\(sync.err)")
        #expect(sync.out.contains("10 failed"), "\(sync.out)")
        let pids = try String(contentsOfFile: started, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        #expect(pids.count == 2)  // 10 modules, 8 channels a connection
        func running(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            // a process that ended but was not reaped yet is not running
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true)
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, pids.contains(where: running) { usleep(20_000) }
        for pid in pids { #expect(!running(pid), "ssh \(pid) still runs after the sync") }
    }

    @Test func tenModulesOnOneServerShareTwoConnectionsThatEndWithTheSync() throws {
        let (sandbox, server, agent) = try fixture()
        defer { server.stop(); agent.stop() }

        // Unknown host key: no shared connection opens without a prompt; every module fails as it does without sharing.
        server.expectUnknownHostKeyRefusal(try sandbox.modkitRemote("sync", agent: agent))
        #expect(server.acceptedConnections() == 0)

        // 10 modules, 8 channels per connection: two connections, then nothing left open.
        let fresh = try sandbox.modkitRemote("sync", "-v", "--accept-new-host-keys", agent: agent)
        #expect(fresh.status == 0, "\(fresh.out)\n\(fresh.err)")
        for name in Self.names { #expect(try sandbox.spawnHead(name) == sandbox.spawnRemoteHead(name), "\(name)") }
        #expect(fresh.err.contains("Mod01: cloned by git"), "\(fresh.err)")
        #expect(server.acceptedConnections() == 2, "\(server.log())")
        try server.waitForDisconnects(2)
        let knownHosts = try sandbox.read("home/.ssh/known_hosts")
        #expect(knownHosts.split(separator: "\n").count == 1, "\(knownHosts)")
        #expect(try sandbox.spawnGit("fsck", in: "ws/Libs/Mod07").isEmpty)

        // Three remotes move: two connections again, and the moved modules arrive.
        let moved = try ["Mod02", "Mod05", "Mod09"].map { ($0, try sandbox.spawnPushNewCommit($0)) }
        let update = try sandbox.modkitRemote("sync", agent: agent)
        #expect(update.status == 0, "\(update.err)")
        #expect(update.out.contains("10 modules: 0 cloned, 3 updated, 7 up to date"), "\(update.out)")
        for (name, commit) in moved { #expect(try sandbox.spawnHead(name) == commit, "\(name)") }
        #expect(server.acceptedConnections() == 4, "\(server.log())")
        try server.waitForDisconnects(4)

        // fetch.engine: git shares them too.
        let viaGit = try sandbox.spawnPushNewCommit("Mod01")
        let gitEngine = try sandbox.runRemote(Sandbox.modkitBinary.path, ["sync"],
                                              extra: ["SSH_AUTH_SOCK": agent.socket, "MODKIT_FETCH_ENGINE": "git"], in: "ws")
        #expect(gitEngine.status == 0, "\(gitEngine.err)")
        #expect(try sandbox.spawnHead("Mod01") == viaGit)
        #expect(server.acceptedConnections() == 6, "\(server.log())")
        try server.waitForDisconnects(6)

        // The off switch: each module's own connection, through libgit2 as before.
        let pushed = try sandbox.spawnPushNewCommit("Mod10")
        let unshared = try sandbox.runRemote(Sandbox.modkitBinary.path, ["sync", "-v"],
                                             extra: ["SSH_AUTH_SOCK": agent.socket, "MODKIT_SSH_SHARE": "0"], in: "ws")
        #expect(unshared.status == 0, "\(unshared.err)")
        #expect(try sandbox.spawnHead("Mod10") == pushed)
        #expect(unshared.err.contains("Mod01: fetched by libgit2"), "\(unshared.err)")
        #expect(server.acceptedConnections() == 16, "\(server.log())")
    }
}

extension SSHServer {
    /// The connections sshd has authenticated so far (its lines end in "\r\n", one Character to Swift: count the words).
    func acceptedConnections() -> Int { log().components(separatedBy: "Accepted publickey for ").count - 1 }

    /// Waits until sshd has seen `count` connections end (a connection left open past the sync fails the test).
    func waitForDisconnects(_ count: Int, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log().components(separatedBy: "Disconnected from user ").count - 1 >= count { return }
            usleep(20_000)
        }
        throw SandboxError("sshd saw fewer than \(count) connections end within \(Int(timeout)) s:\n\(log())")
    }
}
