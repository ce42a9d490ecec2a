import Foundation
@testable import GitKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// modkit's own reading of a git:// server's reference list (`GitDaemonListing`): the same list as git's, a server
/// process that ends before the connection does, and a clear failure for anything malformed.
@Suite struct GitDaemonListingTests {
    /// A remote with HEAD, branches, an annotated tag (and so a peeled line) and 3,000 long-named branches: an
    /// advertisement of several hundred KiB, read over many receives. Also an empty repository, and one not served.
    @Test(.enabled(if: gitDaemonPath != nil, "git daemon is not installed"))
    func listsWhatGitsLsRemoteListsOverProtocolV0() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        try git("tag", "light", fixture.c1.description, in: fixture.bare)
        let lines = (1...3_000).map { "create refs/heads/team/\(String(repeating: "long-branch-name-", count: 4))\($0) \(fixture.d1)\n" }
        try write(lines.joined(), to: sandbox.at("updates"))
        try run("/bin/sh", ["-c", "git update-ref --stdin < '\(sandbox.at("updates"))'"], in: fixture.bare)
        try run("/usr/bin/git", ["init", "-q", "--bare", sandbox.at("empty.git")])
        let daemon = try LoopbackDaemon(serving: sandbox.path)
        defer { daemon.stop() }

        let url = try #require(GitDaemonURL(daemon.url("remote.git")))
        let listed = try GitDaemonListing.references(of: url, timeout: 30).map { "\($0.target)\t\($0.name)" }
        let gits = try git("-c", "protocol.version=0", "ls-remote", daemon.url("remote.git"), in: sandbox.path)
        #expect(listed.count == 3_006)  // HEAD, develop, main, 3,000 branches, light, v1.0 and v1.0^{}
        #expect(listed == gits.split(separator: "\n").map(String.init))
        #expect(listed.contains("\(fixture.c2)\trefs/tags/v1.0^{}"))

        let empty = try #require(GitDaemonURL(daemon.url("empty.git")))
        #expect(try GitDaemonListing.references(of: empty, timeout: 30).isEmpty)

