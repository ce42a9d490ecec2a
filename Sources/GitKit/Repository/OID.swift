internal import CLibgit2

/// A 20-byte git object id held as plain integers so it is cheap, hashable and Sendable.
public struct OID: Hashable, Sendable, CustomStringConvertible, Comparable {
    // Big-endian packing keeps integer order equal to byte order (and so to hex order).
    private let high: UInt64
    private let middle: UInt64
    private let low: UInt32

    /// Parses a full 40-character hex id (either case); nil for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 40 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 20)
        for index in 0..<20 {
            guard let hi = OID.nibble(utf8[2 * index]), let lo = OID.nibble(utf8[2 * index + 1]) else { return nil }
            bytes[index] = hi << 4 | lo
        }
        self.init(bytes: bytes)
    }

    init(bytes: [UInt8]) {
        precondition(bytes.count == 20, "an OID has 20 bytes")
        func pack(_ range: Range<Int>) -> UInt64 { bytes[range].reduce(0) { $0 << 8 | UInt64($1) } }
        high = pack(0..<8)
        middle = pack(8..<16)
        low = UInt32(pack(16..<20))
    }

    init(_ oid: git_oid) {
        let bytes = withUnsafeBytes(of: oid.id) { Array($0.prefix(20)) }
        self.init(bytes: bytes)
    }

    init(_ pointer: UnsafePointer<git_oid>) {
        self.init(pointer.pointee)
    }

    /// The 20 raw bytes, most significant first.
    var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(20)
        for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: middle >> UInt64(shift))) }
        for shift in stride(from: 24, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: low >> UInt32(shift))) }
        return result
    }

    /// The libgit2 representation, for passing into C calls.
    var gitOID: git_oid {
        var oid = git_oid()
        let source = bytes
        withUnsafeMutableBytes(of: &oid.id) { buffer in
            for index in 0..<20 { buffer[index] = source[index] }
        }
        return oid
    }

    /// 40 lower-case hex digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first 7 hex digits, as `git log --oneline` shows by default.
    public var short: String { String(hex.prefix(7)) }

    public var description: String { hex }

    public static func < (lhs: OID, rhs: OID) -> Bool {
        (lhs.high, lhs.middle, lhs.low) < (rhs.high, rhs.middle, rhs.low)
    }

    private static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
