import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// A sync asks most git:// servers only whether anything moved. Over protocol v0 the server's first answer is its
// reference list, and git daemon's process for the connection lives until the client says it wants nothing. libgit2
// says that only after it has read the list, so each connection holds one of git daemon's 32 processes (its default
// `--max-connections`) for a whole round trip; past 32 the daemon kills a connection and stops accepting for a second.
// This listing sends "I want nothing" (a flush) along with the request: the server's process answers and exits at
// once, and a sync can keep twice as many listings in flight against one daemon. A remote that moved is then fetched
// over a connection of its own (`RemoteSession`).

/// A `git://host[:port]/path` url in the plain form modkit lists by itself; nil for any other form (user names,
/// percent-encoding, which git decodes, queries), which libgit2 or git handle as before.
struct GitDaemonURL: Equatable {
    /// The host to resolve, without the brackets of an IPv6 literal.
    var host: String
    /// The port as written, or git's 9418.
    var port: String
    /// What git sends as the `host=` attribute: the url's host and port exactly as written.
    var hostAttribute: String
    /// The path git asks for: the url's path, without its first "/" when it starts with "/~" (git's `~user` form).
    var path: String

    init?(_ url: String) {
        guard url.lowercased().hasPrefix("git://") else { return nil }
        let rest = url.dropFirst("git://".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let authority = rest[..<slash]
        let path = rest[slash...]
        // Only printable ASCII without spaces, and nothing git would decode or read as anything but a path.
        guard !authority.isEmpty, path.count > 1,
              url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              !url.contains("%"), !url.contains("?"), !url.contains("#"), !authority.contains("@") else { return nil }
        hostAttribute = String(authority)
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            port = after.isEmpty ? "9418" : String(after.dropFirst())
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        } else {
            host = String(authority)
            port = "9418"
        }
        guard !host.isEmpty, let number = Int(port), (1...65_535).contains(number) else { return nil }
        self.path = path.hasPrefix("/~") ? String(path.dropFirst()) : String(path)
    }
}

/// Why a git:// listing gave no list; the fetch is then left to git, which reports what it finds.
struct GitDaemonListingFailure: Error, CustomStringConvertible {
    var description: String
    /// The server sent nothing for the whole timeout.
    var timedOut = false

    /// As libgit2's transfers report it: a timeout as theirs says it (`RemoteCallbacksBox.run`), anything else as a
    /// network error of `server`.
    func gitError(timeout: TimeInterval, server: String) -> GitError {
        timedOut
            ? GitError(code: .timeout, message: "timed out after \(Int(timeout)) s without data from the server", function: "recv")
            : GitError(code: .other(-1), errorClass: "net", message: "\(server): \(description)", function: "git-upload-pack")
    }
}

enum GitDaemonListing {
    /// The most a reference list may hold before it is taken for a broken server: far above any real repository's.
    static let sizeLimit = 256 << 20

    /// The references the server at `url` advertises, in its order, as `git ls-remote` lists them (peeled tags end in
    /// "^{}"; an empty repository's "capabilities^{}" line is left out). Each wait for the server gives up after
    /// `timeout` seconds, 0 for never. `pacing` runs right before a connection opens. A server that has not begun to
    /// answer after `hedgeAfter` seconds (by default `AnswerTimes`) is asked again over a second connection, and the
    /// first to answer is read: a syn lost at a full queue is sent again only after a second.
    static func references(of url: GitDaemonURL, timeout: TimeInterval, pacing: (() -> Void)? = nil,
                           hedgeAfter: TimeInterval? = nil) throws(GitDaemonListingFailure) -> [RemoteReference] {
        try listing(of: url, timeout: timeout, pacing: pacing, hedgeAfter: hedgeAfter).list.references
    }

    /// The server at `url`'s whole reference list, and the connection that sent it (`references(of:…)` says how it is
    /// asked for). With `wantsNothing` the request says the client wants nothing, and the server's process ends once
    /// it has sent the list; without, the server waits on the connection for what the client wants (`GitDaemonFetch`).
    static func listing(of url: GitDaemonURL, wantsNothing: Bool = true, timeout: TimeInterval, pacing: (() -> Void)?,
                        hedgeAfter: TimeInterval?) throws(GitDaemonListingFailure) -> (socket: GitDaemonSocket, list: AdvertisementParser) {
        let addresses = try GitDaemonSocket.addresses(of: url.host, port: url.port)
        let (socket, first) = try firstAnswer(addresses, request: request(for: url, wantsNothing: wantsNothing), timeout: timeout,
                                              pacing: pacing, server: url.hostAttribute, hedgeAfter: hedgeAfter)
        return (socket, try advertisement(from: socket, startingWith: first, timeout: timeout))
    }

