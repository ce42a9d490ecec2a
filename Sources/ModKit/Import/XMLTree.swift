/// An XML element with its attributes in source order and where its start tag begins.
///
/// A class, so that a tree nested 50,000 levels deep is freed by the loop in `deinit` rather than by one
/// recursive release per level, which would overflow the stack.
final class XMLElementNode {
    let name: String
    /// As written in the start tag, in source order, with references decoded.
    var attributes: [(name: String, value: String)]
    /// 1-based line and column of the `<` that opens the element; columns count Unicode scalars, as diagnostics do.
    let line: Int
    let column: Int
    var children: [XMLElementNode] = []
    /// Text directly inside the element (CDATA included), trimmed.
    var text = ""

    init(name: String, attributes: [(name: String, value: String)], line: Int, column: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
        self.column = column
    }

    deinit {
        guard !children.isEmpty else { return }
        var pending = children
        children = []
        while var node = pending.popLast() {
            if isKnownUniquelyReferenced(&node) {
                pending.append(contentsOf: node.children)
                node.children = []
            }
        }
    }

    subscript(attribute: String) -> String? {
        attributes.first { $0.name == attribute }?.value
    }
}

/// Reads a small XML document into `XMLElementNode`s.
///
/// A strict reader for the well-formed XML 1.0 that repo manifests use, written here because FoundationXML's XMLParser
/// makes every modkit process load libxml2 and ICU at start-up (about 1.3 ms per command) for a file only `init --import` reads.
/// Namespaces are not interpreted, the DOCTYPE is skipped, and nothing outside the document is ever read.
enum XMLTree {
    /// A well-formedness error. It points at the start of an unterminated construct (comment, tag, attribute value…),
    /// otherwise at the place where the reader found the problem.
    struct SyntaxError: Error, Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    /// `text` as an XML attribute value or text between double quotes: `& < > "` and line breaks and tabs as references
    /// (a parser would turn a raw line break in an attribute into a space).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The root element of `text`, or the first well-formedness error.
    static func parse(_ text: String) throws(SyntaxError) -> XMLElementNode {
        var reader = XMLReader(cursor: XMLCursor(text))
        return try reader.readDocument()
    }
}

/// A place in the document: the byte offset for the reader, line and column for messages.
private struct XMLPosition {
    var offset = 0
    var line = 1
    var column = 1
}

/// The document's UTF-8 bytes and a current position whose line and column stay up to date as it advances.
private struct XMLCursor {
    let bytes: [UInt8]
    private(set) var position = XMLPosition()

    init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = Self.normalizingLineEnds(bytes)
    }

    /// XML passes `\r\n` and a lone `\r` on as `\n` (XML 1.0 §2.11); doing it up front leaves every line and column as it was.
    private static func normalizingLineEnds(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(.cr) else { return bytes }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        for (offset, byte) in bytes.enumerated() {
            if byte != .cr {
                normalized.append(byte)
            } else if offset + 1 == bytes.count || bytes[offset + 1] != .lf {
                normalized.append(.lf)
            }
        }
        return normalized
    }

    var atEnd: Bool { position.offset == bytes.count }

    func peek(_ ahead: Int = 0) -> UInt8? {
        position.offset + ahead < bytes.count ? bytes[position.offset + ahead] : nil
    }

    func isAt(_ literal: [UInt8]) -> Bool {
        bytes.count - position.offset >= literal.count && bytes[position.offset..<position.offset + literal.count].elementsEqual(literal)
    }

    /// Moves past `count` bytes. Lines break where `SourceText` breaks them (also at U+0085, U+2028, U+2029),
    /// so a diagnostic's quoted line is the one its line number names; UTF-8 continuation bytes add no column.
    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count {
            let offset = position.offset, byte = bytes[offset]
            position.offset += 1
            if byte == .lf
                || (byte == 0x85 && bytes[offset - 1] == 0xC2)
                || ((byte == 0xA8 || byte == 0xA9) && bytes[offset - 1] == 0x80 && bytes[offset - 2] == 0xE2) {
                position.line += 1
                position.column = 1
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
        }
    }

    /// Advances to just after the next `literal`; false (at the end) if there is none.
    mutating func skip(through literal: [UInt8]) -> Bool {
        while !atEnd {
            if isAt(literal) { advance(literal.count); return true }
            advance()
        }
        return false
    }

    /// Skips XML white space (space, tab, line feed) and tells whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position.offset
        while let byte = peek(), byte.isXMLWhitespace { advance() }
        return position.offset > start
    }

    /// Reads an XML name (ASCII name characters; any non-ASCII character is accepted too), or nil if none starts here.
    mutating func readName() -> String? {
        guard let first = peek(), first.isNameStart else { return nil }
        let start = position.offset
        while let byte = peek(), byte.isNameStart || byte.isNameContinuation { advance() }
        return String(decoding: bytes[start..<position.offset], as: UTF8.self)
    }

    func text(from start: XMLPosition) -> String {
        String(decoding: bytes[start.offset..<position.offset], as: UTF8.self)
    }
}

