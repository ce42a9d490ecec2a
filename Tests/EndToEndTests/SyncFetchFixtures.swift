import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Sandbox {
    /// Every ref of a repository with what it points at, and every commit reachable from any of them.
    func refsAndCommits(_ directory: String) throws -> (refs: [String: String], commits: Set<String>) {
        var refs: [String: String] = [:]
        for line in try git("for-each-ref", "--format=%(refname) %(objectname)", in: directory).split(separator: "\n") {
            let parts = line.split(separator: " ")
            refs[String(parts[0])] = String(parts[1])
        }
        let commits = Set(try git("rev-list", "--all", in: directory).split(separator: "\n").map(String.init))
        return (refs, commits)
    }

    /// Rewrites the last commit of `src/<name>` with a different message and force-pushes it; returns the new tip.
    @discardableResult
    func forcePushAmended(_ name: String) throws -> String {
        let work = "src/\(name)"
        try git("commit", "-q", "--amend", "-m", "Rewritten \(UUID().uuidString)", in: work)
        try git("push", "-q", "--force", url("remotes/\(name).git").path, "HEAD:main", in: work)
        return try git("rev-parse", "HEAD", in: work)
    }

    /// Commits `text` to `file` in a module's work tree; returns the commit.
    @discardableResult
    func commitInModule(_ name: String, file: String = "LOCAL.md", text: String = "mine\n") throws -> String {
        try write(text, to: "ws/Libs/\(name)/\(file)")
        try git("add", "-A", in: "ws/Libs/\(name)")
        try git("commit", "-qm", "Local work on \(file)", in: "ws/Libs/\(name)")
        return try head(of: name)
    }
}

/// A TCP server on 127.0.0.1 that accepts connections and never answers: a stalled git server.
final class SilentServer {
    let port: Int
    private let pid: pid_t

    init(sandbox: Sandbox) throws {
        let script = sandbox.url("silent-server.py").path
        try """
        import socket, sys, time
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        print(server.getsockname()[1], flush=True)
        held = []
        while True:
            connection, _ = server.accept()
            held.append(connection)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let out = sandbox.url("silent-server.out").path
        pid = try Spawn.start("/usr/bin/python3", [script], environment: sandbox.environment, directory: sandbox.root.path,
                              stdout: out, stderr: sandbox.url("silent-server.err").path)
        var port = 0
        for _ in 0..<500 {
            if let text = try? String(contentsOfFile: out, encoding: .utf8), let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                port = value
                break
            }
            usleep(10_000)
        }
        guard port > 0 else { Spawn.kill(pid); throw SandboxError("the silent server did not start") }
        self.port = port
    }

    func stop() { Spawn.kill(pid) }
}
