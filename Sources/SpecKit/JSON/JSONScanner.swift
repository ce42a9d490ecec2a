/// A small recursive-descent JSON parser that records byte ranges for every value.
struct JSONScanner {
    private let source: SourceText
    private var index = 0

    /// Parses a whole document.
    static func parse(_ source: SourceText) throws(SpecReadError) -> JSONNode {
        var scanner = JSONScanner(source: source)
        scanner.skipSpace()
        let node = try scanner.value(depth: 0)
        scanner.skipSpace()
        guard scanner.index == source.count else { throw scanner.error("unexpected text after the JSON document") }
        return node
    }

    private init(source: SourceText) {
        self.source = source
        self.index = source.bodyStart
    }

    private var bytes: [UInt8] { source.bytes }

    private func error(_ message: String) -> SpecReadError {
        let (line, column) = source.position(of: min(index, source.count))
        return SpecReadError(line: line, column: column, message: message)
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(SpecReadError) {
        guard index < bytes.count, bytes[index] == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    private mutating func value(depth: Int) throws(SpecReadError) -> JSONNode {
        guard depth < 512 else { throw error("JSON nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [JSONNode.Member] = []
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(value: .object(members), range: start..<index)
            }
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                members.append(JSONNode.Member(key: key, value: try value(depth: depth + 1)))
                skipSpace()
                if index < bytes.count && bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"))
                return JSONNode(value: .object(members), range: start..<index)
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONNode] = []
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(value: .array(elements), range: start..<index)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                if index < bytes.count && bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"))
                return JSONNode(value: .array(elements), range: start..<index)
            }
        case UInt8(ascii: "\""):
            let text = try string()
            return JSONNode(value: .string(text), range: start..<index)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for (word, value) in [("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null)] {
                let utf8 = Array(word.utf8)
                if index + utf8.count <= bytes.count && Array(bytes[index..<index + utf8.count]) == utf8 {
                    index += utf8.count
                    return JSONNode(value: value, range: start..<index)
                }
            }
            throw error("unexpected word in JSON")
        default:
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            guard index > start else { throw error("unexpected character in JSON") }
            return JSONNode(value: .number(source.text(start..<index)), range: start..<index)
        }
    }

    private mutating func string() throws(SpecReadError) -> String {
        try expect(UInt8(ascii: "\""))
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty { scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars) }
            pending = []
        }
        while index < bytes.count {
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "\"") {
                flush()
                return String(scalars)
            }
            guard c == UInt8(ascii: "\\") else { pending.append(c); continue }
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): pending.append(0x0A)
            case UInt8(ascii: "t"): pending.append(0x09)
            case UInt8(ascii: "r"): pending.append(0x0D)
            case UInt8(ascii: "b"): pending.append(0x08)
            case UInt8(ascii: "f"): pending.append(0x0C)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count, let code = UInt32(source.text(index..<index + 4), radix: 16) else {
                    throw error("bad \\u escape")
                }
                index += 4
                flush()
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: pending.append(escaped)
            }
        }
        throw error("unterminated string")
    }
}
