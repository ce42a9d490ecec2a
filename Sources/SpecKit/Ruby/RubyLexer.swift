/// A hand-written lexer for the Ruby subset of podspecs and Podfiles: strings, %-literals, heredocs, comments.
struct RubyLexer {
    let bytes: [UInt8]
    var index = 0
    var tokens: [RubyToken] = []
    var pendingHeredocs: [(id: [UInt8], indented: Bool)] = []
    var spaceBefore = false

    /// Keywords after which an expression starts (so `/` and `%` open literals there).
    private static let expressionKeywords: Set<String> = [
        "if", "unless", "while", "until", "case", "when", "then", "else", "elsif", "begin", "rescue",
        "ensure", "do", "and", "or", "not", "return", "yield", "in", "puts", "p", "raise",
    ]

    /// Splits Ruby source into tokens; comments and newlines are kept as tokens.
    static func tokenize(_ source: SourceText) -> [RubyToken] {
        var lexer = RubyLexer(bytes: source.bytes)
        lexer.index = source.bodyStart
        lexer.run()
        return lexer.tokens
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    func byte(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

    mutating func emit(_ kind: RubyToken.Kind, _ start: Int, _ text: String) {
        index = min(index, bytes.count)
        tokens.append(RubyToken(kind: kind, range: start..<index, text: text, spaceBefore: spaceBefore))
        spaceBefore = false
    }

    var previousIsValue: Bool {
        guard let last = tokens.last(where: { $0.kind != .comment }) else { return false }
        switch last.kind {
        case .identifier: return !Self.expressionKeywords.contains(last.text)
        case .string, .symbol, .number, .words, .regex, .heredoc, .command: return true
        case .punct: return last.text == ")" || last.text == "]" || last.text == "}"
        case .label, .newline, .comment: return false
        }
    }

    /// Whether a `/`, `%` or `<<` here starts a literal argument of a command call like `foo /x/`.
    var startsCommandArgument: Bool {
        guard let last = tokens.last, last.kind == .identifier else { return false }
        return spaceBefore && !Byte.isSpace(byte(index + 1)) && byte(index + 1) != UInt8(ascii: "=")
    }

    private mutating func run() {
        while index < bytes.count {
            if index == 0 || bytes[index - 1] == UInt8(ascii: "\n") || (index == 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF])) {
                if skipLineStartConstructs() { return }
                if index >= bytes.count { return }
            }
            let c = bytes[index]
            let start = index
            switch c {
            case UInt8(ascii: "\n"):
                index += 1
                emit(.newline, start, "\n")
                skipHeredocBodies()
            case _ where Byte.isSpace(c):
                index += 1
                spaceBefore = true
            case UInt8(ascii: "\\") where byte(index + 1) == UInt8(ascii: "\n")
                || (byte(index + 1) == UInt8(ascii: "\r") && byte(index + 2) == UInt8(ascii: "\n")):
                index += byte(index + 1) == UInt8(ascii: "\n") ? 2 : 3
                spaceBefore = true
            case UInt8(ascii: "#"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                emit(.comment, start, "")
            case UInt8(ascii: "'"):
                lexSingleQuoted(start)
            case UInt8(ascii: "\""):
                index += 1
                let (value, interpolated) = scanInterpolating(open: nil, close: UInt8(ascii: "\""))
                emitString(start, value, open: "\"", close: "\"", interpolated: interpolated)
            case UInt8(ascii: "`"):
                index += 1
                _ = scanInterpolating(open: nil, close: UInt8(ascii: "`"))
                emit(.command, start, "")
            case UInt8(ascii: "%"):
                if !lexPercentLiteral(start) { lexPunct(start) }
            case UInt8(ascii: ":"):
                lexColon(start)
            case UInt8(ascii: "<") where byte(index + 1) == UInt8(ascii: "<"):
                if !lexHeredocOpener(start) { lexPunct(start) }
            case UInt8(ascii: "/") where !previousIsValue || startsCommandArgument:
                lexRegex(start)
            case UInt8(ascii: ";"):
                index += 1
                emit(.newline, start, ";")
            case _ where Byte.isIdentifierStart(c) || c == UInt8(ascii: "@") || c == UInt8(ascii: "$"):
                lexIdentifier(start)
            case _ where Byte.isDigit(c):
                while index < bytes.count && (Byte.isIdentifier(bytes[index])
                    || (bytes[index] == UInt8(ascii: ".") && Byte.isDigit(byte(index + 1)))) { index += 1 }
                emit(.number, start, String(decoding: bytes[start..<index], as: UTF8.self))
            default:
                lexPunct(start)
            }
        }
    }

    /// Skips `=begin`/`=end` comments; returns true at `__END__`, after which nothing is code.
    private mutating func skipLineStartConstructs() -> Bool {
        if lineHasPrefix("=begin", at: index) {
            while index < bytes.count {
                let lineStart = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                if index < bytes.count { index += 1 }
                if lineStart != 0, lineHasPrefix("=end", at: lineStart) { break }
            }
            return false
        }
        if lineHasPrefix("__END__", at: index) {
            var end = index + 7
            while end < bytes.count && Byte.isSpace(bytes[end]) { end += 1 }
            return end >= bytes.count || bytes[end] == UInt8(ascii: "\n")
        }
        return false
    }

    private func lineHasPrefix(_ prefix: String, at offset: Int) -> Bool {
        let utf8 = Array(prefix.utf8)
        guard offset + utf8.count <= bytes.count else { return false }
        return Array(bytes[offset..<offset + utf8.count]) == utf8
    }

    private mutating func lexColon(_ start: Int) {
        let next = byte(index + 1)
        if next == UInt8(ascii: ":") {
            index += 2
            emit(.punct, start, "::")
        } else if Byte.isIdentifierStart(next) {
            index += 1
            let nameStart = index
            while index < bytes.count && Byte.isIdentifier(bytes[index]) { index += 1 }
            if "?!=".utf8.contains(byte(index)), byte(index + 1) != UInt8(ascii: ">"), byte(index + 1) != UInt8(ascii: "=") { index += 1 }
            emit(.symbol, start, String(decoding: bytes[nameStart..<index], as: UTF8.self))
        } else if next == UInt8(ascii: "\"") || next == UInt8(ascii: "'") {
            index += 2
            let (value, _) = scanInterpolating(open: nil, close: next)
            emit(.symbol, start, value)
        } else {
            index += 1
            emit(.punct, start, ":")
        }
    }

    private mutating func lexIdentifier(_ start: Int) {
        while index < bytes.count && (bytes[index] == UInt8(ascii: "@") || bytes[index] == UInt8(ascii: "$")) { index += 1 }
        while index < bytes.count && Byte.isIdentifier(bytes[index]) { index += 1 }
        if (byte(index) == UInt8(ascii: "?") || byte(index) == UInt8(ascii: "!")), byte(index + 1) != UInt8(ascii: "=") {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let isPlain = bytes[start] != UInt8(ascii: "@") && bytes[start] != UInt8(ascii: "$")
        if isPlain, byte(index) == UInt8(ascii: ":"), byte(index + 1) != UInt8(ascii: ":"),
           !(tokens.last?.isPunct("?") ?? false) {
            index += 1
            emit(.label, start, text)
        } else {
            emit(.identifier, start, text)
        }
    }

    private static let operators3: Set<String> = ["...", "<=>", "===", "**=", "&&=", "||=", "<<="]
    private static let operators2: Set<String> = [
        "=>", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>", "..", "+=", "-=", "*=", "/=", "**", "->", "=~", "!~", "|=", "&=",
    ]

    private mutating func lexPunct(_ start: Int) {
        let rest = bytes.count - index
        if rest >= 3, case let text = String(decoding: bytes[index..<index + 3], as: UTF8.self), Self.operators3.contains(text) {
            index += 3
            emit(.punct, start, text)
        } else if rest >= 2, case let text = String(decoding: bytes[index..<index + 2], as: UTF8.self), Self.operators2.contains(text) {
            index += 2
            emit(.punct, start, text)
        } else {
            index += 1
            emit(.punct, start, String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }
}
