/// Reads the remote Swift packages an Xcode project depends on from its `project.pbxproj` (an old-style ASCII
/// property list): the `repositoryURL` of every `XCRemoteSwiftPackageReference` object.
///
/// The file is untrusted input: one pass over its bytes with a stack of open dictionaries, so it is linear in the file's
/// size, never recursive, and returns what it found so far on anything it cannot read (unbalanced braces, an
/// unterminated string or comment, binary data) instead of failing.
public enum XcodeProjectReader {
    /// The repository URLs of the project's remote Swift package references, in file order, each once.
    public static func remotePackageURLs(_ bytes: [UInt8]) -> [String] {
        var scanner = PlistScanner(bytes: bytes)
        var frames: [Frame] = []
        var urls: [String] = []
        var seen: Set<String> = []
        var pendingKey: PlistScanner.Word?   // a key whose `=` was read, waiting for its value
        var lastWord: PlistScanner.Word?     // the previous token, when it was a string
        while let token = scanner.next() {
            switch token {
            case .open:
                frames.append(Frame())
                pendingKey = nil
                lastWord = nil
            case .close:
                if let frame = frames.popLast(), frame.isRemotePackage, let url = frame.url,
                   !url.isEmpty, seen.insert(url).inserted {
                    urls.append(url)
                }
                pendingKey = nil
                lastWord = nil
            case .equals:
                pendingKey = lastWord
                lastWord = nil
            case .string(let word):
                if let key = pendingKey, !frames.isEmpty {
                    if scanner.word(key, is: Self.isaKey) { frames[frames.count - 1].isRemotePackage = scanner.word(word, is: Self.remotePackageClass) }
                    if scanner.word(key, is: Self.urlKey) { frames[frames.count - 1].url = String(decoding: scanner.text(of: word), as: UTF8.self) }
                    pendingKey = nil
                    lastWord = nil
                } else {
                    lastWord = word
                }
            case .other:
                pendingKey = nil
                lastWord = nil
            }
        }
        return urls
    }

    private static let isaKey = Array("isa".utf8)
    private static let urlKey = Array("repositoryURL".utf8)
    private static let remotePackageClass = Array("XCRemoteSwiftPackageReference".utf8)

    /// One `{ … }` being read: what its `isa` and `repositoryURL` said.
    private struct Frame {
        var isRemotePackage = false
        var url: String?
    }
}

/// The tokens of an old-style property list, with `/* */` and `//` comments skipped.
struct PlistScanner {
    enum Token: Equatable {
        case open, close, equals
        /// A quoted string or an unquoted word.
        case string(Word)
        /// `(`, `)`, `;`, `,`, `<data>` or a byte that belongs to no token.
        case other
    }

    /// Where a string's bytes are (inside the quotes), read only when asked: most of a pbxproj is never looked at.
    struct Word: Equatable {
        var range: Range<Int>
        /// It holds a backslash escape, so its text must be decoded.
        var escaped: Bool
    }

    let bytes: [UInt8]
    private var offset = 0

    /// Whether `word` is exactly `literal` (a word with escapes never is one of the plain keys compared here).
    func word(_ word: Word, is literal: [UInt8]) -> Bool {
        !word.escaped && bytes[word.range].elementsEqual(literal)
    }

    /// The text of `word`, escapes decoded (`\n`, `\t`, `\r`; any other escaped byte stands for itself).
    func text(of word: Word) -> [UInt8] {
        guard word.escaped else { return Array(bytes[word.range]) }
        var text: [UInt8] = []
        var index = word.range.lowerBound
        while index < word.range.upperBound {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < word.range.upperBound else { text.append(byte); continue }
            switch bytes[index] {
            case UInt8(ascii: "n"): text.append(10)
            case UInt8(ascii: "t"): text.append(9)
            case UInt8(ascii: "r"): text.append(13)
            default: text.append(bytes[index])
            }
            index += 1
        }
        return text
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The next token, or nil at the end of the input or where it cannot go on (an unterminated string or comment).
    mutating func next() -> Token? {
        skipSpaceAndComments()
        guard offset < bytes.count else { return nil }
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "{"): offset += 1; return .open
        case UInt8(ascii: "}"): offset += 1; return .close
        case UInt8(ascii: "="): offset += 1; return .equals
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return quoted(byte)
        case UInt8(ascii: "<"):
            guard let end = bytes[offset...].firstIndex(of: UInt8(ascii: ">")) else { offset = bytes.count; return nil }
            offset = end + 1
            return .other
        default:
            guard Self.isWordByte(byte) else { offset += 1; return .other }
            let start = offset
            while offset < bytes.count && Self.isWordByte(bytes[offset]) { offset += 1 }
            return .string(Word(range: start..<offset, escaped: false))
        }
    }

    private mutating func quoted(_ quote: UInt8) -> Token? {
        offset += 1
        let start = offset
        var escaped = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == quote {
                offset += 1
                return .string(Word(range: start..<offset - 1, escaped: escaped))
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                offset += 1
            }
            offset += 1
        }
        return nil
    }

    private mutating func skipSpaceAndComments() {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 32 || (9...13).contains(byte) {
                offset += 1
            } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "*") {
                var end = offset + 2
                while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                offset = min(end + 2, bytes.count)
            } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "/") {
                while offset < bytes.count && bytes[offset] != 10 { offset += 1 }
            } else {
                return
            }
        }
    }

    /// The bytes of an unquoted plist word (`XCRemoteSwiftPackageReference`, `8D1F2A3B…`, `https://x/y.git`).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "@"): true
        default: false
        }
    }
}
