internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// libgit2's plain TCP connections (git://, http://, the socket under https), opened by modkit on libgit2 before 1.7.
///
/// They are laid out as libgit2's own (`modkit_stream`: its ssh transport hands their socket to libssh2) and do what
/// libgit2's own do: the server's addresses tried in order with a blocking `connect`, then blocking
/// `send` and `recv`, each failing on any error (an interruption included: `NetworkWatchdog` stops a stalled transfer
/// that way). One thing more: a git:// connection opened inside `hedgingFirstAnswer` (libgit2's listing of a remote
/// that moved, whose download follows over the same connection) is opened as modkit's own listing is
/// (`GitDaemonListing`): a server that has not begun to answer the request after three times its fastest answer is sent
/// the same request over a second connection, and the connection that answers first is the one libgit2 goes on with.
/// A syn or handshake dropped at git daemon's full listen queue is sent again only after a second.
///
/// Installed before the first network operation (`RemoteCallbacksBox.run`: not with libgit2 itself, since reading
/// `modkit.fastPaths` initialises libgit2) unless `modkit.fastPaths` is off globally; libgit2 1.7 and later keep their
/// own streams, which time out by themselves.
enum SocketStreams {
    /// Whether libgit2 opens its plain connections here.
    static let installed: Bool = FastPaths.enabledGlobally() && modkit_git_register_socket_stream(openStream) == 0

    private static let hedgeKey = "modkit.hedgedServer"

    /// Runs `body` with the first answer of the git:// connections it opens on this thread hedged, `server` being
    /// the server's key in `AnswerTimes` (nil: `body` as it is).
    static func hedgingFirstAnswer<T, E: Error>(server: String?, _ body: () throws(E) -> T) throws(E) -> T {
        guard let server, installed else { return try body() }
        let dictionary = Thread.current.threadDictionary
        dictionary[hedgeKey] = server
        defer { dictionary.removeObject(forKey: hedgeKey) }
        return try body()
    }

    fileprivate static var hedgedServer: String? { Thread.current.threadDictionary[hedgeKey] as? String }
}

/// One connection's state, owned by its `modkit_stream`.
private final class SocketStreamState {
    let host: String
    let port: String
    /// The server whose first answer is hedged; nil for a plain connection.
    let hedgedServer: String?
    var descriptor: Int32 = -1
    /// The hedged connection that answered first (it owns `descriptor`).
    var winner: GitDaemonSocket?
    /// Bytes it answered before libgit2 asked for them.
    var pending: [UInt8] = []
    var addresses: [GitDaemonSocket.Address] = []

    init(host: String, port: String, hedgedServer: String?) {
        self.host = host
        self.port = port
        self.hedgedServer = hedgedServer
    }

    deinit { closeConnection() }

    func closeConnection() {
        if winner != nil {
            winner = nil  // closes its descriptor
        } else if descriptor >= 0 {
            close(descriptor)
        }
        descriptor = -1
    }
}

private func state(of stream: UnsafeMutablePointer<git_stream>?) -> SocketStreamState? {
    guard let stream else { return nil }
    let owner = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: modkit_stream.self).pointee.owner
    return owner.map { Unmanaged<SocketStreamState>.fromOpaque($0).takeUnretainedValue() }
}

private func fail(_ message: String) -> Int32 {
    modkit_git_error_set_net(message)
    return -1
}

private let openStream: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<git_stream>?>?, UnsafePointer<CChar>?,
                                        UnsafePointer<CChar>?) -> Int32 = { out, host, port in
    guard let out, let host, let port else { return fail("no host to connect to") }
    let hostName = String(cString: host)
    let owner = SocketStreamState(host: hostName, port: String(cString: port),
                                  hedgedServer: SocketStreams.hedgedServer)
    let stream = UnsafeMutablePointer<modkit_stream>.allocate(capacity: 1)
    stream.initialize(to: modkit_stream())
    stream.pointee.parent.version = Int32(GIT_STREAM_VERSION)
    stream.pointee.parent.connect = connectStream
    stream.pointee.parent.read = readStream
    stream.pointee.parent.write = writeStream
    stream.pointee.parent.close = closeStream
    stream.pointee.parent.free = freeStream
    stream.pointee.host = strdup(host)
    stream.pointee.port = strdup(port)
    stream.pointee.s = -1
    stream.pointee.owner = Unmanaged.passRetained(owner).toOpaque()
    out.pointee = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: git_stream.self)
    return 0
}

