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
/// (`GitDaemonListing`): a server that has not begun to answer the request once its slow answers are past
/// (`AnswerTimes`) is sent the same request over a second connection, and the connection that answers first is the one
/// libgit2 goes on with. Each of the two waits for its turn (`ConnectionTurn`) right before it opens.
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

/// What a connection holds beyond libgit2's fields of `modkit_stream` (host, port, socket), owned by it.
private final class SocketStreamState {
    /// The server whose first answer is hedged; nil for a plain connection.
    let hedgedServer: String?
    var addresses: [GitDaemonSocket.Address] = []
    /// The hedged connection that answered first: it owns the stream's socket.
    var winner: GitDaemonSocket?
    /// Bytes it answered before libgit2 asked for them.
    var pending: [UInt8] = []
    /// The connection's turn (`ConnectionTurn`), waited for right before each hedged connection opens.
    var pacing: (() -> Void)?

    init(hedgedServer: String?) { self.hedgedServer = hedgedServer }
}

/// The stream libgit2 hands back, as modkit made it.
private func modkit(_ stream: UnsafeMutablePointer<git_stream>) -> UnsafeMutablePointer<modkit_stream> {
    UnsafeMutableRawPointer(stream).assumingMemoryBound(to: modkit_stream.self)
}

private func state(of stream: UnsafeMutablePointer<modkit_stream>) -> SocketStreamState {
    Unmanaged<SocketStreamState>.fromOpaque(stream.pointee.owner).takeUnretainedValue()
}

private func host(of stream: UnsafeMutablePointer<modkit_stream>) -> String { String(cString: stream.pointee.host) }

private func fail(_ message: String) -> Int32 {
    modkit_git_error_set_net(message)
    return -1
}

private let openStream: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<git_stream>?>?, UnsafePointer<CChar>?,
                                        UnsafePointer<CChar>?) -> Int32 = { out, host, port in
    guard let out, let host, let port else { return fail("no host to connect to") }
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
    stream.pointee.owner = Unmanaged.passRetained(SocketStreamState(hedgedServer: SocketStreams.hedgedServer)).toOpaque()
    out.pointee = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: git_stream.self)
    return 0
}

private let connectStream: @convention(c) (UnsafeMutablePointer<git_stream>?) -> Int32 = { stream in
    guard let stream = stream.map(modkit) else { return -1 }
    let owner = state(of: stream)
    do throws(GitDaemonListingFailure) {
        owner.addresses = try GitDaemonSocket.addresses(of: host(of: stream), port: String(cString: stream.pointee.port))
    } catch {
        return fail("failed to resolve address for \(host(of: stream)): \(error.description)")
    }
    // A hedged connection opens with its request, at the first write.
    if owner.hedgedServer != nil {
        owner.pacing = ConnectionTurn.claim()
        return 0
    }
    ConnectionTurn.take()
    var lastError = "no address"
    for address in owner.addresses {
        let fd = address.makeSocket()
        guard fd >= 0 else {
            lastError = String(cString: strerror(errno))
            continue
        }
        if address.connect(fd) == 0 {
            stream.pointee.s = fd
            return 0
        }
        lastError = String(cString: strerror(errno))
        close(fd)
    }
    return fail("failed to connect to \(host(of: stream)): \(lastError)")
}

private let writeStream: @convention(c) (UnsafeMutablePointer<git_stream>?, UnsafePointer<CChar>?, Int, Int32) -> Int = { stream, data, length, _ in
    guard let stream = stream.map(modkit), let data else { return -1 }
    let owner = state(of: stream)
    if stream.pointee.s < 0, let server = owner.hedgedServer {
        // the request: sent over the connection that answers it first
        let request = Data(bytes: data, count: length)
        do throws(GitDaemonListingFailure) {
            let (winner, first) = try GitDaemonListing.firstAnswer(owner.addresses, request: request, timeout: GitKit.networkTimeout,
                                                                  pacing: owner.pacing, server: server, hedgeAfter: nil)
            winner.makeBlocking()
            owner.winner = winner
            owner.pending = Array(first)
            stream.pointee.s = winner.descriptor
            return length
        } catch {
            return Int(fail("failed to connect to \(host(of: stream)): \(error.description)"))
        }
    }
    guard stream.pointee.s >= 0 else { return Int(fail("not connected to \(host(of: stream))")) }
    #if canImport(Darwin)
    let flags: Int32 = 0
    #else
    let flags = Int32(MSG_NOSIGNAL)
    #endif
    let sent = send(stream.pointee.s, data, length, flags)
    if sent < 0 { return Int(fail("error sending data: \(String(cString: strerror(errno)))")) }
    return sent
}

private let readStream: @convention(c) (UnsafeMutablePointer<git_stream>?, UnsafeMutableRawPointer?, Int) -> Int = { stream, buffer, length in
    guard let stream = stream.map(modkit), let buffer else { return -1 }
    let owner = state(of: stream)
    if !owner.pending.isEmpty {
        let count = min(length, owner.pending.count)
        owner.pending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
        owner.pending.removeFirst(count)
        return count
    }
    guard stream.pointee.s >= 0 else { return Int(fail("not connected to \(host(of: stream))")) }
    let received = recv(stream.pointee.s, buffer, length, 0)
    if received < 0 { return Int(fail("error receiving socket data: \(String(cString: strerror(errno)))")) }
    return received
}

/// Closes the connection: the hedged winner's by letting it go, a plain one's socket directly.
private func closeConnection(_ stream: UnsafeMutablePointer<modkit_stream>) {
    let owner = state(of: stream)
    if owner.winner != nil {
        owner.winner = nil
    } else if stream.pointee.s >= 0 {
        close(stream.pointee.s)
    }
    stream.pointee.s = -1
}

private let closeStream: @convention(c) (UnsafeMutablePointer<git_stream>?) -> Int32 = { stream in
    stream.map(modkit).map(closeConnection)
    return 0
}

private let freeStream: @convention(c) (UnsafeMutablePointer<git_stream>?) -> Void = { stream in
    guard let stream = stream.map(modkit) else { return }
    closeConnection(stream)
    Unmanaged<SocketStreamState>.fromOpaque(stream.pointee.owner).release()
    free(stream.pointee.host)
    free(stream.pointee.port)
    stream.deallocate()
}
