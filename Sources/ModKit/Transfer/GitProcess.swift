import Foundation
import GitKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One run of git for a transfer: stderr read as it comes (progress, errors), stopped after `stallTimeout`
/// seconds of silence, its failure reported without credentials.
struct GitProcess {
    let git: String
    let arguments: [String]
    /// The remote's url, to name it in errors.
    var url: String? = nil
    /// The sync's shared ssh connections: git's ssh reaches the server of an ssh `url` over one of them when it has some.
    var sshShare: SSHConnectionShare? = nil

    /// Runs git to the end; returns the last progress it reported.
    func run(stallTimeout: TimeInterval, progress: ((TransferProgress) -> Bool)?) throws(ModKitError) -> TransferProgress {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [git] + arguments
        let channel = url.flatMap { sshShare?.channel(to: $0) }
        defer { channel.map { sshShare?.release($0) } }
        process.environment = Self.environment(sshOptions: channel?.sshOptions ?? [])
        let stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        let ended = ProcessExit(process)
        ConnectionTurn.take()
        do { try process.run() } catch {
            throw ModKitError("cannot run \(git): \(error)", hint: "install git, or set MODKIT_FETCH_ENGINE=libgit2 (git config modkit.fetchEngine libgit2)")
        }
        // A SIGKILLed modkit leaves git running until its next write; the lock file names it so the next run waits.
        WorkspaceLock.started(process.processIdentifier)
        defer { WorkspaceLock.ended(process.processIdentifier) }
        let watchdog = stallTimeout > 0 ? Watchdog(pid: process.processIdentifier, stallTimeout: stallTimeout) : nil
        var parser = GitProgressParser()
        var messages: [String] = []
        var pending = Data()
        while true {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            watchdog?.touch()
            pending.append(chunk)
            while let end = pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending = Data(pending[pending.index(after: end)...])
                if parser.consume(Substring(line)) {
                    _ = progress?(parser.progress)
                } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    messages.append(line)
                }
            }
        }
        ended.wait()
        if let channel, messages.contains(where: { $0.contains("Session open refused by peer") }) { sshShare?.refused(channel) }
        let stalled = watchdog?.finish() ?? false
        // one line: git's fatal and error lines (and ssh's, which say why the transport failed) when it printed some,
        // else its last lines
        let errors = messages.filter { line in Self.errorPrefixes.contains { line.hasPrefix($0) } }
        let text = Redact.secrets(in: (errors.isEmpty ? Array(messages.suffix(5)) : errors).joined(separator: "; "))
        let command = Redact.secrets(in: "git " + arguments.prefix { $0 != "--" }.joined(separator: " "))
        if stalled {
            throw ModKitError("\(command) \(url.map(Redact.url) ?? ""): timed out after \(Int(stallTimeout)) s without data from the server",
                              hint: "check the network and the server; MODKIT_TIMEOUT or git config modkit.timeout sets the limit (0 waits forever)")
        }
        guard process.terminationStatus == 0 else { throw failure(command, status: process.terminationStatus, text: text, errors: errors) }
        return parser.progress
    }

    /// The error for a failed run: authentication and certificate failures in modkit's words, anything else with git's.
    private func failure(_ command: String, status: Int32, text: String, errors: [String]) -> ModKitError {
        let lowered = text.lowercased()
        let fatal = errors.last.map { String(Redact.secrets(in: $0).drop { $0 != " " }.dropFirst()) } ?? text
        let remote = url.map(Redact.url) ?? "the remote"
        if lowered.contains("authentication failed") || lowered.contains("could not read username")
            || lowered.contains("terminal prompts disabled") {
            return ModKitError("authentication failed for \(remote) (git: \(fatal))",
                               hint: "store a credential for git (git config --global credential.helper …) or use an ssh url; " +
                                   "modkit does not let git prompt without a terminal")
        }
        if lowered.contains("ssl certificate problem") || lowered.contains("server certificate verification failed") {
            return ModKitError("the TLS certificate of \(Self.host(of: url ?? "")) is not trusted (git: \(fatal))",
                               hint: "if the server uses a private certificate authority, name it: git config --global http.sslCAInfo /path/to/ca.pem")
        }
        return ModKitError("\(command) \(remote) failed (exit \(status)): \(text)", hint: Self.hint(for: text))
    }

    /// Lines of git's stderr that say what went wrong: git's own, and ssh's (printed before git's "fatal: Could not read
    /// from remote repository").
    private static let errorPrefixes = ["fatal: ", "error: ", "ssh: ", "Host key verification failed", "Permission denied",
                                        "No ED25519 host key is known", "No RSA host key is known", "@@@@"]

    /// `https://user@host:8443/x` → `host`.
    static func host(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" }
        let host = authority.split(separator: "@").last ?? authority
        return String(host.split(separator: ":").first ?? host)
    }

    static func hint(for text: String) -> String? {
        let lowered = text.lowercased()
        if lowered.contains("host key verification failed") {
            return "the server's host key is not in ~/.ssh/known_hosts: check its fingerprint, then rerun with --accept-new-host-keys"
        }
        if lowered.contains("permission denied (publickey") {
            return "add the key to ssh-agent (ssh-add) or name it with IdentityFile in ~/.ssh/config"
        }
        if lowered.contains("could not resolve host") || lowered.contains("connection refused")
            || lowered.contains("failed to connect") {
            return "check the url and that the server is reachable"
        }
        return nil
    }

    /// The caller's environment, with stable wording, and no prompt unless a terminal can answer it; `sshOptions` go
    /// to git's ssh when it is OpenSSH.
    static func environment(sshOptions: [String] = []) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"] {
            environment.removeValue(forKey: name)
        }
        environment["LC_ALL"] = "C"
        let terminal = isatty(STDIN_FILENO) != 0
        if !terminal { environment["GIT_TERMINAL_PROMPT"] = "0" }
        if let ssh = sshCommand(environment: environment, terminal: terminal, adding: sshOptions) {
            environment["GIT_SSH_COMMAND"] = ssh
        }
        return environment
    }

    /// The user's ssh command (`GIT_SSH_COMMAND`, `core.sshCommand`, else `ssh`) with modkit's policy appended when it
    /// is ssh itself: no prompt without a terminal, new host keys only with `--accept-new-host-keys`, and the
    /// known_hosts and config of `$HOME/.ssh` as modkit's own ssh uses them, then `adding`. Options the user gave come
    /// first and win. nil when git does not run OpenSSH's `ssh`, or there is nothing to add.
    static func sshCommand(environment: [String: String], terminal: Bool, adding: [String] = []) -> String? {
        guard environment["GIT_SSH"] == nil else { return nil }
        let base = environment["GIT_SSH_COMMAND"] ?? GitKit.globalConfigString("core.sshCommand") ?? "ssh"
        guard let program = base.split(separator: " ").first, program == "ssh" || program.hasSuffix("/ssh") else { return nil }
        var options: [String] = []
        if !terminal { options += ["-o", "BatchMode=yes"] }
        if GitKit.remoteAuthentication.acceptNewHostKeys { options += ["-o", "StrictHostKeyChecking=accept-new"] }
        if let home = environment["HOME"], let entry = getpwuid(getuid()), String(cString: entry.pointee.pw_dir) != home {
            options += ["-o", "UserKnownHostsFile=" + quoted(home + "/.ssh/known_hosts")]
            if GitKit.remoteAuthentication.acceptNewHostKeys {  // ssh adds the key but does not make the folder
                try? FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])
            }
            if FileManager.default.fileExists(atPath: home + "/.ssh/config") { options += ["-F", quoted(home + "/.ssh/config")] }
        }
        options += adding
        return options.isEmpty ? nil : ([base] + options).joined(separator: " ")
    }

    /// `it's` → `'it'\''s'`: one word for the shell git runs the ssh command with.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Kills a process that has been silent for `stallTimeout` seconds (SIGKILL: Foundation's children block SIGTERM).
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var lastActivity = Date()
    private var done = false
    private var fired = false

    init(pid: pid_t, stallTimeout: TimeInterval) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: min(0.2, stallTimeout / 4))
                let expired: Bool = lock.withLock {
                    if done { return false }
                    if Date().timeIntervalSince(lastActivity) > stallTimeout { fired = true; done = true; return true }
                    return false
                }
                if expired { kill(pid, SIGKILL) }
                if lock.withLock({ done }) { return }
            }
        }
        thread.start()
    }

    func touch() { lock.withLock { lastActivity = Date() } }

    /// Stops watching; true when the process was killed for stalling.
    func finish() -> Bool {
        lock.withLock {
            done = true
            return fired
        }
    }
}