        let missing = try #require(GitDaemonURL(daemon.url("missing.git")))
        #expect {
            try GitDaemonListing.references(of: missing, timeout: 30)
        } throws: { error in
            "\(error)".contains("the server answered: access denied or repository not exported")
        }
    }

    /// The request carries the flush that says the client wants nothing, so git daemon's process for the connection
    /// answers and exits while the connection is still open: it holds one of the daemon's 32 processes for no round
    /// trip. (libgit2 says it wants nothing only when it closes.)
    @Test(.enabled(if: gitDaemonPath != nil, "git daemon is not installed"))
    func theServersProcessEndsBeforeTheConnectionDoes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        _ = try RemoteFixture(in: sandbox)
        let log = sandbox.at("daemon.log")
        let daemon = try LoopbackDaemon(serving: sandbox.path, log: log)
        defer { daemon.stop() }
        let url = try #require(GitDaemonURL(daemon.url("remote.git")))
        let addresses = try GitDaemonSocket.addresses(of: url.host, port: url.port)
        let socket = try GitDaemonSocket(connectingTo: addresses)
        var entry = pollfd(fd: socket.descriptor, events: Int16(POLLOUT), revents: 0)
        try #require(poll(&entry, 1, 30_000) == 1)
        try socket.finishConnecting(addresses)
        try socket.sendAll(GitDaemonListing.request(for: url), timeout: 30)
        var parser = AdvertisementParser()
        while !parser.finished, let chunk = try socket.receive(timeout: 30) { try parser.read(chunk) }
        #expect(parser.references.count == 5)
        // The connection is still open here, and the server's process has ended on its own, without an error. (git daemon
        // started by Foundation's Process has SIGCHLD blocked and reaps its processes only when a connection comes in:
        // each further listing lets it log the ones that ended.)
        func logged() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let first = try #require(logged().split(separator: "\n").first { $0.contains("Request upload-pack") }?
            .split(separator: "]").first?.dropFirst())
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !logged().contains("[\(first)] Disconnected") {
            _ = try GitDaemonListing.references(of: url, timeout: 30)
        }
        #expect(logged().contains("[\(first)] Disconnected\n"), "\(logged())")
        #expect(try socket.receive(timeout: 30) == nil)  // and it closed its end
    }

    @Test func readsTheAdvertisementInAnyChunksAndRefusesWhatIsMalformed() throws {
        let head = "0123456789abcdef0123456789abcdef01234567"
        let tag = "89abcdef0123456789abcdef0123456789abcdef"
        func line(_ text: String) -> String { String(format: "%04x", text.utf8.count + 4) + text }
        let advertisement = line("\(head) HEAD\0multi_ack thin-pack side-band object-format=sha1 agent=git/2.39\n")
            + line("\(head) refs/heads/main\n") + line("\(tag) refs/tags/v1\n") + line("\(head) refs/tags/v1^{}\n") + "0000"
        var parser = AdvertisementParser()
        for byte in advertisement.utf8 { try parser.read(Data([byte])) }
        #expect(parser.finished)
        #expect(parser.references.map(\.name) == ["HEAD", "refs/heads/main", "refs/tags/v1", "refs/tags/v1^{}"])
        #expect(parser.references.map(\.target.description) == [head, head, tag, head])

        var empty = AdvertisementParser()
        try empty.read(Data((line("\(String(repeating: "0", count: 40)) capabilities^{}\0agent=git/2.39\n") + "0000").utf8))
        #expect(empty.finished && empty.references.isEmpty)

        var versioned = AdvertisementParser()
        try versioned.read(Data((line("version 1\n") + line("\(head) HEAD\0agent=x\n") + "0000").utf8))
        #expect(versioned.references.map(\.name) == ["HEAD"])
        #expect(parser.capabilities == ["multi_ack", "thin-pack", "side-band", "object-format=sha1", "agent=git/2.39"])
        #expect(!parser.serverIsShallow)

        // a shallow server's list: its shallow commits after its references
        var shallow = AdvertisementParser()
        try shallow.read(Data((line("\(head) refs/heads/main\0side-band-64k\n") + line("shallow \(tag)\n") + "0000").utf8))
        #expect(shallow.finished && shallow.serverIsShallow && shallow.references.map(\.name) == ["refs/heads/main"])

        let malformed: [(String, String)] = [
            ("zz12", "four hex digits"),
            ("0002", "a packet length of 2"),
            ("fff5", "a packet length of 65525"),
            (line("ERR no such repository\n"), "the server answered: no such repository"),
            (line("\(head)\n"), "not an object id and a name"),
            (line("\(head.dropLast())x HEAD\n"), "not an object id and a name"),
            (line("\(head) HEAD\0object-format=sha256\n"), "another hash than SHA-1"),
            (line("\(head) HEAD\n") + line("\(head) refs/heads/x\0caps\n"), "capabilities after the first reference"),
            (line("\(head) HEAD\n") + "0000" + "0008", "data after the end"),
            (line("\(head) HEAD\n") + line("shallow \(tag.dropLast())\n"), "a shallow line that is not an object id"),
            (line("shallow \(tag)\n") + line("\(head) HEAD\n"), "a reference after the shallow lines"),
        ]
        for (input, message) in malformed {
            var parser = AdvertisementParser()
            #expect(throws: GitDaemonListingFailure.self, "\(input)") { try parser.read(Data(input.utf8)) }
            do { try parser.read(Data(input.utf8)) } catch {
                #expect("\(error)".contains(message), "\(input): \(error)")
            }
        }
    }

    @Test func takesOnlyPlainGitURLsApart() throws {
        let plain = try #require(GitDaemonURL("git://example.com/team/App.git"))
        #expect(plain.host == "example.com" && plain.port == "9418" && plain.hostAttribute == "example.com" && plain.path == "/team/App.git")
        let withPort = try #require(GitDaemonURL("GIT://example.com:9999/App"))
        #expect(withPort.port == "9999" && withPort.hostAttribute == "example.com:9999" && withPort.path == "/App")
        let ipv6 = try #require(GitDaemonURL("git://[::1]:9419/App.git"))
        #expect(ipv6.host == "::1" && ipv6.port == "9419" && ipv6.hostAttribute == "[::1]:9419")
        // git sends `~user/...` for `/~user/...`, as git daemon's --user-path reads it
        #expect(GitDaemonURL("git://example.com/~alice/App.git")?.path == "~alice/App.git")
        for url in ["https://example.com/App.git", "git://example.com", "git://example.com/", "git://user@example.com/App",
                    "git://example.com/My%20App.git", "git://example.com/App?x", "git://example.com/A pp", "git://:9418/App",
                    "git://example.com:0/App", "git://example.com:http/App", "git://[::1/App", "ssh://example.com/App"] {
            #expect(GitDaemonURL(url) == nil, "\(url)")
        }
    }

    /// A second connection is opened once the first has waited longer than the server's answers take: three times the
    /// fastest until eight answers have come, then the fastest plus twice its distance to the slowest tenth, between 1.5
    /// and 3 times the fastest, never under 0.1 s.
    @Test func theSecondConnectionWaitsAsLongAsTheServersSlowAnswersTake() {
        let times = AnswerTimes()
        #expect(times.hedgeDelay(for: "far") == nil)
        for milliseconds in [103, 100, 104, 101, 102, 105, 101] { times.record(.milliseconds(milliseconds), for: "far") }
        #expect(abs(times.hedgeDelay(for: "far")! - 0.300) < 0.0001, "7 answers: three times the fastest")
        times.record(.milliseconds(106), for: "far")
        // a tight spread: 1.5 times the fastest
        #expect(abs(times.hedgeDelay(for: "far")! - 0.150) < 0.0001)
        for _ in 0..<8 { times.record(.milliseconds(140), for: "far") }
        // the slowest tenth at 140 ms: 100 + 2 * 40
        #expect(abs(times.hedgeDelay(for: "far")! - 0.180) < 0.0001)
        for _ in 0..<8 { times.record(.milliseconds(400), for: "far") }
        #expect(abs(times.hedgeDelay(for: "far")! - 0.300) < 0.0001, "a wide spread: at most three times the fastest")
        for _ in 0..<10 { times.record(.milliseconds(2), for: "near") }
        #expect(times.hedgeDelay(for: "near") == 0.1)
        #expect(abs(times.hedgeDelay(for: "far")! - 0.300) < 0.0001, "each server on its own")
    }

    /// A server that has not begun to answer after the hedging delay is asked again over a second connection, and the
    /// first answer is read: here the first connection is never answered (as one whose syn was lost, or whose server
    /// stalled), and the listing still returns, from the second.
    @Test func aServerSilentOnTheFirstConnectionIsAskedAgainOverASecond() throws {
        let (listener, port) = try listeningOnLoopback()
        defer { close(listener) }
        let head = "0123456789abcdef0123456789abcdef01234567"
        let line = "\(head) refs/heads/main\0agent=test\n"
        let answer = Array((String(format: "%04x", line.utf8.count + 4) + line + "0000").utf8)
        let accepted = LockedCount()
        let server = Thread {
            let silent = accept(listener, nil, nil)  // held open, never answered
            accepted.add()
            let second = accept(listener, nil, nil)
            accepted.add()
            var request = [UInt8](repeating: 0, count: 4_096)
            var received: [UInt8] = []
            while !received.suffix(4).elementsEqual("0000".utf8) {
                let count = recv(second, &request, request.count, 0)
                if count <= 0 { break }
                received += request[0..<count]
            }
            _ = answer.withUnsafeBytes { send(second, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(second)
            usleep(500_000)
            close(silent)
        }
        server.start()
        let url = try #require(GitDaemonURL("git://127.0.0.1:\(port)/App.git"))
        let listed = try GitDaemonListing.references(of: url, timeout: 30, hedgeAfter: 0.2)
        #expect(listed.map(\.name) == ["refs/heads/main"])
        #expect(accepted.value == 2)
    }

    /// A listing of a git:// remote by `Repository.remoteReferences` (release's and snapshot push's checks) is modkit's
    /// own: a first connection the server never answers is asked again over a second, which lists the references.
    /// Through libgit2 it waited on the silent one until the network timeout (60 s).
    @Test(.enabled(if: gitDaemonPath != nil, "git daemon is not installed"))
    func remoteReferencesAsksASilentServerAgainOverASecondConnection() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let daemon = try LoopbackDaemon(serving: sandbox.path)
        defer { daemon.stop() }
        let (listener, port) = try listeningOnLoopback()
        defer { close(listener) }
        let accepted = LockedCount()
        let daemonPort = daemon.port
        let server = Thread {
            let silent = accept(listener, nil, nil)  // held open, never answered
            accepted.add()
            let second = accept(listener, nil, nil)
            accepted.add()
            forward(second, toPort: daemonPort)
            close(silent)
        }
        server.start()
        AnswerTimes.shared.record(.milliseconds(20), for: "127.0.0.1:\(port)")  // the server has answered in 20 ms before
        let repository = try Repository.create(at: sandbox.at("clone"))
        try repository.addRemote("origin", url: "git://127.0.0.1:\(port)/remote.git")
        let started = Date()
        let references = try repository.remoteReferences("origin")
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(references.contains { $0.name == "refs/heads/main" && $0.target == fixture.c3 })
        #expect(accepted.value == 2)
    }

    /// Like git, the listing tries the server's addresses in turn: an address that refuses (or that this machine
    /// cannot reach) passes the connection on to the next.
    @Test(.enabled(if: gitDaemonPath != nil, "git daemon is not installed"))
    func anAddressThatRefusesPassesTheConnectionToTheNext() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        _ = try RemoteFixture(in: sandbox)
        let daemon = try LoopbackDaemon(serving: sandbox.path)
        defer { daemon.stop() }
        let url = try #require(GitDaemonURL(daemon.url("remote.git")))
        // IPv6 loopback first (git daemon listens on 127.0.0.1 alone), then the address it listens on.
        let addresses = try GitDaemonSocket.addresses(of: "::1", port: url.port) + GitDaemonSocket.addresses(of: url.host, port: url.port)
        let socket = try GitDaemonSocket(connectingTo: addresses)
        let deadline = Date().addingTimeInterval(30)
        while !socket.isConnected, Date() < deadline {
            var entry = pollfd(fd: socket.descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, 1_000)
            try socket.finishConnecting(addresses)
        }
        try socket.sendAll(GitDaemonListing.request(for: url), timeout: 30)
        var parser = AdvertisementParser()
        while !parser.finished, let chunk = try socket.receive(timeout: 30) { try parser.read(chunk) }
        #expect(parser.references.map(\.name).contains("refs/heads/main"))
    }

    /// A server that accepts and never answers is given up on after the timeout, not waited on for ever.
    @Test func aServerThatNeverAnswersIsGivenUpOnAfterTheTimeout() throws {
        let (listener, port) = try listeningOnLoopback()
        defer { close(listener) }
        let url = try #require(GitDaemonURL("git://127.0.0.1:\(port)/App.git"))
        let started = Date()
        #expect {
            try GitDaemonListing.references(of: url, timeout: 0.3)
        } throws: { error in
            "\(error)".contains("timed out waiting for the server")
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel chose, and that port; close the socket when done.
func listeningOnLoopback() throws -> (Int32, UInt16) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
        }
    }
    guard listening else {
        close(listener)
        throw CommandFailed(description: "cannot listen on 127.0.0.1")
    }
    return (listener, UInt16(bigEndian: address.sin_port))
}

final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Copies bytes both ways between `client` and git daemon on `port` until either side closes.
func forward(_ client: Int32, toPort port: UInt16) {
    let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { close(client); close(upstream); return }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        var entries = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
        guard poll(&entries, 2, 30_000) > 0 else { break }
        let (from, to) = entries[0].revents != 0 ? (client, upstream) : (upstream, client)
        let count = recv(from, &buffer, buffer.count, 0)
        if count <= 0 { break }
        _ = buffer.withUnsafeBytes { send(to, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
    }
    close(client)
    close(upstream)
}
