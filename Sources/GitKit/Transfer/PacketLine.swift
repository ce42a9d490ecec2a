import Foundation

/// pkt-lines, git's framing: four hex digits of length (the four included), then the payload; "0000" is a flush.
enum PacketLine {
    static let flush = Data("0000".utf8)
    /// The longest packet git sends or takes, its four length digits included.
    static let maximumLength = 65_520

    static func encode(_ text: String) -> Data {
        let payload = Data(text.utf8)
        return Data(String(format: "%04x", payload.count + 4).utf8) + payload
    }

    /// The length a packet's first four bytes give; nil when they are not four hex digits.
    static func length(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4 else { return nil }
        var value = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | Int(digit)
        }
        return value
    }
}

/// The one reader of pkt-lines: bytes go in as they arrive (`append`), whole packets come out (`next`). The reference
/// list's parser is given chunks (`AdvertisementParser`); a download asks for the next packet (`PacketReader`).
struct PacketBuffer {
    enum Packet: Equatable {
        case flush
        /// A packet's payload (empty for "0004").
        case data(ArraySlice<UInt8>)
    }

    /// A length that is not one: its words follow "malformed …: " or "the server sent ".
    struct BadLength: Error {
        let description: String
    }

    private var bytes: [UInt8] = []
    private var start = 0

    /// Bytes appended and not yet read as a packet.
    var unread: Int { bytes.count - start }

    mutating func append<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 1 << 16 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// The next whole packet; nil until all of it has been appended.
    mutating func next() throws(BadLength) -> Packet? {
        guard unread >= 4 else { return nil }
        guard let length = PacketLine.length(bytes[start..<start + 4]) else {
            throw BadLength(description: "a packet length that is not four hex digits")
        }
        if length == 0 {
            start += 4
            return .flush
        }
        guard length >= 4, length <= PacketLine.maximumLength else { throw BadLength(description: "a packet length of \(length)") }
        guard unread >= length else { return nil }
        let payload = bytes[(start + 4)..<(start + length)]
        start += length
        return .data(payload)
    }
}

/// Reads pkt-lines from a connection, packet by packet, waiting for each.
struct PacketReader {
    let socket: GitDaemonSocket
    let timeout: TimeInterval
    private var buffer = PacketBuffer()

    init(_ socket: GitDaemonSocket, timeout: TimeInterval) {
        self.socket = socket
        self.timeout = timeout
    }

    mutating func next() throws(GitDaemonListingFailure) -> PacketBuffer.Packet {
        while true {
            do throws(PacketBuffer.BadLength) {
                if let packet = try buffer.next() { return packet }
            } catch {
                throw GitDaemonListingFailure(description: "the server sent \(error.description)")
            }
            guard let bytes = try socket.receive(timeout: timeout) else {
                throw GitDaemonListingFailure(description: "the server closed the connection in the middle of its answer")
            }
            buffer.append(bytes)
        }
    }
}
