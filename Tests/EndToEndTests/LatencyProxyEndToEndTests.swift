import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// scripts/bench/latency_proxy.py, which the latency benchmark puts in front of git daemon and smart HTTP: it adds
/// the round trip and connection set-up it is given, and stops when whoever started it closes its stdin.
@Suite struct LatencyProxyEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/bench/latency_proxy.py")

    @Test func addsTheRoundTripAndSetUpItIsGiven() throws {
        let echo = try EchoServer()
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proxy.arguments = ["python3", Self.script.path, "--target", String(echo.port), "--rtt", "50", "--setup", "80",
                           "--bandwidth", "0"]
        let input = Pipe(), output = Pipe()
        proxy.standardInput = input
        proxy.standardOutput = output
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        // The proxy prints its port once it listens: reading that line is the wait.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self)))

        let direct = try TimedConnection(port: echo.port)
        _ = try direct.roundTrip()
        let base = try (0..<15).map { _ in try direct.roundTrip() }.min()!

        let start = Date()
        let proxied = try TimedConnection(port: port)
        let first = try proxied.roundTrip()
        let setUp = Date().timeIntervalSince(start) - 0.050 - base
        // A loaded machine only ever adds time to a round trip, so the quickest of many is the proxy's own delay.
        let added = try (0..<15).map { _ in try proxied.roundTrip() }.min()! - base
        #expect(abs(added - 0.050) <= 0.010, "added round trip \(added) s, set to 0.050 s")
        // A loaded machine only ever adds time, so the set-up is held to 20% below and more loosely above.
        #expect(setUp >= 0.064 && setUp <= 0.150, "connection set-up \(setUp) s (first exchange \(first) s), set to 0.080 s")

        try input.fileHandleForWriting.close()
        proxy.waitUntilExit()
        #expect(proxy.terminationStatus == 0)
        echo.stop()
    }

}

/// A TCP echo server on 127.0.0.1 at a free port, answering each connection on its own thread.
private final class EchoServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, streamSocket, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else { throw SandboxError("echo server: cannot listen on 127.0.0.1") }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = read(client, &buffer, buffer.count)
                        if count <= 0 || write(client, buffer, count) != count { break }
                    }
                    close(client)
                }
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

/// A client connection to 127.0.0.1 that times one-byte exchanges.
private final class TimedConnection {
    private let fd: Int32

    init(port: Int) throws {
        let fd = socket(AF_INET, streamSocket, 0)
        self.fd = fd
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw SandboxError("cannot connect to 127.0.0.1:\(port)") }
    }

    deinit { close(fd) }

    /// Seconds from sending one byte to reading it back.
    func roundTrip() throws -> TimeInterval {
        var byte: UInt8 = 0x2A
        let start = Date()
        guard write(fd, &byte, 1) == 1, read(fd, &byte, 1) == 1 else { throw SandboxError("echo exchange failed") }
        return Date().timeIntervalSince(start)
    }
}

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
private let streamSocket = SOCK_STREAM
#endif