/// Reads the document front to back, keeping the elements that are open on a stack, so deep nesting cannot overflow the call stack.
private struct XMLReader {
    typealias SyntaxError = XMLTree.SyntaxError

    var cursor: XMLCursor
    /// Elements whose start tag has been read but not their end tag, outermost first, each with its direct text so far.
    private var open: [(element: XMLElementNode, text: [UInt8])] = []
    private var root: XMLElementNode?
    private var sawDoctype = false

    init(cursor: XMLCursor) {
        self.cursor = cursor
    }

    mutating func readDocument() throws(SyntaxError) -> XMLElementNode {
        while let byte = cursor.peek() {
            switch byte {
            case UInt8(ascii: "<"): try readMarkup()
            case UInt8(ascii: "&") where !open.isEmpty:
                let character = try readReference()
                open[open.count - 1].text.append(utf8: character)
            default: try readText()
            }
        }
        if let element = open.last?.element {
            throw error("<\(element.name)> from line \(element.line) is not closed: the file ends before </\(element.name)>", at: cursor.position)
        }
        guard let root else { throw error("the document has no root element", at: cursor.position) }
        return root
    }

    /// Whatever starts with `<`: a tag, comment, CDATA section, processing instruction or DOCTYPE.
    private mutating func readMarkup() throws(SyntaxError) {
        let start = cursor.position
        if cursor.isAt(Markup.commentStart) {
            try skipComment()
        } else if cursor.isAt(Markup.cdataStart) {
            guard !open.isEmpty else { throw error("a CDATA section outside the root element", at: start) }
            cursor.advance(Markup.cdataStart.count)
            let contentStart = cursor.position.offset
            guard cursor.skip(through: Markup.cdataEnd) else { throw error("unterminated CDATA section: no ']]>' before the end of the file", at: start) }
            open[open.count - 1].text += cursor.bytes[contentStart..<cursor.position.offset - Markup.cdataEnd.count]
        } else if cursor.isAt(Markup.doctypeStart) {
            guard root == nil, open.isEmpty, !sawDoctype else { throw error("<!DOCTYPE is only allowed once, before the root element", at: start) }
            sawDoctype = true
            try skipDoctype()
        } else if cursor.isAt(Markup.piStart) {
            try skipProcessingInstruction()
        } else if cursor.isAt(Markup.endTagStart) {
            try readEndTag()
        } else if cursor.peek(1) == UInt8(ascii: "!") {
            throw error("unexpected '<!': expected a comment '<!--', '<![CDATA[' or '<!DOCTYPE'", at: start)
        } else {
            if let root, open.isEmpty {
                throw error("a second root element after </\(root.name)>: a document has exactly one", at: start)
            }
            try readStartTag()
        }
    }

    /// Text inside an element is kept as is; outside the root element only white space may stand.
    private mutating func readText() throws(SyntaxError) {
        guard !open.isEmpty else {
            cursor.skipWhitespace()
            guard cursor.atEnd || cursor.peek() == UInt8(ascii: "<") else {
                throw error(root.map { "text after the root element </\($0.name)>" } ?? "text before the root element", at: cursor.position)
            }
            return
        }
        let start = cursor.position.offset
        while let byte = cursor.peek(), byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") { cursor.advance() }
        open[open.count - 1].text += cursor.bytes[start..<cursor.position.offset]
    }

