import Foundation
@testable import GitKit
import Testing

/// The one reader of git's pkt-lines (`PacketBuffer`): packets split anywhere across what arrives, and the longest ones
/// git sends, come out whole and in order.
@Suite struct PacketBufferTests {
    /// Three packets of the longest length, a flush, an empty packet and a short one, cut into chunks of a prime size
    /// (so that packets and lengths straddle chunks): the payloads come out byte for byte, in order, each only once all
    /// of it is there, and no whole packet is left unread after a chunk.
    @Test func packetsCutAnywhereComeOutWholeAndInOrder() throws {
        let long = (0..<3).map { index in [UInt8](repeating: UInt8(65 + index), count: PacketLine.maximumLength - 4) }
        var stream = Data()
        for payload in long { stream += Data(String(format: "%04x", payload.count + 4).utf8) + Data(payload) }
        stream += PacketLine.flush + Data("0004".utf8) + PacketLine.encode("done\n")
        var expected: [PacketBuffer.Packet] = long.map { .data(ArraySlice($0)) }
        expected += [.flush, .data([]), .data(ArraySlice(Array("done\n".utf8)))]
        for chunkSize in [1_021, 4_093, 70_001, stream.count] {
            var buffer = PacketBuffer()
            var packets: [PacketBuffer.Packet] = []
            var offset = 0
            while offset < stream.count {
                let end = min(offset + chunkSize, stream.count)
                buffer.append(stream[offset..<end])
                offset = end
                while let packet = try buffer.next() { packets.append(packet) }
                #expect(buffer.unread < PacketLine.maximumLength, "chunks of \(chunkSize)")
            }
            #expect(packets == expected, "chunks of \(chunkSize)")
            #expect(buffer.unread == 0)
        }
    }

    @Test func refusesLengthsThatAreNotOnes() throws {
        for (input, words) in [("00x4", "not four hex digits"), ("0003", "a packet length of 3"), ("fff1", "a packet length of 65521")] {
            var buffer = PacketBuffer()
            buffer.append(Data(input.utf8))
            #expect(throws: PacketBuffer.BadLength.self) { _ = try buffer.next() }
            do { _ = try buffer.next() } catch { #expect(error.description.contains(words), "\(input): \(error.description)") }
        }
        var short = PacketBuffer()
        short.append(Data("000".utf8))
        #expect(try short.next() == nil)  // three bytes are not yet a length
    }
}
