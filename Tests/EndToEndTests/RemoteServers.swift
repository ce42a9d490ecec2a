import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Test servers for the remote transports, all on 127.0.0.1 and started from the real programs: `sshd` with its own
/// config and host key, `ssh-agent`, and a Python smart-HTTP server running `git http-backend` (optionally TLS).
/// Each is stopped with SIGKILL (children of Foundation's Process may have SIGTERM blocked).
enum RemoteTools {
    /// Whether the programs the remote tests need are installed (`.ci/run` installs them).
    static let available: Bool = ["/usr/sbin/sshd", "/usr/bin/ssh-keygen", "/usr/bin/ssh-agent", "/usr/bin/ssh-add", "/usr/bin/openssl"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } && which("python3") != nil

    static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension Sandbox {
    /// Runs a program with the sandbox environment minus proxies, plus `extra` (nil values remove a variable).
    func runRemote(_ executable: String, _ arguments: [String], extra: [String: String?] = [:], in directory: String = ".") throws -> ProcessResult {
        var environment = self.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "SSH_AUTH_SOCK", "GIT_ASKPASS", "SSH_ASKPASS",
                     "SSL_CERT_FILE", "SSL_CERT_DIR"] {
            environment.removeValue(forKey: name)
        }
        for (key, value) in extra { environment[key] = value }
        let out = root.appendingPathComponent(".out-\(UUID().uuidString)").path
        let err = root.appendingPathComponent(".err-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        try FileManager.default.createDirectory(at: url(directory), withIntermediateDirectories: true)
        let pid = try Spawn.start(executable, arguments, environment: environment, directory: url(directory).path, stdout: out, stderr: err)
        let status = Spawn.wait(pid)
        return ProcessResult(status: status, out: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                             err: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Runs git through posix_spawn (safe while test servers run) and returns its trimmed stdout.
    @discardableResult
    func spawnGit(_ arguments: String..., in directory: String = ".") throws -> String {
        let result = try runRemote("/usr/bin/git", arguments, in: directory)
        guard result.status == 0 else { throw SandboxError("git \(arguments.joined(separator: " ")) failed: \(result.err)") }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func spawnHead(_ module: String) throws -> String { try spawnGit("rev-parse", "HEAD", in: "ws/Libs/\(module)") }

    func spawnRemoteHead(_ module: String) throws -> String {
        try spawnGit("--git-dir", url("remotes/\(module).git").path, "rev-parse", "main^{commit}")
    }

    /// Commits a change in `src/<module>` and pushes it to its bare remote; returns the commit.
    func spawnPushNewCommit(_ module: String) throws -> String {
        try write("more \(UUID().uuidString)\n", to: "src/\(module)/CHANGES.md")
        try spawnGit("add", "-A", in: "src/\(module)")
        try spawnGit("commit", "-qm", "Change", in: "src/\(module)")
        try spawnGit("push", "-q", url("remotes/\(module).git").path, "HEAD", in: "src/\(module)")
        return try spawnGit("rev-parse", "HEAD", in: "src/\(module)")
    }

    /// Runs the built `modkit` with no terminal, no proxy and only the ssh agent given.
    func modkitRemote(_ arguments: String..., agent: SSHAgent? = nil, in directory: String = "ws") throws -> ProcessResult {
        try runRemote(Sandbox.modkitBinary.path, arguments, extra: ["SSH_AUTH_SOCK": agent?.socket], in: directory)
    }

    /// Runs a helper program and fails the test with its stderr when it fails.
    @discardableResult
    func tool(_ executable: String, _ arguments: String..., extra: [String: String?] = [:]) throws -> String {
        let result = try runRemote(executable, arguments, extra: extra)
        guard result.status == 0 else { throw SandboxError("\(executable) \(arguments.joined(separator: " ")) failed: \(result.err)") }
        return result.out
    }

    /// An unencrypted ed25519 key pair at `relative` (and `relative.pub`); returns the private key path.
    @discardableResult
    func makeSSHKey(_ relative: String) throws -> String {
        let path = url(relative).path
        try FileManager.default.createDirectory(at: url(relative).deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "modkit-test", "-f", path)
        return path
    }

    /// A module manifest at `ws/modkit.yml` with explicit urls.
    func writeRemoteManifest(_ modules: [(name: String, url: String)]) throws {
        var text = "version: 1\nworkspace: Remote\ndefaults:\n  revision: main\nmodules:\n"
        for module in modules { text += "  - name: \(module.name)\n    url: \(module.url)\n    path: Libs/\(module.name)\n" }
        try write(text, to: "ws/modkit.yml")
    }
}

/// Starts programs with posix_spawn and reaps them with waitpid: Foundation's Process lost track of children
/// (left them unreaped, hanging waitUntilExit) once an sshd or ssh-agent was running beside them.
enum Spawn {
    static func start(_ executable: String, _ arguments: [String], environment: [String: String], directory: String,
                      stdout: String, stderr: String) throws -> pid_t {
        let argv = ["/usr/bin/env", "-C", directory, executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = envp.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Long-lived servers must not inherit the test process's descriptors (Foundation's process monitors among them).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in open where fd > 2 && fcntl(fd, F_GETFD) >= 0 { posix_spawn_file_actions_addclose(&actions, fd) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, nil, &cArgs, &cEnv)
        guard result == 0 else { throw SandboxError("cannot start \(executable): error \(result)") }
        return pid
    }

    /// Waits for the process and returns its exit status (128+signal when killed).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// True while the process has not exited (it is not reaped here).
    static func isRunning(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._kill.si_pid == 0
    }

    static func kill(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
        _ = wait(pid)
    }
}

/// `sshd` on 127.0.0.1 at a free port, with its own host key and authorized keys, letting the current user in.
final class SSHServer {
    let port: Int
    let hostKeyFingerprint: String
    private let pid: pid_t
    private let logPath: String

    /// `settings`: more lines of sshd_config.
    init(sandbox: Sandbox, authorizedKeys: [String], settings: String = "") throws {
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let directory = sandbox.url("sshd")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let hostKey = directory.appendingPathComponent("host_ed25519").path
        try sandbox.tool("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey)
        hostKeyFingerprint = String(try sandbox.tool("/usr/bin/ssh-keygen", "-lf", hostKey + ".pub").split(separator: " ")[1])
        let authorized = try authorizedKeys.map { try String(contentsOfFile: $0 + ".pub", encoding: .utf8) }.joined()
        try authorized.write(to: directory.appendingPathComponent("authorized_keys"), atomically: true, encoding: .utf8)
        var lastLog = ""
        for _ in 0..<10 {
            let port = Int.random(in: 20_000...60_000)
            let config = directory.appendingPathComponent("sshd_config")
            try """
            ListenAddress 127.0.0.1
            Port \(port)
            HostKey \(hostKey)
            AuthorizedKeysFile \(directory.path)/authorized_keys
            StrictModes no
            UsePAM no
            PermitRootLogin yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PidFile none
            \(settings)
            """.write(to: config, atomically: true, encoding: .utf8)
            let log = directory.appendingPathComponent("sshd-\(port).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let pid = try Spawn.start("/usr/sbin/sshd", ["-D", "-e", "-f", config.path], environment: sandbox.environment,
                                      directory: directory.path, stdout: "/dev/null", stderr: log.path)
            for _ in 0..<100 {
                usleep(50_000)
                lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if lastLog.contains("Server listening") {
                    self.port = port
                    self.pid = pid
                    logPath = log.path
                    return
                }
                guard Spawn.isRunning(pid) else { break }
            }
            Spawn.kill(pid)
        }
        throw SandboxError("sshd did not start on 127.0.0.1: \(lastLog)")
    }

    func stop() { Spawn.kill(pid) }

    /// What sshd has logged so far (`-e`: each connection it accepted and saw end).
    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// A modkit run refused because this server's host key is unknown: exit 1, the key's fingerprint and the way out.
    func expectUnknownHostKeyRefusal(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.err.contains("the ssh host key of [127.0.0.1]:\(port) is unknown"), "\(result.err)", sourceLocation: sourceLocation)
        #expect(result.err.contains(hostKeyFingerprint), "\(result.err)", sourceLocation: sourceLocation)
        #expect(result.err.contains("--accept-new-host-keys"), "\(result.err)", sourceLocation: sourceLocation)
    }
}

/// An `ssh-agent` on a socket in the sandbox, holding the given keys. It daemonizes  and is stopped by the pid it prints.
final class SSHAgent {
    let socket: String
    private let pid: pid_t

    init(sandbox: Sandbox, keys: [String]) throws {
        socket = sandbox.url("agent.sock").path
        let output = try sandbox.tool("/usr/bin/ssh-agent", "-s", "-a", socket)
        guard let range = output.range(of: "SSH_AGENT_PID="),
              let pid = pid_t(output[range.upperBound...].prefix { $0.isNumber }) else {
            throw SandboxError("ssh-agent printed no pid: \(output)")
        }
        self.pid = pid
        for key in keys { try sandbox.tool("/usr/bin/ssh-add", "-q", key, extra: ["SSH_AUTH_SOCK": socket]) }
    }

    func stop() { _ = kill(pid, SIGKILL) }
}

/// `git http-backend` behind basic auth (and TLS when given a certificate) on 127.0.0.1 at a free port.
final class HTTPGitServer {
    let port: Int
    private let pid: pid_t

    init(sandbox: Sandbox, root: URL, user: String, password: String, tls: (cert: String, key: String)? = nil) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/git_http_server.py")
        let portFile = sandbox.url("http-\(UUID().uuidString.prefix(6)).port")
        let python = RemoteTools.which("python3") ?? "/usr/bin/python3"
        pid = try Spawn.start(python, [script.path, root.path, portFile.path, user, password] + (tls.map { [$0.cert, $0.key] } ?? []),
                              environment: sandbox.environment, directory: sandbox.root.path,
                              stdout: "/dev/null", stderr: sandbox.url("http-server.log").path)
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                self.port = port
                return
            }
            guard Spawn.isRunning(pid) else { break }
            usleep(50_000)
        }
        Spawn.kill(pid)
        throw SandboxError("the git http test server did not start")
    }

    func stop() { Spawn.kill(pid) }
}

extension Sandbox {
    /// A smart-HTTP server for `remotes/` on 127.0.0.1 with basic auth for alice, whose password git's `store`
    /// credential helper (configured in the sandbox's global git config) knows; returns the server and its base url.
    func startHTTPServerWithStoredCredential(password: String) throws -> (server: HTTPGitServer, base: String) {
        let server = try HTTPGitServer(sandbox: self, root: url("remotes"), user: "alice", password: password)
        try spawnGit("config", "--global", "credential.helper", "store --file=\(url("credentials").path)")
        try write("http://alice:\(password)@127.0.0.1:\(server.port)\n", to: "credentials")
        return (server, "http://127.0.0.1:\(server.port)")
    }

    /// A test certificate authority and a server certificate for 127.0.0.1 signed by it: (ca, cert, key) paths.
    func makeTLSCertificates() throws -> (ca: String, cert: String, key: String) {
        let directory = url("tls")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        try "subjectAltName=DNS:127.0.0.1,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n".write(toFile: path("ext"), atomically: true, encoding: .utf8)
        let openssl = "/usr/bin/openssl"
        try tool(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
                 "-days", "2", "-subj", "/CN=modkit test CA")
        try tool(openssl, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"),
                 "-subj", "/CN=127.0.0.1")
        try tool(openssl, "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                 "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("ext"))
        return (path("ca.pem"), path("server.pem"), path("server.key"))
    }
}
