import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One run of the user's `git` for work that GitKit leaves to git because only git gives git's result there: work
/// trees with filter drivers, encodings or sparse patterns, and the answer to "what changed" in such a repository.
/// Transfers do not come through here (ModKit's engines run them, with progress and timeouts).
public struct GitCommand {
    /// The git to run: `MODKIT_GIT` when set, else `git` on PATH.
    static let executable = ProcessInfo.processInfo.environment["MODKIT_GIT"].flatMap { $0.isEmpty ? nil : $0 } ?? "git"

    let arguments: [String]
    /// The directory git runs in (a work tree's top).
    let directory: String
    /// Extra environment entries, e.g. a temporary index.
    var environment: [String: String] = [:]
    /// Bytes for git's standard input.
    var input: Data? = nil

    /// Runs git to the end and returns its standard output; a non-zero exit throws a `GitError` with git's own words.
    @discardableResult
    func run() throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [Self.executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = Self.baseEnvironment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let ended = ProcessExit(process)
        do { try process.run() } catch {
            throw GitError(code: .other(-1), errorClass: "os", message: "cannot run \(Self.executable): \(error)", function: "git \(arguments.first ?? "")")
        }
        // A killed modkit leaves git running (writing a work tree, holding index.lock): whoever watches says so.
        let pid = process.processIdentifier
        GitProcesses.observer?(pid, true)
        defer { GitProcesses.observer?(pid, false) }
        // Standard error is drained on its own thread so that neither pipe can fill up and stall git.
        let errorText = ErrorCollector(errors.fileHandleForReading)
        if let stdin, let input {
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        let message = errorText.text()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let lines = message.split(separator: "\n").filter { !$0.hasPrefix("hint:") }
            throw GitError(code: .other(process.terminationStatus), errorClass: "git",
                           message: lines.suffix(6).joined(separator: "; ").isEmpty ? "exited with \(process.terminationStatus)" : lines.suffix(6).joined(separator: "; "),
                           function: "git " + arguments.prefix { $0 != "--" }.joined(separator: " "))
        }
        return data
    }

    /// The caller's environment without the variables that would point git at another repository; no prompt
    /// without a terminal (a filter such as Git LFS may ask for credentials).
    private static let baseEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        for name in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX"] {
            environment.removeValue(forKey: name)
        }
        if isatty(STDIN_FILENO) == 0 { environment["GIT_TERMINAL_PROMPT"] = "0" }
        return environment
    }()

    /// Whether `git` runs here, asked once per process.
    static let isAvailable = isInstalled(executable)

    /// Whether `git` names an executable here: on PATH (or the path given), found without running it, so that asking
    /// starts no process.
    public static func isInstalled(_ git: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if git.contains("/") { return access(git, X_OK) == 0 }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { directory in
            let candidate = String(directory) + "/" + git
            var info = stat()
            return stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(candidate, X_OK) == 0
        }
    }
}

/// Who is told of each git process GitKit starts and reaps: such a process outlives a killed modkit, and the next
/// run must wait for it before it touches the same repository (ModKit records them in the workspace lock).
public enum GitProcesses {
    /// Set once, before any work starts; called with the pid and `true` when started, `false` when reaped.
    nonisolated(unsafe) public static var observer: (@Sendable (_ pid: Int32, _ running: Bool) -> Void)?
}

/// Reads a pipe to its end on a background thread.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
