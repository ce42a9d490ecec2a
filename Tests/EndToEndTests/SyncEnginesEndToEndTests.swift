import Foundation
import Testing

/// The core sync scenarios with each fetch engine (`git config modkit.fetchEngine`) over each transport: a fresh
/// clone, a fast-forward, a tag the remote moved kept as the user has it, a force-push followed with a backup of the
/// old tip, a branch deleted upstream left alone, and an unrelated url refused. `git fsck` is clean after each step.
@Suite struct SyncEnginesEndToEndTests {
    static let engines = ["git", "libgit2"]

    @Test(arguments: engines) func overFile(engine: String) throws {
        let sandbox = try Sandbox()
        try scenario(sandbox, engine: engine, base: "file://" + sandbox.url("remotes").path)
    }

    @Test(arguments: engines) func overGitDaemon(engine: String) throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        let daemon = try GitDaemon(basePath: sandbox.url("remotes"), sandbox: sandbox)
        defer { daemon.stop() }
        try scenario(sandbox, engine: engine, base: "git://127.0.0.1:\(daemon.port)", made: true)
    }

    @Test(.enabled(if: RemoteTools.available, "needs openssl and python3"), arguments: engines)
    func overHTTP(engine: String) throws {
        let sandbox = try Sandbox()
        let password = "pw-\(UUID().uuidString.prefix(12))"
        let (server, base) = try sandbox.startHTTPServerWithStoredCredential(password: password)
        defer { server.stop() }
        try scenario(sandbox, engine: engine, base: base)
    }

    /// `fetch.engine: git` over ssh: ssh's own known_hosts, refused without a terminal until `--accept-new-host-keys`.
    @Test(.enabled(if: RemoteTools.available, "needs openssh-server, openssh-client"))
    func gitEngineOverSSHRefusesAnUnknownHostKeyUntilAccepted() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        let key = try sandbox.makeSSHKey("keys/agent_key")
        let server = try SSHServer(sandbox: sandbox, authorizedKeys: [key])
        let agent = try SSHAgent(sandbox: sandbox, keys: [key])
        defer { server.stop(); agent.stop() }
        try sandbox.spawnGit("config", "--global", "modkit.fetchEngine", "git")
        try sandbox.writeRemoteManifest([("Core", "ssh://\(SSHUser.name)@127.0.0.1:\(server.port)\(sandbox.url("remotes").path)/Core.git")])

        let refused = try sandbox.modkitRemote("sync", agent: agent)
        #expect(refused.status == 1)
        #expect(refused.err.contains("Host key verification failed") && refused.err.contains("--accept-new-host-keys"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Core").path))

        let accepted = try sandbox.modkitRemote("sync", "--accept-new-host-keys", agent: agent)
        #expect(accepted.status == 0, "\(accepted.err)")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnRemoteHead("Core"))
        // the sandbox's ~/.ssh (as modkit's own ssh uses), not the account's home; ssh may hash the host name
        let knownHosts = try sandbox.read("home/.ssh/known_hosts").split(separator: "\n")
        #expect(knownHosts.count == 1 && knownHosts[0].contains(" ssh-ed25519 "), "\(knownHosts)")
        let pushed = try sandbox.spawnPushNewCommit("Core")
        let again = try sandbox.modkitRemote("sync", agent: agent)
        #expect(again.status == 0, "\(again.err)")
        #expect(try sandbox.spawnHead("Core") == pushed)
    }

    private func scenario(_ sandbox: Sandbox, engine: String, base: String, made: Bool = false) throws {
        if !made { try sandbox.makeRemote("Core") }
        try sandbox.makeRemote("Unrelated")
        try sandbox.spawnGit("config", "--global", "modkit.fetchEngine", engine)
        try sandbox.spawnGit("tag", "-a", "v1", "-m", "v1", in: "src/Core")
        try sandbox.spawnGit("push", "-q", sandbox.url("remotes/Core.git").path, "v1", "HEAD:refs/heads/topic", in: "src/Core")
        try sandbox.writeRemoteManifest([("Core", "\(base)/Core.git")])
        try sandbox.write("""
          - name: Topic
            url: \(base)/Core.git
            path: Libs/Topic
            revision: topic

        """, to: "topic.yml")
        try sandbox.write(try sandbox.read("ws/modkit.yml") + sandbox.read("topic.yml"), to: "ws/modkit.yml")
        let clone = "ws/Libs/Core"

        let fresh = try sandbox.modkitRemote("sync")
        #expect(fresh.status == 0, "\(engine): \(fresh.err)")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnRemoteHead("Core"))
        #expect(try sandbox.spawnGit("rev-parse", "v1^{commit}", in: clone) == sandbox.spawnRemoteHead("Core"))
        #expect(try sandbox.spawnGit("status", "--porcelain", in: clone).isEmpty)
        try expectWhole(sandbox, clone)
        // The clone's tags are the remote's: they are its tag mirror from the start, packed with the other refs.
        #expect(try sandbox.spawnGit("rev-parse", "refs/modkit/remote-tags/origin/v1", in: clone) == sandbox.spawnGit("rev-parse", "v1", in: "src/Core"))
        #expect(try sandbox.read("\(clone)/.git/packed-refs").contains(" refs/modkit/remote-tags/origin/v1\n"), "\(engine)")
        #expect(looseFiles(sandbox, "\(clone)/.git/refs/modkit").isEmpty, "\(engine)")

        let pushed = try sandbox.spawnPushNewCommit("Core")
        let forward = try sandbox.modkitRemote("sync", "Core")
        #expect(forward.status == 0, "\(engine): \(forward.err)")
        #expect(try sandbox.spawnHead("Core") == pushed)
        #expect(forward.err.contains("fast-forwarded main by 1 commit"), "\(engine): \(forward.err)")
        // An update writes what git's would: no tag refs (none changed) and no FETCH_HEAD listing every tag.
        #expect(looseFiles(sandbox, "\(clone)/.git/refs/modkit").isEmpty, "\(engine)")
        // (libgit2's clone leaves an empty one)
        #expect((FileManager.default.contents(atPath: sandbox.url("\(clone)/.git/FETCH_HEAD").path) ?? Data()).isEmpty, "\(engine)")

        let localV1 = try sandbox.spawnGit("rev-parse", "v1", in: clone)
        try sandbox.spawnGit("tag", "-f", "-a", "v1", "-m", "moved", in: "src/Core")
        try sandbox.spawnGit("push", "-q", "-f", sandbox.url("remotes/Core.git").path, "v1", in: "src/Core")
        let tagged = try sandbox.modkitRemote("sync", "Core")
        #expect(tagged.status == 0, "\(engine): \(tagged.err)")
        #expect(try sandbox.spawnGit("rev-parse", "v1", in: clone) == localV1)
        #expect(try sandbox.spawnGit("rev-parse", "refs/modkit/remote-tags/origin/v1", in: clone)
                == sandbox.spawnGit("rev-parse", "v1", in: "src/Core"))
        #expect((tagged.out + tagged.err).contains("v1"), "\(engine): the kept tag is named: \(tagged.out)\(tagged.err)")

        try sandbox.spawnGit("reset", "-q", "--hard", "HEAD~1", in: "src/Core")
        try sandbox.write("rewritten\n", to: "src/Core/REWRITE.md")
        try sandbox.spawnGit("add", "-A", in: "src/Core")
        try sandbox.spawnGit("commit", "-qm", "Rewrite", in: "src/Core")
        try sandbox.spawnGit("push", "-q", "-f", sandbox.url("remotes/Core.git").path, "HEAD:main", in: "src/Core")
        let rewritten = try sandbox.spawnGit("rev-parse", "HEAD", in: "src/Core")
        let followed = try sandbox.modkitRemote("sync", "Core")
        #expect(followed.status == 0, "\(engine): \(followed.err)")
        #expect(try sandbox.spawnHead("Core") == rewritten)
        #expect(followed.err.contains("rewritten (force-pushed)"), "\(engine): \(followed.err)")
        #expect(try sandbox.spawnGit("for-each-ref", "--format=%(objectname)", "refs/modkit/backup/", in: clone).contains(pushed))
        try expectWhole(sandbox, clone)

        try sandbox.spawnGit("--git-dir", sandbox.url("remotes/Core.git").path, "branch", "-D", "topic")
        let gone = try sandbox.modkitRemote("sync", "Topic")
        #expect(gone.err.contains("upstream gone: origin/topic was deleted on the remote"), "\(engine): \(gone.err)")
        #expect(try sandbox.spawnGit("rev-parse", "--abbrev-ref", "HEAD", in: "ws/Libs/Topic") == "topic")

        try sandbox.writeRemoteManifest([("Core", "\(base)/Unrelated.git")])
        let refused = try sandbox.modkitRemote("sync", "Core")
        #expect(refused.status == 1)
        #expect(refused.err.contains("has no history in common with Libs/Core"), "\(engine): \(refused.err)")
        #expect(try sandbox.spawnHead("Core") == rewritten)
        #expect(try sandbox.spawnGit("remote", "get-url", "origin", in: clone) == "\(base)/Core.git")
    }

    /// A sync from a remote on this machine fetches in-process, whichever engine is set, when the fetch is small: nothing
    /// new, a new commit, a merge, a new annotated tag, a branch deleted upstream, a remote-tracking ref moved by hand.
    /// The objects land loose (as git's unpack-objects keeps a small fetch) and the repository stays whole. A fetch of
    /// more objects than `fetch.unpackLimit` goes to the engine, which packs it.
    @Test(arguments: engines) func aSmallFetchFromALocalRemoteRunsNoGit(engine: String) throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.spawnGit("config", "--global", "modkit.fetchEngine", engine)
        try sandbox.spawnGit("tag", "-a", "v1", "-m", "v1", in: "src/Core")
        try sandbox.spawnGit("push", "-q", sandbox.url("remotes/Core.git").path, "v1", "HEAD:refs/heads/topic", in: "src/Core")
        try sandbox.writeRemoteManifest([("Core", "file://\(sandbox.url("remotes/Core.git").path)")])
        #expect(try sandbox.modkitRemote("sync").status == 0)
        let clone = "ws/Libs/Core"
        let trace = sandbox.url("trace").path
        func sync() throws -> (result: ProcessResult, ranGit: Bool) {
            try? FileManager.default.removeItem(atPath: trace)
            let result = try sandbox.runRemote(Sandbox.modkitBinary.path, ["sync"], extra: ["GIT_TRACE": trace], in: "ws")
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            return (result, text.contains("fetch") || text.contains("upload-pack"))
        }
        func packs() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.url("\(clone)/.git/objects/pack").path)) ?? []).sorted()
        }
        let packsAfterClone = packs()

        let idle = try sync()
        #expect(idle.result.status == 0, "\(idle.result.err)")
        #expect(!idle.ranGit, "\(engine): a sync with nothing new ran git")
        #expect(idle.result.out.contains("1 up to date"), "\(idle.result.out)")

        let pushed = try sandbox.spawnPushNewCommit("Core")
        let update = try sync()
        #expect(update.result.status == 0, "\(update.result.err)")
        #expect(try sandbox.spawnHead("Core") == pushed)
        #expect(!update.ranGit, "\(engine): a one-commit update ran git")
        #expect(packs() == packsAfterClone, "\(engine): the new objects should be loose")
        try expectWhole(sandbox, clone)

        // A merge of a side branch, and a new annotated tag on it.
        try sandbox.spawnGit("checkout", "-q", "-b", "side", "HEAD~1", in: "src/Core")
        try sandbox.write("side\n", to: "src/Core/Sources/Side.swift")
        try sandbox.spawnGit("add", "-A", in: "src/Core")
        try sandbox.spawnGit("commit", "-qm", "Side", in: "src/Core")
        try sandbox.spawnGit("checkout", "-q", "-", in: "src/Core")
        try sandbox.spawnGit("merge", "-q", "--no-edit", "side", in: "src/Core")
        try sandbox.spawnGit("tag", "-a", "v2", "-m", "v2", in: "src/Core")
        try sandbox.spawnGit("push", "-q", sandbox.url("remotes/Core.git").path, "HEAD", "v2", in: "src/Core")
        let merged = try sync()
        #expect(merged.result.status == 0, "\(merged.result.err)")
        #expect(!merged.ranGit, "\(engine)")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnGit("rev-parse", "HEAD", in: "src/Core"))
        #expect(try sandbox.spawnGit("rev-parse", "v2", in: clone) == sandbox.spawnGit("rev-parse", "v2", in: "src/Core"))
        #expect(try sandbox.spawnGit("cat-file", "-p", "HEAD:Sources/Side.swift", in: clone) == "side")
        try expectWhole(sandbox, clone)

        try sandbox.spawnGit("--git-dir", sandbox.url("remotes/Core.git").path, "branch", "-D", "topic")
        #expect(try !sync().ranGit, "\(engine)")
        #expect(try sandbox.spawnGit("for-each-ref", "--format=%(refname)", "refs/remotes/origin/topic", in: clone).isEmpty)

        // A remote-tracking ref the user moved by hand is put back by a fetch.
        try sandbox.spawnGit("update-ref", "refs/remotes/origin/main", "HEAD~1", in: clone)
        let repaired = try sync()
        #expect(repaired.result.status == 0)
        #expect(!repaired.ranGit, "\(engine)")
        #expect(try sandbox.spawnGit("rev-parse", "refs/remotes/origin/main", in: clone) == sandbox.spawnHead("Core"))
        #expect(try !sync().ranGit, "\(engine)")

        // 150 new files: more objects than fetch.unpackLimit, so the engine fetches them as a pack.
        for index in 0..<150 { try sandbox.write("file \(index)\n", to: "src/Core/Generated/File\(index).swift") }
        try sandbox.spawnGit("add", "-A", in: "src/Core")
        try sandbox.spawnGit("commit", "-qm", "Generated", in: "src/Core")
        try sandbox.spawnGit("push", "-q", sandbox.url("remotes/Core.git").path, "HEAD", in: "src/Core")
        let big = try sync()
        #expect(big.result.status == 0, "\(big.result.err)")
        #expect(big.ranGit == (engine == "git"), "\(engine): a big fetch should go to the engine")
        #expect(packs().count > packsAfterClone.count, "\(engine): a big fetch is kept as a pack")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnGit("rev-parse", "HEAD", in: "src/Core"))
        try expectWhole(sandbox, clone)
    }

    /// The files below `directory` (loose refs there), relative to it.
    private func looseFiles(_ sandbox: Sandbox, _ directory: String) -> [String] {
        let root = sandbox.url(directory).path
        return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    private func expectWhole(_ sandbox: Sandbox, _ clone: String) throws {
        let fsck = try sandbox.runRemote("/usr/bin/git", ["fsck", "--no-progress"], in: clone)
        #expect(fsck.status == 0 && fsck.out.isEmpty && fsck.err.isEmpty, "\(fsck.out)\(fsck.err)")
    }
}
