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
/// libgit2's own do: the server's addresses tried in order with a blocking `connect`, then blocking `send` and `recv`,
/// each failing on any error (an interruption included: `NetworkWatchdog` stops a stalled transfer that way). One
/// thing more: a connection waits for its turn (`ConnectionTurn`) right before it opens. (A git:// server that modkit
/// reaches itself is listed and fetched over modkit's own connections, which ask again over a second connection when
/// the first is silent: `GitDaemonListing`, `GitDaemonFetch`.)
///
/// Installed before the first network operation (`RemoteCallbacksBox.run`: not with libgit2 itself, since reading
/// `modkit.fastPaths` initialises libgit2) unless `modkit.fastPaths` is off globally; libgit2 1.7 and later keep their
/// own streams, which time out by themselves.
enum SocketStreams {
    /// Whether libgit2 opens its plain connections here.
    static let installed: Bool = FastPaths.enabledGlobally() && modkit_git_register_socket_stream(openStream) == 0
}

/// What a connection holds beyond libgit2's fields of `modkit_stream` (host, port, socket), owned by it.
private final class SocketStreamState {
    var addresses: [GitDaemonSocket.Address] = []
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
    stream.pointee.owner = Unmanaged.passRetained(SocketStreamState()).toOpaque()
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
    guard stream.pointee.s >= 0 else { return Int(fail("not connected to \(host(of: stream))")) }
    let received = recv(stream.pointee.s, buffer, length, 0)
    if received < 0 { return Int(fail("error receiving socket data: \(String(cString: strerror(errno)))")) }
    return received
}

/// Closes the connection's socket.
private func closeConnection(_ stream: UnsafeMutablePointer<modkit_stream>) {
    if stream.pointee.s >= 0 { close(stream.pointee.s) }
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
