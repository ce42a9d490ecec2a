/// File bytes checked as UTF-8 before parsing, so an invalid byte is reported where it is instead of being repaired or blamed on 1:1.
extension YAML {
    /// The bytes as a string, or an error at the line and column of the first byte that is not well-formed UTF-8.
    public static func text(fromUTF8 bytes: [UInt8]) throws(YAMLError) -> String {
        if let offset = firstInvalidUTF8Offset(bytes) {
            let hex = String(bytes[offset], radix: 16, uppercase: true)
            throw YAMLError(message: "invalid UTF-8 (byte 0x\(hex.count == 1 ? "0" + hex : hex)); save the file as UTF-8",
                            mark: LineTable(bytes).mark(offset: offset))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset of the first byte that starts no well-formed UTF-8 sequence (overlong forms and surrogates included), or nil.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length: Int, lower: UInt8, upper: UInt8
            switch lead {
            case 0xC2...0xDF: (length, lower, upper) = (2, 0x80, 0xBF)
            case 0xE0: (length, lower, upper) = (3, 0xA0, 0xBF)
            case 0xED: (length, lower, upper) = (3, 0x80, 0x9F)
            case 0xE1...0xEF: (length, lower, upper) = (3, 0x80, 0xBF)
            case 0xF0: (length, lower, upper) = (4, 0x90, 0xBF)
            case 0xF4: (length, lower, upper) = (4, 0x80, 0x8F)
            case 0xF1...0xF3: (length, lower, upper) = (4, 0x80, 0xBF)
            default: return i
            }
            guard i + length <= bytes.count, (lower...upper).contains(bytes[i + 1]) else { return i }
            for k in 2..<max(length, 2) where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}
