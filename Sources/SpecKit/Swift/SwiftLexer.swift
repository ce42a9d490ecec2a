/// A hand-written lexer for Swift manifests: nested comments, raw and multi-line strings, interpolation, `#if` lines.
struct SwiftLexer {
    private let bytes: [UInt8]
    private var index = 0
    private var tokens: [SwiftToken] = []
    /// Where a string opened that the file ends inside of, if one did.
    private var unterminatedString: Int?

    /// Splits Swift source into tokens; comments and white space are dropped. A string literal the file ends inside of is an
    /// error at its opening quote (one that a line break ends stays a token: regex literals may hold a lone quote).
    static func tokenize(_ source: SourceText) throws(SpecReadError) -> [SwiftToken] {
        var lexer = SwiftLexer(bytes: source.bytes)
        lexer.index = source.bodyStart
        lexer.run()
        if let start = lexer.unterminatedString {
            let (line, column) = source.position(of: start)
            throw SpecReadError(line: line, column: column, message: "unterminated string: the file ends before its closing quote")
        }
        return lexer.tokens
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func byte(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

    private mutating func emit(_ kind: SwiftToken.Kind, _ start: Int, _ text: String) {
        tokens.append(SwiftToken(kind: kind, range: start..<index, text: text))
    }

    private static let operatorBytes = Set("/=-+!*%<>&|^~?.".utf8)

    private mutating func run() {
        while index < bytes.count {
            let c = bytes[index]
            let start = index
            if Byte.isSpace(c) || c == UInt8(ascii: "\n") {
                index += 1
            } else if c == UInt8(ascii: "/") && byte(index + 1) == UInt8(ascii: "/") {
                skipLine()
            } else if c == UInt8(ascii: "/") && byte(index + 1) == UInt8(ascii: "*") {
                skipBlockComment()
            } else if c == UInt8(ascii: "#") {
                lexHash(start)
            } else if c == UInt8(ascii: "\"") {
                lexString(start, hashes: 0)
            } else if Byte.isIdentifierStart(c) || c == UInt8(ascii: "$") {
                index += 1
                while index < bytes.count && (Byte.isIdentifier(bytes[index]) || bytes[index] == UInt8(ascii: "$")) { index += 1 }
                emit(.identifier, start, String(decoding: bytes[start..<index], as: UTF8.self))
            } else if c == UInt8(ascii: "`") {
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "`") && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                index = min(index + 1, bytes.count)
                emit(.identifier, start, String(decoding: bytes[(start + 1)..<max(start + 1, index - 1)], as: UTF8.self))
            } else if Byte.isDigit(c) {
                while index < bytes.count && (Byte.isIdentifier(bytes[index])
                    || (bytes[index] == UInt8(ascii: ".") && Byte.isDigit(byte(index + 1)))) { index += 1 }
                emit(.number, start, String(decoding: bytes[start..<index], as: UTF8.self))
            } else if c == UInt8(ascii: ".") && Byte.isIdentifierStart(byte(index + 1)) {
                index += 1
                emit(.punct, start, ".")
            } else if Self.operatorBytes.contains(c) {
                index += 1
                while index < bytes.count && Self.operatorBytes.contains(bytes[index])
                    && !(bytes[index] == UInt8(ascii: "/") && (byte(index + 1) == UInt8(ascii: "/") || byte(index + 1) == UInt8(ascii: "*"))) {
                    index += 1
                }
                emit(.punct, start, String(decoding: bytes[start..<index], as: UTF8.self))
            } else {
                index += 1
                emit(.punct, start, String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }
    }

    private mutating func skipLine() {
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && byte(index + 1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && byte(index + 1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
    }

    /// Lexes `#if`-family directives (with their condition), raw strings, and other `#names`.
    private mutating func lexHash(_ start: Int) {
        var hashes = 0
        while byte(index + hashes) == UInt8(ascii: "#") { hashes += 1 }
        if byte(index + hashes) == UInt8(ascii: "\"") {
            index += hashes
            lexString(start, hashes: hashes)
            return
        }
        if hashes > 1 {
            // A run of `#` that opens no raw string is one token, so the run is scanned once, not once per `#`.
            index += hashes
            emit(.punct, start, String(decoding: bytes[start..<index], as: UTF8.self))
            return
        }
        index += 1
        let nameStart = index
        while index < bytes.count && Byte.isIdentifier(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        guard ["if", "elseif", "else", "endif"].contains(name) else {
            emit(.identifier, start, "#" + name)
            return
        }
        let conditionStart = index
        var conditionEnd = index
        while conditionEnd < bytes.count && bytes[conditionEnd] != UInt8(ascii: "\n")
            && !(bytes[conditionEnd] == UInt8(ascii: "/") && (byte(conditionEnd + 1) == UInt8(ascii: "/") || byte(conditionEnd + 1) == UInt8(ascii: "*"))) {
            conditionEnd += 1
        }
        var token = SwiftToken(kind: .directive, range: start..<index, text: "#" + name)
        token.condition = String(Substring(String(decoding: bytes[conditionStart..<conditionEnd], as: UTF8.self)).trimmingWhitespace())
        tokens.append(token)
        index = conditionEnd
    }

    /// Lexes a string whose opening quote is at `index`, preceded by `hashes` `#` characters.
    private mutating func lexString(_ start: Int, hashes: Int) {
        let multiline = byte(index + 1) == UInt8(ascii: "\"") && byte(index + 2) == UInt8(ascii: "\"")
        index += multiline ? 3 : 1
        var value: [UInt8] = []
        var interpolated = false
        var closed = false
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") && closes(at: index, multiline: multiline, hashes: hashes) {
                index += (multiline ? 3 : 1) + hashes
                closed = true
                break
            }
            if !multiline && c == UInt8(ascii: "\n") { closed = true; break }
            if c == UInt8(ascii: "\\") && hashesFollow(index + 1, hashes) {
                let escaped = byte(index + 1 + hashes)
                index += 2 + hashes
                switch escaped {
                case UInt8(ascii: "("):
                    interpolated = true
                    skipInterpolation()
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "r"): value.append(0x0D)
                case UInt8(ascii: "0"): value.append(0)
                default: value.append(escaped)
                }
                continue
            }
            value.append(c)
            index += 1
        }
        if !closed && unterminatedString == nil { unterminatedString = start }
        var token = SwiftToken(kind: .string, range: start..<index, text: String(decoding: value, as: UTF8.self))
        token.interpolated = interpolated
        tokens.append(token)
    }

    private func hashesFollow(_ offset: Int, _ hashes: Int) -> Bool {
        (0..<hashes).allSatisfy { byte(offset + $0) == UInt8(ascii: "#") }
    }

    private func closes(at offset: Int, multiline: Bool, hashes: Int) -> Bool {
        let quotes = multiline ? 3 : 1
        return (0..<quotes).allSatisfy { byte(offset + $0) == UInt8(ascii: "\"") } && hashesFollow(offset + quotes, hashes)
    }

    /// Skips the code of an interpolation up to its closing parenthesis, stepping over nested strings.
    private mutating func skipInterpolation() {
        var depth = 0
        while index < bytes.count {
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "(") { depth += 1 }
            else if c == UInt8(ascii: ")") {
                if depth == 0 { return }
                depth -= 1
            } else if c == UInt8(ascii: "\"") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") && bytes[index] != UInt8(ascii: "\n") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                index += 1
            }
        }
    }
}
