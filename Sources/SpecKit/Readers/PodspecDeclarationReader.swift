/// Reads `s.name = …` and `s.version = …` of a Ruby podspec, where `s` is the block variable of `Pod::Spec.new do |s|`.
enum PodspecDeclarationReader {
    /// The root spec's name and version; nil when the file defines no `Pod::Spec.new` block.
    static func read(_ source: SourceText) -> SpecDeclaration? {
        let tokens = RubyLexer.tokenize(source).filter { $0.kind != .comment }
        guard let (variable, bodyStart) = blockVariable(tokens) else { return nil }
        var declaration = SpecDeclaration()
        var index = bodyStart
        while index + 3 < tokens.count, declaration.name == nil || declaration.version == nil {
            let key = tokens[index + 2].text
            if tokens[index].is(.identifier, variable), tokens[index + 1].isPunct("."), tokens[index + 2].kind == .identifier,
               key == "name" || key == "version", tokens[index + 3].isPunct("="),
               index == 0 || tokens[index - 1].kind == .newline {
                let value = assignedValue(tokens, from: index + 4, source: source)
                if key == "name" { declaration.name = declaration.name ?? value } else { declaration.version = declaration.version ?? value }
            }
            index += 1
        }
        return declaration
    }

    /// `s` and the index after `Pod::Spec.new do |s|` (or `{ |s|`).
    private static func blockVariable(_ tokens: [RubyToken]) -> (String, Int)? {
        var index = 0
        while index + 8 < tokens.count {
            if tokens[index].is(.identifier, "Pod"), tokens[index + 1].isPunct("::"), tokens[index + 2].is(.identifier, "Spec"),
               tokens[index + 3].isPunct("."), tokens[index + 4].is(.identifier, "new") {
                var cursor = index + 5
                if tokens[cursor].isPunct("(") {
                    while cursor < tokens.count, !tokens[cursor].isPunct(")") { cursor += 1 }
                    cursor += 1
                }
                guard cursor + 3 < tokens.count, tokens[cursor].is(.identifier, "do") || tokens[cursor].isPunct("{"),
                      tokens[cursor + 1].isPunct("|"), tokens[cursor + 2].kind == .identifier, tokens[cursor + 3].isPunct("|") else { return nil }
                return (tokens[cursor + 2].text, cursor + 4)
            }
            index += 1
        }
        return nil
    }

    /// The value from `start` to the end of the statement: a literal when it is one plain string.
    private static func assignedValue(_ tokens: [RubyToken], from start: Int, source: SourceText) -> DeclaredValue? {
        var end = start
        while end < tokens.count, tokens[end].kind != .newline { end += 1 }
        guard end > start else { return nil }
        let range = tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound
        var value = DeclaredValue(literal: nil, expression: source.text(range), span: source.span(range))
        let first = tokens[start]
        if end == start + 1, first.isPlainString, source.bytes[range.upperBound - 1] == first.close.utf8.last,
           range.count >= first.open.utf8.count + first.close.utf8.count {
            value.literal = first.text
            value.contentRange = (range.lowerBound + first.open.utf8.count)..<(range.upperBound - first.close.utf8.count)
        }
        return value
    }
}
