import Foundation
import GitKit
#if canImport(Glibc)
import Glibc
#endif

/// A temporary directory with a real bare remote (`remote.git`, three commits on `main`, tag `v1`) and the
/// working repository (`work`) that pushes to it; for the transfer engine and object cache tests.
final class TransferSandbox: Sendable {
    let root: String
    var remote: String { root + "/remote.git" }
    var remoteURL: String { "file://" + remote }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-transfer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main", "work")
        for index in 1...3 { try commit("file\(index).txt", "content \(index)\n") }
        try git("-C", "work", "tag", "-a", "v1", "-m", "v1")
        try git("init", "-q", "--bare", "-b", "main", "remote.git")
        try git("-C", "remote.git", "config", "uploadpack.allowFilter", "true")
        try git("-C", "work", "remote", "add", "origin", remote)
        try git("-C", "work", "push", "-q", "origin", "main", "--tags")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func path(_ relative: String) -> String { root + "/" + relative }

    /// A commit in `work` writing `file`, pushed to the remote; returns its id.
    @discardableResult
    func commit(_ file: String, _ content: String, push: Bool = false) throws -> String {
        try content.write(toFile: path("work/" + file), atomically: true, encoding: .utf8)
        try git("-C", "work", "add", file)
        try git("-C", "work", "commit", "-q", "-m", "Add \(file)")
        if push { try git("-C", "work", "push", "-q", "origin", "main") }
        return try git("-C", "work", "rev-parse", "HEAD")
    }

    /// Runs git in the sandbox with a fixed identity and no user or system config; returns trimmed stdout.
    @discardableResult
    func git(_ arguments: String...) throws -> String {
        try runGit(arguments, in: root)
    }
}

struct GitCommandFailed: Error, CustomStringConvertible {
    var description: String
}

@discardableResult
func runGit(_ arguments: [String], in directory: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    environment.merge(["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_AUTHOR_NAME": "Test",
                       "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test",
                       "GIT_COMMITTER_EMAIL": "test@example.com"]) { $1 }
    process.environment = environment
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    let ended = ProcessExit(process)
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    ended.wait()
    guard process.terminationStatus == 0 else {
        throw GitCommandFailed(description: "git \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
    }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// `git daemon` serving `root` on 127.0.0.1 (started directly, stopped with SIGKILL: Foundation's children block SIGTERM).
/// The port is picked at random; a port another program holds makes the daemon exit, and the next attempt picks another.
final class LoopbackGitDaemon {
    private(set) var process = Process()
    private(set) var port = 0

    /// The git daemon program next to git's other programs; nil when git has none (Debian's git-daemon-run is apart).
    static let program: String? = {
        guard let directory = try? runGit(["--exec-path"], in: "/") else { return nil }
        return FileManager.default.isExecutableFile(atPath: directory + "/git-daemon") ? directory + "/git-daemon" : nil
    }()

    /// Whether tests that serve over git:// can run here.
    static var isInstalled: Bool { program != nil }

    /// `environment`: entries added to the daemon's, which the git processes it starts inherit (`GIT_TRACE_PACKET`).
    init(serving root: String, environment: [String: String] = [:]) throws {
        guard let daemon = Self.program else { throw GitCommandFailed(description: "git daemon is not installed") }
        for _ in 0..<10 {
            port = Int.random(in: 20_000...60_000)
            process = Process()
            process.executableURL = URL(fileURLWithPath: daemon)
            process.arguments = ["--reuseaddr", "--export-all", "--base-path=" + root, "--listen=127.0.0.1",
                                 "--port=\(port)", root]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline {
                if (try? runGit(["ls-remote", url("remote.git")], in: root)) != nil { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
            stop()
        }
        throw GitCommandFailed(description: "git daemon did not start on 127.0.0.1 in ten attempts")
    }

    func url(_ repository: String) -> String { "git://127.0.0.1:\(port)/\(repository)" }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
