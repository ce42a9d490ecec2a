import Foundation
import GitKit
import Testing

/// One temporary root per test process, with a gitconfig that both libgit2 and the git CLI use instead of the user's.
struct TestEnvironment: Sendable {
    let root: String
    let home: String
    let gitconfig: String

    static let shared = TestEnvironment()

    private init() {
        let fileManager = FileManager.default
        root = NSTemporaryDirectory() + "gitkit-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        home = root + "/home"
        gitconfig = home + "/.gitconfig"
        let empty = root + "/empty-config-dir"
        try! fileManager.createDirectory(atPath: home, withIntermediateDirectories: true)
        try! fileManager.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let config = """
            [user]
            \tname = GitKit Tester
            \temail = tester@example.com
            [init]
            \tdefaultBranch = main
            [protocol "file"]
            \tallow = always

            """
        try! config.write(toFile: gitconfig, atomically: true, encoding: .utf8)
        try! GitKit.setConfigSearchPath(global: home, xdg: empty, system: empty)
        atexit { try? FileManager.default.removeItem(atPath: TestEnvironment.shared.root) }
    }
}

/// A per-test directory; call `cleanup()` in a `defer`.
final class Sandbox {
    let path: String

    init() throws {
        path = TestEnvironment.shared.root + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func cleanup() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the sandbox.
    func at(_ relative: String) -> String { path + "/" + relative }
}

struct CommandFailed: Error, CustomStringConvertible {
    let description: String
}

/// Runs a program with the test git environment and returns its trimmed stdout; throws on a non-zero exit.
@discardableResult
func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.environment = gitEnvironment()
    let outPath = TestEnvironment.shared.root + "/out-" + UUID().uuidString
    let errPath = outPath + ".err"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer {
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let ended = ProcessExit(process)
    try process.run()
    ended.wait()
    try out.close()
    try err.close()
    let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0 else {
        throw CommandFailed(description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr)")
    }
    return stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The environment for the git CLI: the test gitconfig as global config, no system config, HOME in the temp dir.
func gitEnvironment() -> [String: String] {
    let env = TestEnvironment.shared
    return [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": env.home,
        "GIT_CONFIG_GLOBAL": env.gitconfig,
        "GIT_CONFIG_NOSYSTEM": "1",
        "LANG": "C",
    ]
}

/// Runs `git -C directory arguments…`.
@discardableResult
func git(_ arguments: String..., in directory: String) throws -> String {
    try run("/usr/bin/git", ["-C", directory] + arguments)
}

/// Writes a text file, creating parent directories.
func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                            withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}

func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// Writes a file and commits everything with the git CLI; returns the new commit id.
@discardableResult
func commitFile(_ repo: String, _ file: String, _ content: String, _ message: String) throws -> OID {
    try write(content, to: repo + "/" + file)
    try git("add", "-A", in: repo)
    try git("commit", "-q", "-m", message, in: repo)
    return try #require(OID(hex: try git("rev-parse", "HEAD", in: repo)))
}

/// A work tree made by the git CLI and not yet committed: `files` files over `modules` directories
/// (`Sources/Module<n>/Deep/File<i>.swift`), the executable `scripts/run.sh` staged with git's own mode, and the
/// symbolic link `link` to it. The index is the one git writes, for tests that read it.
func makeGitWorkTree(_ sandbox: Sandbox, files: Int, modules: Int) throws -> String {
    let work = sandbox.at("work")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    try git("init", "-q", "-b", "main", work, in: sandbox.path)
    for index in 0..<files {
        try write("file \(index)\n", to: work + "/Sources/Module\(index % modules)/Deep/File\(index).swift")
    }
    try write("#!/bin/sh\n", to: work + "/scripts/run.sh")
    try git("update-index", "--chmod=+x", "--add", "scripts/run.sh", in: work)
    try FileManager.default.createSymbolicLink(atPath: work + "/link", withDestinationPath: "scripts/run.sh")
    return work
}

/// A bare remote built with the git CLI from a seed work tree.
///
/// History: c1 "Initial commit" (README.md) → c2 "Add notes" (notes.txt, tagged v1.0 annotated)
/// → c3 "Remove notes" on main; develop branches from c2 with d1 "Develop work" (dev.txt).
struct RemoteFixture {
    let seed: String
    let bare: String
    let c1: OID, c2: OID, c3: OID, d1: OID

    /// The `file://` URL of the bare remote.
    var fileURL: String { "file://" + bare }

    init(in sandbox: Sandbox) throws {
        seed = sandbox.at("seed")
        bare = sandbox.at("remote.git")
        try run("/usr/bin/git", ["init", "-q", "-b", "main", seed])
        c1 = try commitFile(seed, "README.md", "hello\n", "Initial commit")
        try write("note\n", to: seed + "/notes.txt")
        c2 = try commitFile(seed, "README.md", "hello\nworld\n", "Add notes")
        try git("tag", "-a", "v1.0", "-m", "Version 1.0", in: seed)
        try git("checkout", "-q", "-b", "develop", in: seed)
        d1 = try commitFile(seed, "dev.txt", "dev\n", "Develop work")
        try git("checkout", "-q", "main", in: seed)
        try git("rm", "-q", "notes.txt", in: seed)
        try git("commit", "-q", "-m", "Remove notes", in: seed)
        c3 = try #require(OID(hex: try git("rev-parse", "HEAD", in: seed)))
        try run("/usr/bin/git", ["clone", "-q", "--bare", seed, bare])
    }

    /// Adds a commit to the remote's `branch` through a scratch clone; returns its id.
    @discardableResult
    func pushNewCommit(in sandbox: Sandbox, branch: String = "main", file: String, content: String,
                       message: String) throws -> OID {
        let scratch = sandbox.at("scratch-" + UUID().uuidString.prefix(6))
        try run("/usr/bin/git", ["clone", "-q", "-b", branch, bare, scratch])
        let oid = try commitFile(scratch, file, content, message)
        try git("push", "-q", "origin", branch, in: scratch)
        return oid
    }

    /// `git rev-parse` inside the bare remote.
    func remoteRevParse(_ revision: String) throws -> String {
        try run("/usr/bin/git", ["--git-dir=" + bare, "rev-parse", revision])
    }
}

/// Asserts that `body` throws a GitError with `code`, and returns it for further checks.
@discardableResult
func expectGitError<T>(_ code: GitError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                       _ body: () throws -> T) -> GitError? {
    do {
        _ = try body()
        Issue.record("expected GitError \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as GitError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected GitError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