    private mutating func readStartTag() throws(SyntaxError) {
        let start = cursor.position
        cursor.advance()
        guard let name = cursor.readName() else { throw error("expected an element name after '<'", at: cursor.position) }
        let element = XMLElementNode(name: name, attributes: [], line: start.line, column: start.column)
        var names = Set<String>()
        while true {
            let afterWhitespace = cursor.skipWhitespace()
            guard let byte = cursor.peek() else { throw error("unterminated start tag <\(name)>: no '>' before the end of the file", at: start) }
            if byte == UInt8(ascii: ">") {
                cursor.advance()
                open.append((element, []))
                return
            }
            if byte == UInt8(ascii: "/") {
                cursor.advance()
                guard cursor.peek() == UInt8(ascii: ">") else { throw error("expected '>' after '/' in <\(name)>", at: cursor.position) }
                cursor.advance()
                close(element, text: [])
                return
            }
            let attributeStart = cursor.position
            guard let attribute = cursor.readName() else { throw error("unexpected \(describe(byte)) in <\(name)>", at: attributeStart) }
            guard afterWhitespace else { throw error("expected white space before attribute '\(attribute)' of <\(name)>", at: attributeStart) }
            guard names.insert(attribute).inserted else { throw error("duplicate attribute '\(attribute)' in <\(name)>", at: attributeStart) }
            cursor.skipWhitespace()
            guard cursor.peek() == UInt8(ascii: "=") else { throw error("expected '=' after attribute '\(attribute)' of <\(name)>", at: cursor.position) }
            cursor.advance()
            cursor.skipWhitespace()
            element.attributes.append((attribute, try readAttributeValue(of: attribute)))
        }
    }

