/// The string-like literals of Ruby: quoted and %-strings, heredocs and regular expressions.
extension RubyLexer {
    /// Skips the bodies of heredocs opened on the line just ended, up to each terminator line.
    mutating func skipHeredocBodies() {
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

    /// Appends a string token with its delimiters.
    mutating func emitString(_ start: Int, _ value: String, open: String, close: String, interpolated: Bool) {
        // Scanners may step past the end of an unterminated literal; a token never does.
        index = min(index, bytes.count)
        var token = RubyToken(kind: .string, range: start..<index, text: value, spaceBefore: spaceBefore)
        token.open = open
        token.close = close
        token.interpolated = interpolated
        tokens.append(token)
        spaceBefore = false
    }

    /// Lexes a single-quoted string, where only `\\` and `\'` are escapes.
    mutating func lexSingleQuoted(_ start: Int) {
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
    mutating func scanInterpolating(open: UInt8?, close: UInt8) -> (String, Bool) {
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
    mutating func skipInterpolation() {
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
        index = min(index, bytes.count)
    }

    /// Scans a non-interpolating literal with optional nesting of its bracket delimiters.
    mutating func scanRaw(open: UInt8?, close: UInt8) -> String {
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

    /// The nesting opener and the closer of a %-literal delimiter.
    static func closing(for open: UInt8) -> (UInt8?, UInt8) {
        switch open {
        case UInt8(ascii: "("): return (open, UInt8(ascii: ")"))
        case UInt8(ascii: "["): return (open, UInt8(ascii: "]"))
        case UInt8(ascii: "{"): return (open, UInt8(ascii: "}"))
        case UInt8(ascii: "<"): return (open, UInt8(ascii: ">"))
        default: return (nil, open)
        }
    }

    /// Lexes `%q{…}`, `%Q(…)`, `%(…)`, `%w[…]`, `%i[…]`; returns false when `%` is an operator.
    mutating func lexPercentLiteral(_ start: Int) -> Bool {
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

    /// Lexes `<<~ID`, `<<-ID`, `<<ID` or a quoted id as a heredoc opener; returns false for the `<<` operator.
    mutating func lexHeredocOpener(_ start: Int) -> Bool {
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

    /// Lexes a `/…/` regular expression so its quotes and `#` are not mistaken for code.
    mutating func lexRegex(_ start: Int) {
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
}
