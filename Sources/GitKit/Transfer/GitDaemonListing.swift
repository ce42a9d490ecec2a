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
}

enum GitDaemonListing {
    /// The most a reference list may hold before it is taken for a broken server: far above any real repository's.
    static let sizeLimit = 256 << 20

    /// The references the server at `url` advertises, in its order, as `git ls-remote` lists them (peeled tags end in
    /// "^{}"; an empty repository's "capabilities^{}" line is left out). Each wait for the server (connecting, then
    /// each read) gives up after `timeout` seconds, 0 for never. `pacing` runs right before the connection opens.
    static func references(of url: GitDaemonURL, timeout: TimeInterval,
                           pacing: (() -> Void)? = nil) throws(GitDaemonListingFailure) -> [RemoteReference] {
        let socket = try GitDaemonSocket(host: url.host, port: url.port, timeout: timeout, pacing: pacing)
        try socket.sendAll(request(for: url))
        var parser = AdvertisementParser()
        while !parser.finished {
            guard let chunk = try socket.receive() else { throw GitDaemonListingFailure(description: "the server closed the connection before the end of its reference list") }
            try parser.read(chunk)
            if parser.size > sizeLimit { throw GitDaemonListingFailure(description: "the reference list is over \(sizeLimit >> 20) MiB") }
        }
        return parser.references
    }

    /// git's request for `url`'s reference list over protocol v0, and the flush that says the client wants nothing:
    /// the server's process exits once it has sent the list.
    static func request(for url: GitDaemonURL) -> Data {
        let line = Data("git-upload-pack \(url.path)\0host=\(url.hostAttribute)\0".utf8)
        return Data(String(format: "%04x", line.count + 4).utf8) + line + Data("0000".utf8)
    }
}

/// Reads a protocol v0 reference advertisement, pkt-line by pkt-line, up to its flush.
struct AdvertisementParser {
    private(set) var references: [RemoteReference] = []
    private(set) var finished = false
    private(set) var size = 0
    private var buffer: [UInt8] = []
    private var start = 0
    private var lines = 0

    mutating func read(_ chunk: Data) throws(GitDaemonListingFailure) {
        size += chunk.count
        buffer.append(contentsOf: chunk)
        while !finished, buffer.count - start >= 4 {
            guard let length = Self.hexLength(buffer[start..<start + 4]) else { throw failure("a packet length that is not four hex digits") }
            if length == 0 {
                finished = true
                start += 4
                break
            }
            guard length >= 4, length <= 65_520 else { throw failure("a packet length of \(length)") }
            guard buffer.count - start >= length else { break }
            try line(buffer[(start + 4)..<(start + length)])
            start += length
        }
        if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        if finished && start < buffer.count { throw failure("data after the end of the reference list") }
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>) throws(GitDaemonListingFailure) {
        lines += 1
        var text = bytes
        if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
        if text.starts(with: Array("ERR ".utf8)) {
            throw failure("the server answered: " + String(decoding: text.dropFirst(4), as: UTF8.self))
        }
        if lines == 1 && text.elementsEqual("version 1".utf8) { return }
        var capabilities: ArraySlice<UInt8> = []
        if let nul = text.firstIndex(of: 0) {
            guard references.isEmpty else { throw failure("capabilities after the first reference") }
            capabilities = text[(nul + 1)...]
            text = text[..<nul]
        }
        for capability in capabilities.split(separator: UInt8(ascii: " ")) where capability.starts(with: Array("object-format=".utf8)) {
            guard capability.elementsEqual("object-format=sha1".utf8) else { throw failure("objects named by another hash than SHA-1") }
        }
        guard text.count > 41, text[text.startIndex + 40] == UInt8(ascii: " "),
              let target = OID(hex: String(decoding: text.prefix(40), as: UTF8.self)) else {
            throw failure("a reference line that is not an object id and a name")
        }
        let name = String(decoding: text.dropFirst(41), as: UTF8.self)
        if name == "capabilities^{}" && references.isEmpty { return }
        references.append(RemoteReference(name: name, target: target))
    }

    private static func hexLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard let digit = Int(String(UnicodeScalar(byte)), radix: 16) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private func failure(_ text: String) -> GitDaemonListingFailure {
        GitDaemonListingFailure(description: "malformed reference list: \(text)")
    }
}

/// One TCP connection to a git:// server, closed when released. Every wait gives up after the timeout.
final class GitDaemonSocket {
    private var descriptor: Int32 = -1
    private let timeout: TimeInterval

    /// Connects to the first address of `host` that answers, as git does; `pacing` runs once the name is resolved,
    /// right before the first connection opens.
    init(host: String, port: String, timeout: TimeInterval, pacing: (() -> Void)? = nil) throws(GitDaemonListingFailure) {
        self.timeout = timeout
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
        pacing?()
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry?.pointee {
            entry = address.ai_next
            do throws(GitDaemonListingFailure) {
                descriptor = try Self.open(address, timeout: timeout)
                return
            } catch {
                lastError = error.description
            }
        }
        throw GitDaemonListingFailure(description: "cannot connect to \(host):\(port): \(lastError)")
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static func open(_ address: addrinfo, timeout: TimeInterval) throws(GitDaemonListingFailure) -> Int32 {
        #if canImport(Darwin)
        let fd = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        #else
        let fd = socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
        #endif
        guard fd >= 0 else { throw Self.failure("socket") }
        #if canImport(Darwin)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else {
                let error = Self.failure("connect")
                close(fd)
                throw error
            }
            do throws(GitDaemonListingFailure) {
                try wait(fd, for: Int16(POLLOUT), timeout: timeout, doing: "connecting")
            } catch {
                close(fd)
                throw error
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code == 0 else {
                close(fd)
                throw GitDaemonListingFailure(description: String(cString: strerror(code)))
            }
        }
        return fd
    }

    func sendAll(_ data: Data) throws(GitDaemonListingFailure) {
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
    }

    /// The next bytes the server sent; nil at the end of the connection.
    func receive() throws(GitDaemonListingFailure) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count == 0 { return nil }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw Self.failure("recv") }
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
            if ready == 0 { throw GitDaemonListingFailure(description: "timed out \(doing) after \(Int(timeout)) s") }
            guard errno == EINTR else { throw failure("poll") }
        }
    }

    private static func failure(_ call: String) -> GitDaemonListingFailure {
        GitDaemonListingFailure(description: "\(call): \(String(cString: strerror(errno)))")
    }
}
