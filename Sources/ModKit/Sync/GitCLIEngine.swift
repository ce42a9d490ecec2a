import Foundation
import GitKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Clone and fetch by the user's `git`: its index-pack on every core, its negotiation, its transports and
/// credential helpers. Never prompts without a terminal; stops a transfer that stalls.
public struct GitCLIEngine: TransferEngine {
    let git: String

    public init(git: String = "git") {
        self.git = git
    }

    /// True when `git` runs here (for `fetch.engine: auto`).
    public static func isAvailable(git: String = "git") -> Bool {
        (try? GitProcess(git: git, arguments: ["--version"]).run(stallTimeout: 10, progress: nil)) != nil
    }

    public func clone(url: String, to path: String, options: TransferOptions) throws(ModKitError) -> TransferSummary {
        var arguments = ["clone", "--no-checkout", "--progress"]
        if let depth = options.depth { arguments += ["--depth", String(depth), "--no-single-branch"] }
        if let filter = options.filter { arguments += ["--filter=" + filter] }
        if let reference = options.reference { arguments += ["--reference-if-able", reference] }
        arguments += ["--", url, path]
        let output = try GitProcess(git: git, arguments: arguments).run(stallTimeout: options.stallTimeout,
                                                                        progress: options.progress)
        return TransferSummary(progress: output.progress)
    }

    public func fetch(repository path: String, remote: String, options: TransferOptions) throws(ModKitError) -> TransferSummary {
        var arguments = ["-C", path, "fetch", "--progress", "--prune", "--no-tags"]
        if let depth = options.depth { arguments += ["--depth", String(depth)] }
        arguments += [remote, "+refs/heads/*:refs/remotes/\(remote)/*"]
        // Not forced: a tag the remote moved stays as the user has it, and is reported.
        if options.depth == nil { arguments.append("refs/tags/*:refs/tags/*") }
        let output = try GitProcess(git: git, arguments: arguments, toleratesTagClobbers: true)
            .run(stallTimeout: options.stallTimeout, progress: options.progress)
        return TransferSummary(progress: output.progress, keptTags: output.keptTags)
    }
}

/// One run of git: stderr read as it comes (progress, errors), stopped after `stallTimeout` seconds of silence.
struct GitProcess {
    struct Output {
        var progress: TransferProgress
        var keptTags: [String]
    }

    let git: String
    let arguments: [String]
    var toleratesTagClobbers = false

    func run(stallTimeout: TimeInterval, progress: (@Sendable (TransferProgress) -> Void)?) throws(ModKitError) -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [git] + arguments
        process.environment = Self.environment()
        let stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        do { try process.run() } catch {
            throw ModKitError("cannot run \(git): \(error)", hint: "install git, or set fetch.engine: libgit2")
        }
        let watchdog = Watchdog(pid: process.processIdentifier, stallTimeout: stallTimeout)
        var parser = GitProgressParser()
        var messages: [String] = []
        var pending = Data()
        while true {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            watchdog.touch()
            pending.append(chunk)
            while let end = pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending = Data(pending[pending.index(after: end)...])
                if parser.consume(Substring(line)) {
                    progress?(parser.progress)
                } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    messages.append(line)
                }
            }
        }
        process.waitUntilExit()
        let stalled = watchdog.finish()
        let text = Redact.secrets(in: messages.suffix(20).joined(separator: "\n"))
        let command = Redact.secrets(in: "git " + arguments.joined(separator: " "))
        if stalled {
            throw ModKitError("\(command) stopped: no progress for \(Int(stallTimeout)) s\n\(text)",
                              hint: "check the network and the server; the remote may be unreachable")
        }
        let kept = messages.compactMap(Self.clobberedTag)
        let onlyClobbers = toleratesTagClobbers && !kept.isEmpty && !messages.contains { $0.hasPrefix("fatal:") }
        guard process.terminationStatus == 0 || onlyClobbers else {
            throw ModKitError("\(command) failed (exit \(process.terminationStatus)):\n\(text)", hint: Self.hint(for: text))
        }
        return Output(progress: parser.progress, keptTags: kept)
    }

    /// ` ! [rejected]   v1.0  -> v1.0  (would clobber existing tag)` → "v1.0".
    static func clobberedTag(_ line: String) -> String? {
        guard line.contains("(would clobber existing tag)"), let arrow = line.range(of: "-> ") else { return nil }
        return line[arrow.upperBound...].split(separator: " ").first.map(String.init)
    }

    static func hint(for text: String) -> String? {
        let lowered = text.lowercased()
        if lowered.contains("terminal prompts disabled") || lowered.contains("could not read username")
            || lowered.contains("authentication failed") {
            return "store a credential for git (git config --global credential.helper …) or use an ssh url; " +
                "modkit does not let git prompt without a terminal"
        }
        if lowered.contains("could not resolve host") || lowered.contains("connection refused")
            || lowered.contains("failed to connect") {
            return "check the url and that the server is reachable"
        }
        return nil
    }

    /// The caller's environment, with stable wording and no prompt unless a terminal can answer it.
    static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"] {
            environment.removeValue(forKey: name)
        }
        environment["LC_ALL"] = "C"
        if isatty(STDIN_FILENO) == 0 { environment["GIT_TERMINAL_PROMPT"] = "0" }
        return environment
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
