/// A hand-written lexer for the Ruby subset of podspecs and Podfiles: strings, %-literals, heredocs, comments.
struct RubyLexer {
    private let bytes: [UInt8]
    private var index = 0
    private var tokens: [RubyToken] = []
    private var pendingHeredocs: [(id: [UInt8], indented: Bool)] = []
    private var spaceBefore = false

    /// Keywords after which an expression starts (so `/` and `%` open literals there).
    private static let expressionKeywords: Set<String> = [
        "if", "unless", "while", "until", "case", "when", "then", "else", "elsif", "begin", "rescue",
        "ensure", "do", "and", "or", "not", "return", "yield", "in", "puts", "p", "raise",
    ]

    /// Splits Ruby source into tokens; comments and newlines are kept as tokens.
    static func tokenize(_ source: SourceText) -> [RubyToken] {
        var lexer = RubyLexer(bytes: source.bytes)
        lexer.run()
        return lexer.tokens
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func byte(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

    private mutating func emit(_ kind: RubyToken.Kind, _ start: Int, _ text: String) {
        tokens.append(RubyToken(kind: kind, range: start..<index, text: text, spaceBefore: spaceBefore))
        spaceBefore = false
    }

    private var previousIsValue: Bool {
        guard let last = tokens.last(where: { $0.kind != .comment }) else { return false }
        switch last.kind {
        case .identifier: return !Self.expressionKeywords.contains(last.text)
        case .string, .symbol, .number, .words, .regex, .heredoc, .command: return true
        case .punct: return last.text == ")" || last.text == "]" || last.text == "}"
        case .label, .newline, .comment: return false
        }
    }

    /// Whether a `/`, `%` or `<<` here starts a literal argument of a command call like `foo /x/`.
    private var startsCommandArgument: Bool {
        guard let last = tokens.last, last.kind == .identifier else { return false }
        return spaceBefore && !Byte.isSpace(byte(index + 1)) && byte(index + 1) != UInt8(ascii: "=")
    }

    private mutating func run() {
        while index < bytes.count {
            if index == 0 || bytes[index - 1] == UInt8(ascii: "\n") {
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

    private mutating func skipHeredocBodies() {
        while !pendingHeredocs.isEmpty {
            let heredoc = pendingHeredocs.removeFirst()
            while index < bytes.count {
                var lineEnd = index
                while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var first = index
                if heredoc.indented { while first < lineEnd && Byte.isSpace(bytes[first]) { first += 1 } }
                var last = lineEnd
                while last > first && Byte.isSpace(bytes[last - 1]) { last -= 1 }
                index = min(lineEnd + 1, bytes.count)
                if Array(bytes[first..<last]) == heredoc.id { break }
            }
        }
    }

    private mutating func emitString(_ start: Int, _ value: String, open: String, close: String, interpolated: Bool) {
        var token = RubyToken(kind: .string, range: start..<index, text: value, spaceBefore: spaceBefore)
        token.open = open
        token.close = close
        token.interpolated = interpolated
        tokens.append(token)
        spaceBefore = false
    }

    private mutating func lexSingleQuoted(_ start: Int) {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count && bytes[index] != UInt8(ascii: "'") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count,
               bytes[index + 1] == UInt8(ascii: "'") || bytes[index + 1] == UInt8(ascii: "\\") {
                value.append(bytes[index + 1])
                index += 2
            } else {
                value.append(bytes[index])
                index += 1
            }
        }
        index = min(index + 1, bytes.count)
        emitString(start, String(decoding: value, as: UTF8.self), open: "'", close: "'", interpolated: false)
    }

    /// Scans to the closing delimiter of a double-quoted-style string, decoding escapes and noting `#{…}`.
    private mutating func scanInterpolating(open: UInt8?, close: UInt8) -> (String, Bool) {
        var value: [UInt8] = []
        var interpolated = false
        var depth = 0
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let escaped = bytes[index + 1]
                switch escaped {
                case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "s"): value.append(UInt8(ascii: " "))
                case UInt8(ascii: "0"): value.append(0)
                default: value.append(escaped)
                }
                index += 2
            } else if c == UInt8(ascii: "#"), byte(index + 1) == UInt8(ascii: "{") {
                interpolated = true
                index += 2
                skipInterpolation()
            } else if let open, c == open {
                depth += 1
                value.append(c)
                index += 1
            } else if c == close {
                index += 1
                if depth == 0 { return (String(decoding: value, as: UTF8.self), interpolated) }
                depth -= 1
                value.append(c)
            } else {
                value.append(c)
                index += 1
            }
        }
        return (String(decoding: value, as: UTF8.self), interpolated)
    }

    /// Skips the code of a `#{…}` up to its closing brace, stepping over nested strings.
    private mutating func skipInterpolation() {
        var depth = 0
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "{") { depth += 1 }
            else if c == UInt8(ascii: "}") {
                if depth == 0 { index += 1; return }
                depth -= 1
            } else if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count && bytes[index] != c {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
            }
            index += 1
        }
    }

    /// Scans a non-interpolating literal with optional nesting of its bracket delimiters.
    private mutating func scanRaw(open: UInt8?, close: UInt8) -> String {
        var value: [UInt8] = []
        var depth = 0
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\\"), index + 1 < bytes.count,
               bytes[index + 1] == close || bytes[index + 1] == UInt8(ascii: "\\") || bytes[index + 1] == open {
                value.append(bytes[index + 1])
                index += 2
                continue
            }
            index += 1
            if let open, c == open { depth += 1 }
            else if c == close {
                if depth == 0 { break }
                depth -= 1
            }
            value.append(c)
        }
        return String(decoding: value, as: UTF8.self)
    }

    private static func closing(for open: UInt8) -> (UInt8?, UInt8) {
        switch open {
        case UInt8(ascii: "("): return (open, UInt8(ascii: ")"))
        case UInt8(ascii: "["): return (open, UInt8(ascii: "]"))
        case UInt8(ascii: "{"): return (open, UInt8(ascii: "}"))
        case UInt8(ascii: "<"): return (open, UInt8(ascii: ">"))
        default: return (nil, open)
        }
    }

    /// Lexes `%q{…}`, `%Q(…)`, `%(…)`, `%w[…]`, `%i[…]`; returns false when `%` is an operator.
    private mutating func lexPercentLiteral(_ start: Int) -> Bool {
        let next = byte(index + 1)
        var type = UInt8(ascii: "Q")
        var delimiterAt = index + 1
        if "qQwWiI".utf8.contains(next), !Byte.isIdentifier(byte(index + 2)), !Byte.isSpace(byte(index + 2)), byte(index + 2) != 0 {
            type = next
            delimiterAt = index + 2
        } else if "{([<|!/^".utf8.contains(next), !previousIsValue || startsCommandArgument {
            type = UInt8(ascii: "Q")
        } else {
            return false
        }
        let delimiter = bytes[delimiterAt]
        let (open, close) = Self.closing(for: delimiter)
        index = delimiterAt + 1
        let openText = String(decoding: bytes[start...delimiterAt], as: UTF8.self)
        let closeText = String(decoding: [close], as: UTF8.self)
        switch type {
        case UInt8(ascii: "q"):
            let value = scanRaw(open: open, close: close)
            emitString(start, value, open: openText, close: closeText, interpolated: false)
        case UInt8(ascii: "Q"):
            let (value, interpolated) = scanInterpolating(open: open, close: close)
            emitString(start, value, open: openText, close: closeText, interpolated: interpolated)
        default:
            _ = scanRaw(open: open, close: close)
            emit(.words, start, "")
        }
        return true
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

    /// Lexes `<<~ID`, `<<-ID`, `<<ID` or a quoted id as a heredoc opener; returns false for the `<<` operator.
    private mutating func lexHeredocOpener(_ start: Int) -> Bool {
        guard !previousIsValue || startsCommandArgument else { return false }
        var cursor = index + 2
        var indented = false
        if byte(cursor) == UInt8(ascii: "~") || byte(cursor) == UInt8(ascii: "-") {
            indented = true
            cursor += 1
        }
        var quote: UInt8? = nil
        if "'\"`".utf8.contains(byte(cursor)) {
            quote = byte(cursor)
            cursor += 1
        } else if !(Byte.isIdentifierStart(byte(cursor)) && (indented || (byte(cursor) >= 0x41 && byte(cursor) <= 0x5A))) {
            return false
        }
        let idStart = cursor
        while cursor < bytes.count && Byte.isIdentifier(bytes[cursor]) { cursor += 1 }
        guard cursor > idStart else { return false }
        let id = Array(bytes[idStart..<cursor])
        if let quote {
            guard byte(cursor) == quote else { return false }
            cursor += 1
        }
        index = cursor
        pendingHeredocs.append((id, indented))
        emit(.heredoc, start, "")
        return true
    }

    private mutating func lexRegex(_ start: Int) {
        index += 1
        var inClass = false
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
            let c = bytes[index]
            if c == UInt8(ascii: "\\") { index += 2; continue }
            index += 1
            if c == UInt8(ascii: "[") { inClass = true }
            else if c == UInt8(ascii: "]") { inClass = false }
            else if c == UInt8(ascii: "/") && !inClass { break }
        }
        while index < bytes.count && Byte.isLetter(bytes[index]) { index += 1 }
        emit(.regex, start, "")
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