    /// The whole reference list the server sends over `socket`, whose first bytes were `first`.
    private static func advertisement(from socket: GitDaemonSocket, startingWith first: Data,
                                      timeout: TimeInterval) throws(GitDaemonListingFailure) -> AdvertisementParser {
        var parser = AdvertisementParser()
        var chunk: Data? = first
        while true {
            guard let bytes = chunk else {
                throw GitDaemonListingFailure(description: "the server closed the connection before the end of its reference list")
            }
            try parser.read(bytes)
            if parser.size > sizeLimit { throw GitDaemonListingFailure(description: "the reference list is over \(sizeLimit >> 20) MiB") }
            if parser.finished { return parser }
            chunk = try socket.receive(timeout: timeout)
        }
    }

    /// Connects, sends `request` and waits for the first bytes of an answer; once `hedgeAfter` (or `AnswerTimes`'s
    /// delay for `server`) has passed without any, does the same over a second connection. Returns the connection that
    /// answered first, and its first bytes.
    private static func firstAnswer(_ addresses: [GitDaemonSocket.Address], request: Data, timeout: TimeInterval,
                            pacing: (() -> Void)?, server: String,
                            hedgeAfter: TimeInterval?) throws(GitDaemonListingFailure) -> (GitDaemonSocket, Data) {
        pacing?()
        var attempts = [try GitDaemonSocket(connectingTo: addresses)]
        var opened = 1
        let started = ContinuousClock.now
        var openedAt = [started]  // each attempt's, for `AnswerTimes`
        var lastActivity = started
        var lastError: GitDaemonListingFailure?
        while true {
            let now = ContinuousClock.now
            if timeout > 0, lastActivity.duration(to: now) >= .seconds(timeout) {
                // the time limit ended the wait, whatever the other connection met before
                let earlier = lastError.map { " (\($0.description))" } ?? ""
                throw GitDaemonListingFailure(description: "timed out waiting for the server after \(Int(timeout)) s" + earlier, timedOut: true)
            }
            var wait: Duration = timeout > 0 ? .seconds(timeout) - lastActivity.duration(to: now) : .seconds(86_400)
            if opened == 1 {
                if let delay = hedgeAfter ?? AnswerTimes.shared.hedgeDelay(for: server) {
                    let hedgeAt = started + .seconds(delay)
                    if hedgeAt <= now {
                        pacing?()
                        opened += 1
                        if let second = try? GitDaemonSocket(connectingTo: addresses) {
                            attempts.append(second)
                            openedAt.append(.now)
                        }
                        continue
                    }
                    wait = min(wait, now.duration(to: hedgeAt))
                } else {
                    wait = min(wait, .milliseconds(50))  // until another listing has timed the server
                }
            }
            var entries = attempts.map { pollfd(fd: $0.descriptor, events: Int16($0.isSent ? POLLIN : POLLOUT), revents: 0) }
            let milliseconds = Int32(min(max(1, (wait / .milliseconds(1)).rounded(.up)), 86_400_000))
            let ready = poll(&entries, nfds_t(entries.count), milliseconds)
            if ready < 0 {
                guard errno == EINTR else { throw GitDaemonSocket.failure("poll") }
                continue
            }
            var index = entries.count - 1
            while index >= 0 {
                defer { index -= 1 }
                guard entries[index].revents != 0 else { continue }
                lastActivity = .now
                let attempt = attempts[index]
                do throws(GitDaemonListingFailure) {
                    if !attempt.isSent {
                        try attempt.finishConnecting(addresses)
                        if attempt.isConnected { try attempt.sendAll(request, timeout: timeout) }
                    } else if let bytes = try attempt.receiveAvailable() {
                        // closed without a word (git daemon killed the process past its 32): the other may still answer
                        guard !bytes.isEmpty else { throw GitDaemonListingFailure(description: "the server closed the connection without answering") }
                        AnswerTimes.shared.record(openedAt[index].duration(to: .now), for: server)
                        return (attempt, bytes)
                    }
                } catch {
                    lastError = error
                    attempts.remove(at: index)
                    openedAt.remove(at: index)
                }
            }
            if attempts.isEmpty { throw lastError ?? GitDaemonListingFailure(description: "no connection") }
        }
    }

    /// git's request for `url`'s reference list over protocol v0; with `wantsNothing` the flush that says the client
    /// wants nothing follows, and the server's process exits once it has sent the list (`GitDaemonFetch` asks without
    /// it, and says what it wants once it has read the list).
    static func request(for url: GitDaemonURL, wantsNothing: Bool = true) -> Data {
        let line = PacketLine.encode("git-upload-pack \(url.path)\0host=\(url.hostAttribute)\0")
        return wantsNothing ? line + PacketLine.flush : line
    }
}

