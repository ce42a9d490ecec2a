/// One argument of a Ruby method call, classified the way dependency declarations use arguments.
struct RubyArgument: Sendable {
    /// The argument shapes dependency declarations use.
    enum Kind: Sendable, Equatable {
        /// A single string literal.
        case string
        /// One `:key => value`, `key: value` or `'key' => value` pair of a trailing options hash.
        case option
        /// A braced hash literal.
        case hash
        /// Anything else: a variable, a method call, an expression, a symbol.
        case other
    }

    /// The shape of the argument.
    var kind: Kind
    /// The indices of the argument's tokens, comments and newlines excluded.
    var tokenIndices: [Int]
    /// The byte range from the argument's first to its last token.
    var range: Range<Int>
    /// The key of an option.
    var key: String?
    /// The token indices of an option's value.
    var valueIndices: [Int] = []
}

/// The arguments of one Ruby method call and where the call ends.
struct RubyCall: Sendable {
    /// The arguments in order.
    var arguments: [RubyArgument]
    /// Whether the arguments were written inside parentheses.
    var parenthesized: Bool
    /// The index of the first token after the call.
    var end: Int
}

/// Parses the arguments of a Ruby method call, with or without parentheses, across lines and comments.
enum RubyCallParser {
    private static let continuationOperators: Set<String> = [",", "=>", "(", "[", "{", "+", "-", "*", "/", "&&", "||", ".", "::", "|", "=", "<<", "?", ":"]
    private static let modifiers: Set<String> = ["if", "unless", "while", "until", "rescue", "and", "or", "do", "end"]

    /// Parses the call whose method name is the token at `nameIndex`.
    static func parse(_ tokens: [RubyToken], afterName nameIndex: Int) -> RubyCall {
        var index = nameIndex + 1
        let parenthesized = index < tokens.count && tokens[index].isPunct("(") && !tokens[index].spaceBefore
        if parenthesized { index += 1 }
        var arguments: [RubyArgument] = []
        var current: [Int] = []
        var depth = 0
        var afterComma = false

        func finish() {
            if !current.isEmpty { arguments.append(classify(current, tokens)) }
            current = []
        }

        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .comment { index += 1; continue }
            if token.kind == .newline {
                let continues = parenthesized || depth > 0 || (current.isEmpty && afterComma)
                    || (current.last.map { tokens[$0].kind == .punct && continuationOperators.contains(tokens[$0].text) } ?? false)
                if continues && token.text == "\n" { index += 1; continue }
                break
            }
            if depth == 0 {
                if parenthesized && token.isPunct(")") { index += 1; break }
                if !parenthesized {
                    if token.kind == .identifier && modifiers.contains(token.text) { break }
                    if token.isPunct("}") { break }
                    if token.isPunct("{") {
                        let opensHash = (current.isEmpty && afterComma)
                            || (current.last.map { tokens[$0].isPunct("=>") || tokens[$0].kind == .label } ?? false)
                        if !opensHash { break }
                    }
                }
                if token.isPunct(",") {
                    finish()
                    afterComma = true
                    index += 1
                    continue
                }
            }
            if token.kind == .punct {
                if ["(", "[", "{"].contains(token.text) { depth += 1 }
                if [")", "]", "}"].contains(token.text) {
                    if depth == 0 { break }
                    depth -= 1
                }
            }
            current.append(index)
            afterComma = false
            index += 1
        }
        finish()
        return RubyCall(arguments: arguments, parenthesized: parenthesized, end: index)
    }

    private static func classify(_ indices: [Int], _ tokens: [RubyToken]) -> RubyArgument {
        let range = tokens[indices.first!].range.lowerBound..<tokens[indices.last!].range.upperBound
        var argument = RubyArgument(kind: .other, tokenIndices: indices, range: range)
        let first = tokens[indices[0]]
        if indices.count == 1 && first.kind == .string {
            argument.kind = .string
        } else if first.kind == .label {
            argument.kind = .option
            argument.key = first.text
            argument.valueIndices = Array(indices.dropFirst())
        } else if indices.count >= 2, first.kind == .symbol || first.isPlainString, tokens[indices[1]].isPunct("=>") {
            argument.kind = .option
            argument.key = first.text
            argument.valueIndices = Array(indices.dropFirst(2))
        } else if first.isPunct("{") {
            argument.kind = .hash
        }
        return argument
    }
}
