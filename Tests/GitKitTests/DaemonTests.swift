import Foundation
@testable import GitKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The `git daemon` program next to the git CLI, nil when it is not installed.
///
/// It is started directly (not through the `git` wrapper) because children spawned by Foundation's
/// `Process` inherit a mask that blocks SIGTERM; only SIGKILL stops them, and killing the wrapper
/// would orphan the real daemon.
let gitDaemonPath: String? = {
    guard let execPath = try? run("/usr/bin/git", ["--exec-path"]) else { return nil }
    let path = execPath + "/git-daemon"
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}()

@Suite struct DaemonTests {
    @Test(.enabled(if: gitDaemonPath != nil, "git daemon is not installed; skipping the git:// clone test"))
    func cloneOverGitProtocol() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let daemon = try LoopbackDaemon(serving: sandbox.path)
        defer { daemon.stop() }

        let recorder = ProgressRecorder()
        let url = daemon.url("remote.git")
        let repo = try Repository.clone(url: url, to: sandbox.at("clone"),
                                        options: CloneOptions(progress: { recorder.record($0) }))
        #expect(recorder.calls > 0)
        #expect(try repo.remoteURL("origin") == url)
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))
        #expect(try read(sandbox.at("clone/README.md")) == "hello\nworld\n")

        let newer = try fixture.pushNewCommit(in: sandbox, file: "daemon.txt", content: "over git://\n", message: "Daemon")
        try repo.fetch(remote: "origin")
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == newer)
    }
}

/// git daemon serving every repository under a directory on 127.0.0.1; `stop()` it in a `defer`.
final class LoopbackDaemon {
    let port: UInt16
    private let process = Process()

    /// With `log`, git daemon's --verbose messages (one "[pid] Disconnected" per connection, with "(with error)" when
    /// its process failed) go to that file.
    init(serving root: String, log: String? = nil) throws {
        port = try #require(freeLoopbackPort(), "no free port on 127.0.0.1")
        process.executableURL = URL(fileURLWithPath: try #require(gitDaemonPath))
        process.arguments = ["--reuseaddr", "--base-path=" + root, "--export-all", "--listen=127.0.0.1", "--port=\(port)"]
            + (log == nil ? [] : ["--verbose"]) + [root]
        process.environment = gitEnvironment()
        process.standardOutput = FileHandle.nullDevice
        if let log {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: log)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        guard waitUntilAccepting(port: port, timeout: 10) else {
            stop()
            throw CommandFailed(description: "git daemon did not start listening on port \(port)")
        }
    }

    func url(_ repository: String) -> String { "git://127.0.0.1:\(port)/\(repository)" }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Asks the kernel for an unused TCP port on 127.0.0.1.
private func freeLoopbackPort() -> UInt16? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = loopbackAddress(port: 0)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { return nil }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return named == 0 ? UInt16(bigEndian: address.sin_port) : nil
}

/// Polls until something accepts TCP connections on 127.0.0.1:`port`.
private func waitUntilAccepting(port: UInt16, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(fd)
        if connected == 0 { return true }
        usleep(50_000)
    }
    return false
}

private func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
