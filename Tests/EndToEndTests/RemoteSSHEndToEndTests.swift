import Foundation
import Testing

/// `modkit sync` and `modkit doctor` against a real `sshd` on 127.0.0.1: agent keys, ~/.ssh/config keys,
/// known_hosts refusal with the fingerprint, `--accept-new-host-keys`, a wrong key failing only its repository.
@Suite(.serialized, .enabled(if: RemoteTools.available, "needs openssh-server, openssh-client, openssl, python3 (.ci/run installs them)"))
struct RemoteSSHEndToEndTests {
    /// Three modules on one sshd: Core through the agent, Network through an IdentityFile of a ~/.ssh/config alias,
    /// UI through an alias whose only key the server does not know.
    private func fixture() throws -> (Sandbox, SSHServer, SSHAgent) {
        let sandbox = try Sandbox()
        for name in ["Core", "Network", "UI"] { try sandbox.makeRemote(name) }
        let agentKey = try sandbox.makeSSHKey("keys/agent_key")
        let fileKey = try sandbox.makeSSHKey("home/.ssh/network_key")
        try sandbox.makeSSHKey("home/.ssh/wrong_key")
        let server = try SSHServer(sandbox: sandbox, authorizedKeys: [agentKey, fileKey])
        let agent = try SSHAgent(sandbox: sandbox, keys: [agentKey])
        let user = SSHUser.name
        try sandbox.write("""
        Host netalias
            HostName 127.0.0.1
            Port \(server.port)
            User \(user)
            IdentityFile ~/.ssh/network_key
            IdentitiesOnly yes

        Host badalias
            HostName 127.0.0.1
            Port \(server.port)
            User \(user)
            IdentityFile ~/.ssh/wrong_key
            IdentitiesOnly yes
        """, to: "home/.ssh/config")
        let remotes = sandbox.url("remotes").path
        try sandbox.writeRemoteManifest([
            ("Core", "ssh://\(user)@127.0.0.1:\(server.port)\(remotes)/Core.git"),
            ("Network", "netalias:\(remotes)/Network.git"),
            ("UI", "ssh://badalias\(remotes)/UI.git"),
        ])
        return (sandbox, server, agent)
    }

    @Test func unknownHostKeyIsRefusedThenAcceptedAndWrongKeyFailsOnlyItsRepository() throws {
        let (sandbox, server, agent) = try fixture()
        defer { server.stop(); agent.stop() }

        server.expectUnknownHostKeyRefusal(try sandbox.modkitRemote("sync", agent: agent))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("home/.ssh/known_hosts").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Core").path))

        let started = Date()
        let accepted = try sandbox.modkitRemote("sync", "--accept-new-host-keys", agent: agent)
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(accepted.status == 1, "\(accepted.out)\n\(accepted.err)")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnRemoteHead("Core"))
        #expect(try sandbox.spawnHead("Network") == sandbox.spawnRemoteHead("Network"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/UI").path))
        #expect(accepted.err.contains("authentication failed for ssh://\(SSHUser.name)@127.0.0.1:\(server.port)"), "\(accepted.err)")
        #expect(accepted.err.contains("the server accepted none of: ~/.ssh/wrong_key"), "\(accepted.err)")
        let knownHosts = try sandbox.read("home/.ssh/known_hosts")
        #expect(knownHosts.contains("[127.0.0.1]:\(server.port) ssh-ed25519 "))
        #expect(knownHosts.split(separator: "\n").count == 1)

        // The key is known now: no flag needed; new commits arrive over ssh.
        let pushed = try sandbox.spawnPushNewCommit("Core")
        let again = try sandbox.modkitRemote("sync", "Core", "Network", agent: agent)
        #expect(again.status == 0, "\(again.err)")
        #expect(try sandbox.spawnHead("Core") == pushed)
    }

    @Test func withoutAgentOrKeyTheRepositoryFailsFastAndSaysWhy() throws {
        let (sandbox, server, agent) = try fixture()
        defer { server.stop(); agent.stop() }
        let result = try sandbox.modkitRemote("sync", "--accept-new-host-keys", "Core")
        #expect(result.status == 1)
        #expect(result.err.contains("authentication failed for"), "\(result.err)")
        #expect(result.err.contains("no ssh-agent (SSH_AUTH_SOCK is not set)"), "\(result.err)")
    }

    @Test func doctorReportsOkUnreachableAndAuthFailed() throws {
        let (sandbox, server, agent) = try fixture()
        defer { server.stop(); agent.stop() }
        let remotes = sandbox.url("remotes").path
        try sandbox.writeRemoteManifest([
            ("Core", "ssh://\(SSHUser.name)@127.0.0.1:\(server.port)\(remotes)/Core.git"),
            ("Closed", "ssh://\(SSHUser.name)@127.0.0.1:1\(remotes)/Core.git"),
            ("UI", "ssh://badalias\(remotes)/UI.git"),
        ])
        let unknown = try sandbox.modkitRemote("doctor", "Core", agent: agent)
        #expect(unknown.status == 1)
        #expect(line(of: "Core", in: unknown.out)?.contains("host key unknown") == true, "\(unknown.out)")

        let result = try sandbox.modkitRemote("doctor", "--accept-new-host-keys", agent: agent)
        #expect(result.status == 1, "\(result.out)\n\(result.err)")
        #expect(line(of: "Core", in: result.out)?.contains(" ok ") == true, "\(result.out)")
        #expect(line(of: "Closed", in: result.out)?.contains("unreachable") == true, "\(result.out)")
        #expect(line(of: "UI", in: result.out)?.contains("auth failed") == true, "\(result.out)")
        #expect(result.err.contains("hint: load your key into ssh-agent"), "\(result.err)")
        #expect(result.err.contains("hint: check the url, host and port"), "\(result.err)")
    }

    private func line(of module: String, in text: String) -> String? {
        text.split(separator: "\n").map(String.init).first { $0.hasPrefix(module + " ") }
    }
}

enum SSHUser {
    static let name = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "root"
}
