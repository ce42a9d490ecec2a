import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A repo manifest repository cloned over ssh from an scp-like origin (`user@127.0.0.1:path/manifest.git`, the
/// sshd of `RemoteServers.swift`) with `fetch=".."`: imported, its projects resolved to `ssh://` urls as repo gives,
/// synced over ssh, checked with `status`, exported and read back.
@Suite(.serialized, .enabled(if: RemoteTools.available, "needs openssh-server, openssh-client, openssl, python3 (.ci/run installs them)"))
struct ImportScpOriginEndToEndTests {
    let migration = MigrationEndToEndTests()

    /// The path of `absolute` relative to the ssh user's home on the server (sshd starts there), as an scp-like
    /// url's path is read: `../tmp/…` from /root.
    static func pathFromServerHome(_ absolute: String) -> String {
        let home = getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) } ?? "/"
        let up = home.split(separator: "/").count
        return String(repeating: "../", count: up) + absolute.drop { $0 == "/" }
    }

    /// `modkit list --json` through posix_spawn (Foundation's Process hangs beside a running sshd).
    func listModules(_ sandbox: Sandbox, in directory: String) throws -> [MigrationEndToEndTests.Listed] {
        let result = try sandbox.modkitRemote("list", "--json", in: directory)
        guard result.status == 0 else { throw SandboxError("modkit list failed: \(result.err)") }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        return try #require(report["modules"] as? [[String: Any]]).map {
            MigrationEndToEndTests.Listed(name: $0["name"] as? String ?? "", url: $0["url"] as? String ?? "", path: $0["path"] as? String ?? "",
                                          revision: $0["revision"] as? String, groups: $0["groups"] as? [String] ?? [])
        }
    }

    @Test func scpLikeManifestOriginResolvesToSSHUrlsAndSyncsOverSSH() throws {
        let sandbox = try Sandbox()
        let projects = ["platform/manifest", "platform/build", "platform/external/zlib", "device/acme/board"]
        for path in projects { try migration.publish(sandbox, "remotes/\(path).git") }
        let work = "src/remotes/platform/manifest.git"
        try sandbox.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest>
              <remote name="origin" fetch=".." review="https://review.example.com/"/>
              <default revision="main" remote="origin"/>
              <project path="build/make" name="platform/build"/>
              <project path="external/zlib" name="platform/external/zlib" revision="refs/tags/v1.0"/>
              <project path="device/acme/board" name="device/acme/board" revision="develop"/>
            </manifest>

            """, to: "\(work)/default.xml")
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "manifest", in: work)
        try sandbox.git("push", "-q", sandbox.url("remotes/platform/manifest.git").path, "main", in: work)

        // sshd on 127.0.0.1 at a free port; ssh reaches it as plain '127.0.0.1' through ~/.ssh/config, since an
        // scp-like url cannot carry a port.
        let key = try sandbox.makeSSHKey("home/.ssh/id_ed25519")
        let server = try SSHServer(sandbox: sandbox, authorizedKeys: [key])
        let agent = try SSHAgent(sandbox: sandbox, keys: [key])
        defer { server.stop(); agent.stop() }
        let user = SSHUser.name
        try sandbox.write("Host 127.0.0.1\n    Port \(server.port)\n    User \(user)\n", to: "home/.ssh/config")
        let knownHosts = sandbox.url("home/.ssh/known_hosts").path
        let ssh = "ssh -F \(sandbox.url("home/.ssh/config").path) -o UserKnownHostsFile=\(knownHosts) -o StrictHostKeyChecking=accept-new "
            + "-o IdentitiesOnly=yes -i \(key)"
        let remotes = sandbox.url("remotes").path
        let origin = "\(user)@127.0.0.1:\(Self.pathFromServerHome(remotes))/platform/manifest.git"
        let clone = try sandbox.runRemote("/usr/bin/git", ["clone", "-q", origin, "manifest"], extra: ["GIT_SSH_COMMAND": ssh])
        #expect(clone.status == 0, "git clone \(origin): \(clone.err)")
        #expect(try sandbox.spawnGit("remote", "get-url", "origin", in: "manifest") == origin)

        let imported = try sandbox.modkitRemote("init", "--import", "../manifest/default.xml")
        #expect(imported.status == 0, "\(imported.err)")
        // repo reads the origin as ssh://user@127.0.0.1/../<path> and joins '..' onto it as a url: the dot segments go.
        let base = "ssh://\(user)@127.0.0.1\(remotes)"
        let modules = try listModules(sandbox, in: "ws")
        #expect(modules.map(\.url) == ["\(base)/platform/build", "\(base)/platform/external/zlib", "\(base)/device/acme/board"], "\(modules)")
        #expect(modules.map(\.path) == ["build/make", "external/zlib", "device/acme/board"])

        // The same urls over ssh (modkit's own transport, ~/.ssh/config for the port, the agent for the key).
        let sync = try sandbox.modkitRemote("sync", agent: agent)
        #expect(sync.status == 0, "\(sync.out)\n\(sync.err)")
        let bare = { (name: String) in sandbox.url("remotes/\(name).git").path }
        #expect(try sandbox.spawnGit("rev-parse", "HEAD", in: "ws/build/make") == sandbox.spawnGit("--git-dir", bare("platform/build"), "rev-parse", "main"))
        #expect(try sandbox.spawnGit("rev-parse", "HEAD", in: "ws/external/zlib")
                == sandbox.spawnGit("--git-dir", bare("platform/external/zlib"), "rev-parse", "v1.0^{commit}"))
        #expect(try sandbox.spawnGit("rev-parse", "HEAD", in: "ws/device/acme/board")
                == sandbox.spawnGit("--git-dir", bare("device/acme/board"), "rev-parse", "develop"))
        #expect(try sandbox.spawnGit("remote", "get-url", "origin", in: "ws/build/make") == "\(base)/platform/build")
        let status = try sandbox.modkitRemote("status", agent: agent)
        #expect(status.status == 0, "\(status.out)\n\(status.err)")

        // New work upstream arrives over ssh on the next sync.
        let buildWork = "src/remotes/platform/build.git"
        try sandbox.write("over ssh\n", to: "\(buildWork)/CHANGES.md")
        try sandbox.spawnGit("add", "-A", in: buildWork)
        try sandbox.spawnGit("commit", "-qm", "more", in: buildWork)
        try sandbox.spawnGit("push", "-q", bare("platform/build"), "HEAD:main", in: buildWork)
        let pushed = try sandbox.spawnGit("rev-parse", "HEAD", in: buildWork)
        let again = try sandbox.modkitRemote("sync", agent: agent)
        #expect(again.status == 0, "\(again.err)")
        #expect(try sandbox.spawnGit("rev-parse", "HEAD", in: "ws/build/make") == pushed)

        // Exported back: the project names, the one remote and the revisions as the source had them; read back the same.
        let export = try sandbox.modkitRemote("export", "--format", "repo")
        #expect(export.status == 0, "\(export.err)")
        #expect(export.out.components(separatedBy: "<remote ").count == 2, "one remote: \(export.out)")
        #expect(export.out.contains(#"name="platform/external/zlib" path="external/zlib" revision="refs/tags/v1.0""#), "\(export.out)")
        try sandbox.write(export.out, to: "back/default.xml")
        let reimport = try sandbox.modkitRemote("init", "--import", "default.xml", in: "back")
        #expect(reimport.status == 0, "\(reimport.err)")
        let back = try listModules(sandbox, in: "back")
        #expect(back.map(\.name) == modules.map(\.name) && back.map(\.path) == modules.map(\.path) && back.map(\.url) == modules.map(\.url))
        #expect(back.map(\.revision) == modules.map(\.revision))
    }
}
