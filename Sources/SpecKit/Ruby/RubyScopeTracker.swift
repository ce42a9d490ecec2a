/// Follows Ruby blocks (`do … end`, `{ … }`, `if … end`) so readers know which subspec or target a line belongs to.
struct RubyScopeTracker {
    /// One open block: the variable it binds (`|ss|`) and the context of declarations inside it.
    struct Frame {
        var binding: String?
        var context: RequirementContext
        var isBrace: Bool
    }

    private static let blockKeywords: Set<String> = ["if", "unless", "while", "until", "case", "begin", "def", "class", "module", "for"]
    private static let statementContinuers: Set<String> = ["then", "else", "elsif", "begin", "ensure", "rescue", "="]

    /// The open blocks, outermost first; the first is the file itself.
    private(set) var frames = [Frame(binding: nil, context: RequirementContext(), isBrace: false)]
    /// The context the next `do`/`{` block takes (set by `subspec`, `target`, …).
    var pendingContext: RequirementContext?
    /// Whether the next token begins a statement.
    var atStatementStart = true

    /// The context of the innermost block.
    var current: RequirementContext { frames[frames.count - 1].context }

    /// The context of the innermost block that binds `variable`, or nil when none does.
    func context(boundTo variable: String) -> RequirementContext? {
        frames.last(where: { $0.binding == variable })?.context
    }

    /// Updates the open blocks for the token at `index` and returns the index of the next token to read.
    mutating func advance(_ tokens: [RubyToken], at index: Int) -> Int {
        let token = tokens[index]
        switch token.kind {
        case .comment:
            return index + 1
        case .newline:
            atStatementStart = true
            return index + 1
        case .identifier where token.text == "do":
            return open(tokens, at: index, isBrace: false)
        case .punct where token.text == "{":
            return open(tokens, at: index, isBrace: true)
        case .punct where token.text == "}":
            if frames.count > 1 && frames[frames.count - 1].isBrace { frames.removeLast() }
            atStatementStart = false
            return index + 1
        case .identifier where token.text == "end":
            if frames.count > 1 && !frames[frames.count - 1].isBrace { frames.removeLast() }
            atStatementStart = false
            return index + 1
        case .identifier where atStatementStart && Self.blockKeywords.contains(token.text):
            frames.append(Frame(binding: nil, context: current, isBrace: false))
            atStatementStart = token.text == "begin"
            return index + 1
        default:
            atStatementStart = (token.kind == .identifier || token.kind == .punct) && Self.statementContinuers.contains(token.text)
            return index + 1
        }
    }

    private mutating func open(_ tokens: [RubyToken], at index: Int, isBrace: Bool) -> Int {
        var next = index + 1
        var binding: String?
        while next < tokens.count && (tokens[next].kind == .newline || tokens[next].kind == .comment) && tokens[next].text == "\n" { next += 1 }
        if next < tokens.count, tokens[next].isPunct("|") {
            var cursor = next + 1
            while cursor < tokens.count && !tokens[cursor].isPunct("|") && tokens[cursor].kind != .newline {
                if binding == nil && tokens[cursor].kind == .identifier { binding = tokens[cursor].text }
                cursor += 1
            }
            next = cursor < tokens.count && tokens[cursor].isPunct("|") ? cursor + 1 : index + 1
        } else {
            next = index + 1
        }
        frames.append(Frame(binding: binding, context: pendingContext ?? current, isBrace: isBrace))
        pendingContext = nil
        atStatementStart = true
        return next
    }
}
