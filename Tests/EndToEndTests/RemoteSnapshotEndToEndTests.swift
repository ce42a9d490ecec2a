import Foundation
import Testing

/// `modkit tag VERSION --push` and `modkit checkout SNAPSHOT` against real remotes: module repositories behind `sshd`
/// (agent key, known host) and behind smart HTTP with basic auth from a git credential helper. The manifest
/// repository has a local bare remote (`remotes/Product.git`).
@Suite(.serialized, .enabled(if: RemoteTools.available, "needs openssh-server, openssh-client, openssl, python3 (.ci/run installs them)"))
struct RemoteSnapshotEndToEndTests {
    static let modules = ["Core", "Network"]

    @Test func tagPushOverSSHReachesEveryRemoteOnceAndCheckoutReturnsToTheSnapshot() throws {
        let sandbox = try Sandbox()
        for name in Self.modules { try sandbox.makeRemote(name) }
        let key = try sandbox.makeSSHKey("keys/agent_key")
        let server = try SSHServer(sandbox: sandbox, authorizedKeys: [key])
        let agent = try SSHAgent(sandbox: sandbox, keys: [key])
        defer { server.stop(); agent.stop() }
        let remotes = sandbox.url("remotes").path
        try sandbox.writeRemoteManifest(Self.modules.map { ($0, "ssh://\(SSHUser.name)@127.0.0.1:\(server.port)\(remotes)/\($0).git") })
        try sandbox.spawnMakeManifestRepository { try sandbox.modkitRemote("sync", "--accept-new-host-keys", agent: agent) }
        #expect(try sandbox.read("home/.ssh/known_hosts").contains("[127.0.0.1]:\(server.port) ssh-ed25519 "))
        let recorded = Dictionary(uniqueKeysWithValues: try Self.modules.map { ($0, try sandbox.spawnHead($0)) })
        for name in Self.modules { #expect(try sandbox.spawnRemoteTag("Remote/v1.0.0", module: name) == nil) }

        let tagged = try sandbox.modkitRemote("tag", "v1.0.0", "--push", agent: agent)
        #expect(tagged.status == 0, "\(tagged.out)\n\(tagged.err)")
        #expect(tagged.out.contains("Pushed to 3 repositories."), "\(tagged.out)")
        for name in Self.modules {
            #expect(try sandbox.spawnRemoteTag("Remote/v1.0.0", module: name) == recorded[name], "\(name)")
        }
        // The manifest repository's remote got the tag and the snapshot commit on main.
        let snapshotCommit = try sandbox.spawnGit("rev-parse", "HEAD", in: "ws")
        #expect(try sandbox.spawnRemoteTag("v1.0.0", module: "Product") == snapshotCommit)
        #expect(try sandbox.spawnGit("--git-dir", sandbox.url("remotes/Product.git").path, "rev-parse", "main") == snapshotCommit)

        // Everything is there: the second push sends nothing.
        let again = try sandbox.modkitRemote("tag", "v1.0.0", "--push", "--json", agent: agent)
        #expect(again.status == 0, "\(again.out)\n\(again.err)")
        let pushes = try #require((try sandbox.json(again) as? [String: Any])?["pushes"] as? [[String: Any]], "\(again.out)")
        #expect(pushes.count == 3)
        for push in pushes {
            #expect((push["pushed"] as? [Any])?.isEmpty == true, "\(push)")
            #expect((push["alreadyThere"] as? [String])?.isEmpty == false, "\(push)")
            #expect(push["outcome"] as? String == "upToDate", "\(push)")
            #expect(push["error"] == nil, "\(push)")
        }
        let plain = try sandbox.modkitRemote("tag", "v1.0.0", "--push", agent: agent)
        #expect(plain.status == 0, "\(plain.err)")
        #expect(plain.out.contains("Nothing to push: every remote already has the snapshot."), "\(plain.out)")

        // New commits arrive over ssh; checkout brings every module back to the recorded commit.
        var moved: [String: String] = [:]
        for name in Self.modules { moved[name] = try sandbox.spawnPushNewCommit(name) }
        let synced = try sandbox.modkitRemote("sync", agent: agent)
        #expect(synced.status == 0, "\(synced.err)")
        for name in Self.modules {
            #expect(try sandbox.spawnHead(name) == moved[name], "\(name)")
            #expect(moved[name] != recorded[name])
        }
        let checkout = try sandbox.modkitRemote("checkout", "v1.0.0", agent: agent)
        #expect(checkout.status == 0, "\(checkout.out)\n\(checkout.err)")
        for name in Self.modules {
            #expect(try sandbox.spawnHead(name) == recorded[name], "\(name)")
        }
        #expect(try sandbox.spawnGit("rev-parse", "HEAD", in: "ws") == snapshotCommit)
    }

    @Test func tagPushOverHTTPUsesTheCredentialHelperAndAWrongPasswordFailsFastWithoutLeaking() throws {
        let sandbox = try Sandbox()
        for name in Self.modules { try sandbox.makeRemote(name) }
        let password = "pw-\(UUID().uuidString.prefix(12))"
        let wrong = "wrong-\(UUID().uuidString.prefix(12))"
        let (server, base) = try sandbox.startHTTPServerWithStoredCredential(password: password)
        defer { server.stop() }
        try sandbox.writeRemoteManifest(Self.modules.map { ($0, "\(base)/\($0).git") })
        try sandbox.spawnMakeManifestRepository { try sandbox.modkitRemote("sync") }
        let recorded = Dictionary(uniqueKeysWithValues: try Self.modules.map { ($0, try sandbox.spawnHead($0)) })

        let tagged = try sandbox.modkitRemote("tag", "v1.0.0", "--push")
        #expect(tagged.status == 0, "\(tagged.out)\n\(tagged.err)")
        #expect(tagged.out.contains("Pushed to 3 repositories."), "\(tagged.out)")
        for name in Self.modules {
            #expect(try sandbox.spawnRemoteTag("Remote/v1.0.0", module: name) == recorded[name], "\(name)")
        }

        // A wrong password: the module pushes fail quickly with "authentication failed", nothing arrives, nothing leaks.
        try sandbox.write("http://alice:\(wrong)@127.0.0.1:\(server.port)\n", to: "credentials")
        let started = Date()
        let failed = try sandbox.modkitRemote("tag", "v1.0.1", "--push")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(failed.status == 1, "\(failed.out)\n\(failed.err)")
        for name in Self.modules {
            #expect(failed.err.contains("\(name): push to origin failed: authentication failed for \(base)/\(name).git"), "\(failed.err)")
            #expect(try sandbox.spawnRemoteTag("Remote/v1.0.1", module: name) == nil, "\(name)")
            #expect(try sandbox.spawnRemoteTag("Remote/v1.0.0", module: name) == recorded[name], "\(name)")
        }
        #expect(failed.out.contains("2 failed"), "\(failed.out)")
        for output in [tagged.out, tagged.err, failed.out, failed.err] {
            #expect(!output.contains(password) && !output.contains(wrong), "a password leaked: \(output)")
        }

        // With the right password again the same command completes the push.
        try sandbox.write("http://alice:\(password)@127.0.0.1:\(server.port)\n", to: "credentials")
        let completed = try sandbox.modkitRemote("tag", "v1.0.1", "--push")
        #expect(completed.status == 0, "\(completed.out)\n\(completed.err)")
        for name in Self.modules {
            #expect(try sandbox.spawnRemoteTag("Remote/v1.0.1", module: name) == recorded[name], "\(name)")
        }
        #expect(!completed.out.contains(password) && !completed.err.contains(password))
    }
}

extension Sandbox {
    /// Makes `ws` a git repository, syncs it with `sync`, commits everything on main and publishes it as the bare
    /// remote `remotes/Product.git` (origin, upstream of main). Only spawned programs: servers may be running.
    func spawnMakeManifestRepository(sync: () throws -> ProcessResult) throws {
        try spawnGit("init", "-q", "-b", "main", in: "ws")
        let synced = try sync()
        guard synced.status == 0 else { throw SandboxError("sync failed: \(synced.out)\n\(synced.err)") }
        if !(((try? read("ws/.gitignore")) ?? "").contains("Libs")) {
            try write(((try? read("ws/.gitignore")) ?? "") + "Libs/\n", to: "ws/.gitignore")
        }
        try spawnGit("add", "-A", in: "ws")
        try spawnGit("commit", "-qm", "Product", in: "ws")
        try spawnGit("clone", "-q", "--bare", url("ws").path, url("remotes/Product.git").path)
        try spawnGit("remote", "add", "origin", url("remotes/Product.git").path, in: "ws")
        try spawnGit("fetch", "-q", "origin", in: "ws")
        try spawnGit("branch", "-q", "-u", "origin/main", in: "ws")
    }

    /// The commit a tag names in the server-side bare repository `remotes/<module>.git`, or nil without that tag.
    func spawnRemoteTag(_ tag: String, module: String) throws -> String? {
        let result = try runRemote("/usr/bin/git", ["--git-dir", url("remotes/\(module).git").path, "rev-parse", "--verify", "-q",
                                                    "refs/tags/\(tag)^{commit}"])
        return result.status == 0 ? result.out.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }
}