/// How soon each git:// server has begun to answer a connection in this process, for `GitDaemonListing`'s second
/// connection. A connection that has heard nothing for longer than the server's answers take asks again: the fastest
/// answer plus twice its distance to the slowest tenth of the answers so far, at least 1.5 and at most 3 times the
/// fastest (at least 0.1 s). Until eight answers have come, three times the fastest.
final class AnswerTimes: @unchecked Sendable {
    static let shared = AnswerTimes()
    /// The answers kept per server: the newest, enough for a 90th percentile.
    static let kept = 64
    private let lock = NSLock()
    private var answers: [String: [Duration]] = [:]
    private var fastest: [String: Duration] = [:]

    func record(_ duration: Duration, for server: String) {
        lock.withLock {
            fastest[server] = min(fastest[server] ?? duration, duration)
            var times = answers[server, default: []]
            if times.count == Self.kept { times.removeFirst() }
            times.append(duration)
            answers[server] = times
        }
    }

    /// nil before the server has answered once: nothing yet says how far away it is.
    func hedgeDelay(for server: String) -> TimeInterval? {
        let (quickest, times): (Duration?, [Duration]) = lock.withLock { (fastest[server], answers[server, default: []]) }
        guard let quickest else { return nil }
        let low: Double = quickest / .seconds(1)
        var delay: Double = 3 * low
        if times.count >= 8 {
            let slow: Double = times.sorted()[times.count * 9 / 10] / .seconds(1)
            let spread: Double = low + 2 * (slow - low)
            delay = min(3 * low, max(1.5 * low, spread))
        }
        return max(0.1, delay)
    }
}

/// Reads a protocol v0 reference advertisement, pkt-line by pkt-line, up to its flush.
struct AdvertisementParser {
    private(set) var references: [RemoteReference] = []
    /// What the server offers (`side-band-64k`, `ofs-delta`, …), from the first line.
    private(set) var capabilities: [String] = []
    /// Whether the server's repository is shallow (it named shallow commits after its references): its history ends
    /// where a download from it may need more, which git's fetch handles.
    private(set) var serverIsShallow = false
    private(set) var finished = false
    private(set) var size = 0
    private var packets = PacketBuffer()
    private var lines = 0

    mutating func read(_ chunk: Data) throws(GitDaemonListingFailure) {
        size += chunk.count
        packets.append(chunk)
        while !finished {
            let packet: PacketBuffer.Packet?
            do throws(PacketBuffer.BadLength) { packet = try packets.next() } catch { throw failure(error.description) }
            switch packet {
            case nil: return
            case .flush: finished = true
            case .data(let bytes): try line(bytes)
            }
        }
        if packets.unread > 0 { throw failure("data after the end of the reference list") }
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>) throws(GitDaemonListingFailure) {
        lines += 1
        var text = bytes
        if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
        if text.starts(with: Array("ERR ".utf8)) {
            throw failure("the server answered: " + String(decoding: text.dropFirst(4), as: UTF8.self))
        }
        if lines == 1 && text.elementsEqual("version 1".utf8) { return }
        // A shallow server names its shallow commits after its references.
        if text.starts(with: Array("shallow ".utf8)) {
            guard text.count == 48, OID(hex: String(decoding: text.dropFirst(8), as: UTF8.self)) != nil else {
                throw failure("a shallow line that is not an object id")
            }
            serverIsShallow = true
            return
        }
        guard !serverIsShallow else { throw failure("a reference after the shallow lines") }
        var capabilities: ArraySlice<UInt8> = []
        if let nul = text.firstIndex(of: 0) {
            guard references.isEmpty else { throw failure("capabilities after the first reference") }
            capabilities = text[(nul + 1)...]
            text = text[..<nul]
        }
        for capability in capabilities.split(separator: UInt8(ascii: " ")) {
            if capability.starts(with: Array("object-format=".utf8)), !capability.elementsEqual("object-format=sha1".utf8) {
                throw failure("objects named by another hash than SHA-1")
            }
            self.capabilities.append(String(decoding: capability, as: UTF8.self))
        }
        guard text.count > 41, text[text.startIndex + 40] == UInt8(ascii: " "),
              let target = OID(hex: String(decoding: text.prefix(40), as: UTF8.self)) else {
            throw failure("a reference line that is not an object id and a name")
        }
        let name = String(decoding: text.dropFirst(41), as: UTF8.self)
        if name == "capabilities^{}" && references.isEmpty { return }
        references.append(RemoteReference(name: name, target: target))
    }

    private func failure(_ text: String) -> GitDaemonListingFailure {
        GitDaemonListingFailure(description: "malformed reference list: \(text)")
    }
}

/// One TCP connection to a git:// server, non-blocking, closed when released.
final class GitDaemonSocket {
    /// One address `getaddrinfo` gave for the server.
    struct Address {
        var family: Int32, type: Int32, proto: Int32
        var bytes: [UInt8]

