import Foundation
import GitKit
import Testing

/// A temporary directory with its own HOME and git configuration, so neither the user's
/// `~/.gitconfig` nor anything else outside it leaks into a test; removed when the test ends.
final class Sandbox {
    let root: URL
    let home: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("modkit-e2e-\(UUID().uuidString.prefix(8))", isDirectory: true)
            .resolvingSymlinksInPath()
        home = root.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try """
        [user]
        \tname = modkit test
        \temail = test@modkit.invalid
        [init]
        \tdefaultBranch = main
        [protocol "file"]
        \tallow = always
        """.write(to: home.appendingPathComponent(".gitconfig"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The environment every child process gets: HOME and git config point into the sandbox.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["GIT_CONFIG_GLOBAL"] = home.appendingPathComponent(".gitconfig").path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["NO_COLOR"] = "1"
        environment["LC_ALL"] = "C"
        return environment
    }

    func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    func write(_ text: String, to relative: String) throws {
        let file = url(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    func read(_ relative: String) throws -> String { try String(contentsOf: url(relative), encoding: .utf8) }

    /// Runs the git CLI and returns its trimmed stdout; a failure fails the calling test with git's stderr.
    @discardableResult
    func git(_ arguments: String..., in directory: String = ".") throws -> String {
        let result = try run("/usr/bin/env", ["git"] + arguments, in: url(directory))
        guard result.status == 0 else {
            throw SandboxError("git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.err)")
        }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs the built `modkit` binary.
    func modkit(_ arguments: String..., in directory: String = ".") throws -> ProcessResult {
        try run(Sandbox.modkitBinary.path, arguments, in: url(directory))
    }

    /// Starts the built `modkit` binary in the background (output discarded), for tests that interrupt it.
    func spawnModkit(_ arguments: [String], in directory: String, extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = Sandbox.modkitBinary
        process.arguments = arguments
        process.currentDirectoryURL = url(directory)
        process.environment = environment.merging(extra) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Sends `signal` (SIGKILL unless told) to `process` once `path` (relative to the sandbox) exists, plus up to `extra`
    /// seconds more, and waits for it. Random delays alone land where a slow machine's start-up puts them; aiming at a file the run
    /// writes in the middle of its work makes sure some kills land there. Returns false when the process ended, or
    /// `timeout` passed, before the file appeared.
    @discardableResult
    func kill(_ process: Process, whenExists path: String, extra: TimeInterval = 0, signal: Int32 = SIGKILL,
              timeout: TimeInterval = 60) -> Bool {
        let full = url(path).path
        let deadline = Date().addingTimeInterval(timeout)
        var seen = false
        while process.isRunning && Date() < deadline {
            if FileManager.default.fileExists(atPath: full) { seen = true; break }
            usleep(200)
        }
        if seen && extra > 0 { usleep(UInt32(Double.random(in: 0...extra) * 1_000_000)) }
        Foundation.kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return seen
    }

    /// A module repository with one commit (`src/<name>`), published as the bare remote `remotes/<name>.git`. Built once
    /// per test process for each name, version and branch, then copied (`cp -a`) into every sandbox that asks for it.
    func makeRemote(_ name: String, version: String = "1.0.0", branch: String = "main") throws {
        let fixture = try FixtureCache.directory(for: ["remote", name, version, branch]) { built in
            try built.buildRemote(name, version: version, branch: branch)
        }
        try copyFixture(fixture)
    }

    /// What `makeRemote` builds, written into this sandbox.
    func buildRemote(_ name: String, version: String, branch: String) throws {
        let work = "src/\(name)"
        try write("Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '\(version)'\nend\n", to: "\(work)/\(name).podspec")
        try write("public enum \(name) {}\n", to: "\(work)/Sources/\(name)/\(name).swift")
        try git("init", "-q", "-b", branch, in: work)
        try git("add", "-A", in: work)
        try git("commit", "-qm", "\(name) \(version)", in: work)
        try FileManager.default.createDirectory(at: url("remotes"), withIntermediateDirectories: true)
        try git("clone", "-q", "--bare", work, "remotes/\(name).git")
    }

    /// Copies everything in a cached fixture into the sandbox root, merging with the folders already here (`cp -a`).
    func copyFixture(_ fixture: URL) throws {
        let result = try run("/bin/cp", ["-a", fixture.path + "/.", root.path + "/"], in: root)
        guard result.status == 0 else { throw SandboxError("cp -a \(fixture.path): \(result.err)") }
    }

    func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> ProcessResult {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let outFile = root.appendingPathComponent(".out-\(UUID().uuidString)")
        let errFile = root.appendingPathComponent(".err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outFile)
            try? FileManager.default.removeItem(at: errFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        let ended = ProcessExit(process)
        try process.run()
        ended.wait()
        return ProcessResult(
            status: process.terminationStatus,
            out: try String(contentsOf: outFile, encoding: .utf8),
            err: try String(contentsOf: errFile, encoding: .utf8)
        )
    }

    /// The `modkit` executable built next to this test bundle (or `MODKIT_BIN`).
    static let modkitBinary: URL = {
        if let path = ProcessInfo.processInfo.environment["MODKIT_BIN"] { return URL(fileURLWithPath: path) }
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundleDirectory.appendingPathComponent("modkit"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("modkit"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/modkit"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()
}

struct ProcessResult {
    var status: Int32
    var out: String
    var err: String
}

struct SandboxError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Fixtures built once per test process and copied into each test's sandbox: a test that needs the same repositories as
/// another pays one `cp -a` instead of building them again with git. Each is built in a sandbox of its own (the same HOME
/// and git configuration every sandbox has) and kept until the test process exits.
enum FixtureCache {
    private static let lock = NSRecursiveLock()   // a fixture may be built from others
    nonisolated(unsafe) private static var built: [[String]: URL] = [:]
    private static let root: URL = {
        atexit { try? FileManager.default.removeItem(at: FixtureCache.root) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("modkit-fixtures-\(getpid())", isDirectory: true)
    }()

    /// The folder holding the fixture named by `key` (built by `build` into a fresh sandbox the first time; later callers
    /// wait for that build). Its contents are the sandbox's files, to be copied with `Sandbox.copyFixture`.
    static func directory(for key: [String], build: (Sandbox) throws -> Void) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let done = built[key] { return done }
        let sandbox = try Sandbox()
        try build(sandbox)
        try FileManager.default.removeItem(at: sandbox.home)   // each sandbox keeps its own HOME
        let destination = root.appendingPathComponent("\(built.count)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: sandbox.root, to: destination)
        built[key] = destination
        return destination
    }
}
