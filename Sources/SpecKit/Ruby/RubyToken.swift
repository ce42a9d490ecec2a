/// One lexical token of the Ruby found in podspecs and Podfiles.
struct RubyToken: Sendable {
    /// The token classes the readers distinguish.
    enum Kind: Sendable, Equatable {
        case identifier, label, symbol, string, heredoc, words, regex, command, number, punct, newline, comment
    }

    /// The class of the token.
    var kind: Kind
    /// The UTF-8 byte range the token covers.
    var range: Range<Int>
    /// Identifier or operator text, symbol or label name, or the decoded value of a string.
    var text: String
    /// The opening delimiter of a string (`'`, `"`, `%q{`, …).
    var open: String = ""
    /// The closing delimiter of a string.
    var close: String = ""
    /// Whether a string contains `#{…}` interpolation.
    var interpolated = false
    /// Whether white space separates the token from the previous one.
    var spaceBefore = false

    /// Whether the token is the identifier or operator `text`.
    func `is`(_ kind: Kind, _ text: String) -> Bool { self.kind == kind && self.text == text }

    /// Whether the token is the punctuation `text`.
    func isPunct(_ text: String) -> Bool { kind == .punct && self.text == text }

    /// Whether this is a plain string literal SpecKit can read and rewrite.
    var isPlainString: Bool { kind == .string && !interpolated }
}