        /// A new socket for this address, closed on exec and never raising SIGPIPE; -1 (errno set) for a family this
        /// machine does not have.
        func makeSocket() -> Int32 {
            #if canImport(Darwin)
            let fd = socket(family, type, proto)
            guard fd >= 0 else { return fd }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            return fd
            #else
            return socket(family, type | Int32(SOCK_CLOEXEC.rawValue), proto)
            #endif
        }

        /// `connect(2)` of `fd` to this address.
        func connect(_ fd: Int32) -> Int32 {
            bytes.withUnsafeBytes {
                #if canImport(Darwin)
                Darwin.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
                #else
                Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
                #endif
            }
        }
    }

    private(set) var descriptor: Int32 = -1
    /// Which of the addresses this connection is trying.
    private var addressIndex = 0
    private(set) var isConnected = false
    private(set) var isSent = false

    /// The addresses of `host`, in the order git tries them.
    static func addresses(of host: String, port: String) throws(GitDaemonListingFailure) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0, let list else {
            throw GitDaemonListingFailure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let pointer = info.ai_addr else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: pointer, count: Int(info.ai_addrlen)))
            addresses.append(Address(family: info.ai_family, type: info.ai_socktype, proto: info.ai_protocol, bytes: bytes))
        }
        guard !addresses.isEmpty else { throw GitDaemonListingFailure(description: "cannot resolve \(host): no address") }
        return addresses
    }

    /// Starts connecting to the first of `addresses` that takes a connection attempt; `finishConnecting` completes it.
    init(connectingTo addresses: [Address]) throws(GitDaemonListingFailure) {
        try start(addresses)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private func start(_ addresses: [Address]) throws(GitDaemonListingFailure) {
        var lastError = GitDaemonListingFailure(description: "no address")
        while addressIndex < addresses.count {
            let address = addresses[addressIndex]
            let fd = address.makeSocket()
            guard fd >= 0 else {  // a family this machine does not have (IPv6 turned off): the next address
                lastError = Self.failure("socket")
                addressIndex += 1
                continue
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let result = address.connect(fd)
            if result == 0 || errno == EINPROGRESS || errno == EINTR {
                descriptor = fd
                isConnected = result == 0
                return
            }
            lastError = Self.failure("connect")
            close(fd)
            addressIndex += 1
        }
        throw lastError
    }

    /// After the connection attempt became writable: connected, or on to the next address (throws past the last).
    func finishConnecting(_ addresses: [Address]) throws(GitDaemonListingFailure) {
        guard !isConnected else { return }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code == 0 {
            isConnected = true
            return
        }
        close(descriptor)
        descriptor = -1
        addressIndex += 1
        guard addressIndex < addresses.count else { throw GitDaemonListingFailure(description: String(cString: strerror(code))) }
        try start(addresses)
    }

    func sendAll(_ data: Data, timeout: TimeInterval) throws(GitDaemonListingFailure) {
        var offset = 0
        while offset < data.count {
            #if canImport(Darwin)
            let flags: Int32 = 0
            #else
            let flags = Int32(MSG_NOSIGNAL)
            #endif
            let sent = data.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, data.count - offset, flags) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try Self.wait(descriptor, for: Int16(POLLOUT), timeout: timeout, doing: "sending")
            } else {
                throw Self.failure("send")
            }
        }
        isSent = true
    }

    /// What the server has sent so far without waiting: nil when nothing is there yet, empty at the end of the
    /// connection.
    func receiveAvailable() throws(GitDaemonListingFailure) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw Self.failure("recv") }
            return nil
        }
    }

    /// The next bytes the server sent, waiting at most `timeout` seconds (0: for ever); nil at the end of the
    /// connection.
    func receive(timeout: TimeInterval) throws(GitDaemonListingFailure) -> Data? {
        while true {
            if let bytes = try receiveAvailable() { return bytes.isEmpty ? nil : bytes }
            try Self.wait(descriptor, for: Int16(POLLIN), timeout: timeout, doing: "waiting for the server")
        }
    }

    /// Waits until `fd` is ready for `events`, for at most `timeout` seconds (0: for ever), through interruptions.
    private static func wait(_ fd: Int32, for events: Int16, timeout: TimeInterval, doing: String) throws(GitDaemonListingFailure) {
        let deadline = timeout > 0 ? Date().addingTimeInterval(timeout) : nil
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = deadline.map { Int32(max(0, min($0.timeIntervalSinceNow * 1_000, 86_400_000)).rounded(.up)) } ?? -1
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready == 0 { throw GitDaemonListingFailure(description: "timed out \(doing) after \(Int(timeout)) s", timedOut: true) }
            guard errno == EINTR else { throw failure("poll") }
        }
    }

    static func failure(_ call: String) -> GitDaemonListingFailure {
        GitDaemonListingFailure(description: "\(call): \(String(cString: strerror(errno)))")
    }
}
