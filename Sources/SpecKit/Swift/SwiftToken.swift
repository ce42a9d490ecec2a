/// One lexical token of a Package.swift manifest.
struct SwiftToken: Sendable {
    /// The token classes the Package.swift reader distinguishes.
    enum Kind: Sendable, Equatable {
        case identifier, string, number, punct, directive
    }

    /// The class of the token.
    var kind: Kind
    /// The UTF-8 byte range the token covers.
    var range: Range<Int>
    /// Identifier or operator text, the decoded value of a string, or the name of a directive (`#if`).
    var text: String
    /// The condition of an `#if`/`#elseif` directive.
    var condition: String = ""
    /// Whether a string contains `\(…)` interpolation.
    var interpolated = false

    /// Whether the token is the punctuation `text`.
    func isPunct(_ text: String) -> Bool { kind == .punct && self.text == text }

    /// Whether this is a string literal without interpolation.
    var isPlainString: Bool { kind == .string && !interpolated }
}