private let connectStream: @convention(c) (UnsafeMutablePointer<git_stream>?) -> Int32 = { stream in
    guard let owner = state(of: stream) else { return -1 }
    do throws(GitDaemonListingFailure) {
        owner.addresses = try GitDaemonSocket.addresses(of: owner.host, port: owner.port)
    } catch {
        return fail("failed to resolve address for \(owner.host): \(error.description)")
    }
    // A hedged connection opens with its request, at the first write.
    if owner.hedgedServer != nil { return 0 }
    var lastError = "no address"
    for address in owner.addresses {
        let fd = address.makeSocket()
        guard fd >= 0 else {
            lastError = String(cString: strerror(errno))
            continue
        }
        if address.connect(fd) == 0 {
            owner.descriptor = fd
            socketField(of: stream).pointee = fd
            return 0
        }
        lastError = String(cString: strerror(errno))
        close(fd)
    }
    return fail("failed to connect to \(owner.host): \(lastError)")
}

private let writeStream: @convention(c) (UnsafeMutablePointer<git_stream>?, UnsafePointer<CChar>?, Int, Int32) -> Int = { stream, data, length, _ in
    guard let owner = state(of: stream), let data else { return -1 }
    if owner.descriptor < 0, let server = owner.hedgedServer {
        // the request: sent over the connection that answers it first
        let request = Data(bytes: data, count: length)
        do throws(GitDaemonListingFailure) {
            let (winner, first) = try GitDaemonListing.firstAnswer(owner.addresses, request: request, timeout: GitKit.networkTimeout,
                                                                  pacing: nil, server: server, hedgeAfter: nil)
            winner.makeBlocking()
            owner.winner = winner
            owner.descriptor = winner.descriptor
            socketField(of: stream).pointee = winner.descriptor
            owner.pending = Array(first)
            return length
        } catch {
            return Int(fail("failed to connect to \(owner.host): \(error.description)"))
        }
    }
    guard owner.descriptor >= 0 else { return Int(fail("not connected to \(owner.host)")) }
    #if canImport(Darwin)
    let flags: Int32 = 0
    #else
    let flags = Int32(MSG_NOSIGNAL)
    #endif
    let sent = send(owner.descriptor, data, length, flags)
    if sent < 0 { return Int(fail("error sending data: \(String(cString: strerror(errno)))")) }
    return sent
}

private let readStream: @convention(c) (UnsafeMutablePointer<git_stream>?, UnsafeMutableRawPointer?, Int) -> Int = { stream, buffer, length in
    guard let owner = state(of: stream), let buffer else { return -1 }
    if !owner.pending.isEmpty {
        let count = min(length, owner.pending.count)
        owner.pending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
        owner.pending.removeFirst(count)
        return count
    }
    guard owner.descriptor >= 0 else { return Int(fail("not connected to \(owner.host)")) }
    let received = recv(owner.descriptor, buffer, length, 0)
    if received < 0 { return Int(fail("error receiving socket data: \(String(cString: strerror(errno)))")) }
    return received
}

private let closeStream: @convention(c) (UnsafeMutablePointer<git_stream>?) -> Int32 = { stream in
    state(of: stream)?.closeConnection()
    if stream != nil { socketField(of: stream).pointee = -1 }
    return 0
}

/// The socket libgit2's ssh transport reads from the stream (`modkit_stream.s`).
private func socketField(of stream: UnsafeMutablePointer<git_stream>?) -> UnsafeMutablePointer<Int32> {
    let modkit = UnsafeMutableRawPointer(stream!).assumingMemoryBound(to: modkit_stream.self)
    return UnsafeMutableRawPointer(modkit).advanced(by: MemoryLayout<modkit_stream>.offset(of: \modkit_stream.s)!)
        .assumingMemoryBound(to: Int32.self)
}

private let freeStream: @convention(c) (UnsafeMutablePointer<git_stream>?) -> Void = { stream in
    guard let stream else { return }
    let modkit = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: modkit_stream.self)
    if let owner = modkit.pointee.owner { Unmanaged<SocketStreamState>.fromOpaque(owner).release() }
    free(modkit.pointee.host)
    free(modkit.pointee.port)
    modkit.deallocate()
}