    private mutating func readAttributeValue(of attribute: String) throws(SyntaxError) -> String {
        let start = cursor.position
        guard let quote = cursor.peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("expected a quoted value for attribute '\(attribute)'", at: start)
        }
        cursor.advance()
        var value: [UInt8] = []
        while true {
            guard let byte = cursor.peek() else {
                throw error("unterminated value of attribute '\(attribute)': no closing quote before the end of the file", at: start)
            }
            switch byte {
            case quote:
                cursor.advance()
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw error("'<' is not allowed in an attribute value; write &lt;", at: cursor.position)
            case UInt8(ascii: "&"):
                let character = try readReference()
                value.append(utf8: character)
            case .lf, .tab:
                // Attribute-value normalisation (XML 1.0 §3.3.3): a literal line break or tab reads as a space.
                value.append(UInt8(ascii: " "))
                cursor.advance()
            default:
                value.append(byte)
                cursor.advance()
            }
        }
    }

    private mutating func readEndTag() throws(SyntaxError) {
        let start = cursor.position
        cursor.advance(2)
        guard let name = cursor.readName() else { throw error("expected an element name after '</'", at: cursor.position) }
        guard let (element, text) = open.popLast() else { throw error("</\(name)> closes no open element", at: start) }
        guard element.name == name else {
            throw error("expected </\(element.name)> to close <\(element.name)> from line \(element.line), found </\(name)>", at: start)
        }
        cursor.skipWhitespace()
        guard !cursor.atEnd else { throw error("unterminated end tag </\(name)>: no '>' before the end of the file", at: start) }
        guard cursor.peek() == UInt8(ascii: ">") else { throw error("expected '>' to end </\(name)>", at: cursor.position) }
        cursor.advance()
        close(element, text: text)
    }

    private mutating func close(_ element: XMLElementNode, text: [UInt8]) {
        element.text = Self.trimmed(text)
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].element.children.append(element)
        }
    }

    /// Trims what `CharacterSet.whitespacesAndNewlines` trims: the scalars with the Unicode White_Space property.
    private static func trimmed(_ text: [UInt8]) -> String {
        guard text.contains(where: { !$0.isXMLWhitespace }) else { return "" }
        let scalars = String(decoding: text, as: UTF8.self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// `&amp; &lt; &gt; &quot; &apos;`, `&#NN;` or `&#xHH;`: the character it stands for.
    private mutating func readReference() throws(SyntaxError) -> Unicode.Scalar {
        let start = cursor.position
        cursor.advance()
        if cursor.peek() == UInt8(ascii: "#") {
            cursor.advance()
            let hex = cursor.peek() == UInt8(ascii: "x")
            if hex { cursor.advance() }
            var value: UInt32 = 0, digits = 0
            while let byte = cursor.peek(), let digit = byte.digitValue(hex: hex) {
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                digits += 1
                cursor.advance()
            }
            guard digits > 0, cursor.peek() == UInt8(ascii: ";") else {
                throw error("malformed character reference '\(cursor.text(from: start))': expected \(hex ? "hexadecimal " : "")digits and ';'", at: start)
            }
            cursor.advance()
            guard let scalar = Unicode.Scalar(value), scalar.isXMLCharacter else {
                throw error("character reference '\(cursor.text(from: start))' names a character XML does not allow", at: start)
            }
            return scalar
        }
        guard let name = cursor.readName() else {
            throw error("'&' does not start a reference; write &amp; for a literal '&'", at: start)
        }
        guard cursor.peek() == UInt8(ascii: ";") else { throw error("expected ';' to end the reference '&\(name)'", at: cursor.position) }
        cursor.advance()
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: throw error("unknown entity '&\(name);': XML knows &amp; &lt; &gt; &quot; &apos; and character references like &#38;", at: start)
        }
    }

    /// `<!-- … -->`; like XML requires, `--` may not appear inside.
    private mutating func skipComment() throws(SyntaxError) {
        let start = cursor.position
        cursor.advance(Markup.commentStart.count)
        while !cursor.atEnd {
            if cursor.isAt(Markup.doubleHyphen) {
                guard cursor.peek(2) == UInt8(ascii: ">") else { throw error("'--' is not allowed inside a comment", at: cursor.position) }
                cursor.advance(3)
                return
            }
            cursor.advance()
        }
        throw error("unterminated comment: no '-->' before the end of the file", at: start)
    }

    /// `<?target …?>`, skipped; the XML declaration `<?xml …?>` must open the file.
    private mutating func skipProcessingInstruction() throws(SyntaxError) {
        let start = cursor.position
        cursor.advance(Markup.piStart.count)
        guard let target = cursor.readName() else { throw error("expected a name after '<?'", at: cursor.position) }
        if target.lowercased() == "xml", start.offset != 0 {
            throw error("the XML declaration <?xml …?> must be at the very start of the file", at: start)
        }
        guard cursor.skip(through: Markup.piEnd) else {
            throw error("unterminated processing instruction <?\(target): no '?>' before the end of the file", at: start)
        }
    }

    /// `<!DOCTYPE …>`, skipped with its internal subset `[…]`, whose quoted strings and comments may hold `]` or `>`.
    private mutating func skipDoctype() throws(SyntaxError) {
        let start = cursor.position
        cursor.advance(Markup.doctypeStart.count)
        var inSubset = false
        while let byte = cursor.peek() {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                cursor.advance()
                guard cursor.skip(through: [byte]) else { throw error("unterminated <!DOCTYPE: a quoted string runs to the end of the file", at: start) }
                continue
            case UInt8(ascii: "<") where inSubset && cursor.isAt(Markup.commentStart):
                try skipComment()
                continue
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: ">") where !inSubset:
                cursor.advance()
                return
            default: break
            }
            cursor.advance()
        }
        throw error("unterminated <!DOCTYPE: no '>' before the end of the file", at: start)
    }

    private func error(_ message: String, at position: XMLPosition) -> SyntaxError {
        SyntaxError(message: message, line: position.line, column: position.column)
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

/// The fixed strings that open and close markup.
private enum Markup {
    static let commentStart = Array("<!--".utf8)
    static let doubleHyphen = Array("--".utf8)
    static let cdataStart = Array("<![CDATA[".utf8)
    static let cdataEnd = Array("]]>".utf8)
    static let doctypeStart = Array("<!DOCTYPE".utf8)
    static let piStart = Array("<?".utf8)
    static let piEnd = Array("?>".utf8)
    static let endTagStart = Array("</".utf8)
}

private extension [UInt8] {
    mutating func append(utf8 scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { append($0) }
    }
}

private extension UInt8 {
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let tab = UInt8(ascii: "\t")

    /// After line ends are normalised, XML white space is space, tab and line feed.
    var isXMLWhitespace: Bool { self == 0x20 || self == .tab || self == .lf }

    /// Letters, `_` and `:`, and any byte of a non-ASCII character (not checked against XML's name tables).
    var isNameStart: Bool {
        (0x61...0x7A).contains(self) || (0x41...0x5A).contains(self) || self == UInt8(ascii: "_") || self == UInt8(ascii: ":") || self >= 0x80
    }

    var isNameContinuation: Bool { (0x30...0x39).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: ".") }

    func digitValue(hex: Bool) -> UInt32? {
        switch self {
        case 0x30...0x39: UInt32(self - 0x30)
        case 0x61...0x66 where hex: UInt32(self - 0x61 + 10)
        case 0x41...0x46 where hex: UInt32(self - 0x41 + 10)
        default: nil
        }
    }
}

private extension Unicode.Scalar {
    /// XML 1.0's `Char`: tab, line feed, carriage return and everything from U+0020 but U+FFFE and U+FFFF (surrogates cannot be scalars).
    var isXMLCharacter: Bool {
        value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF)
    }
}
