/// Reads the `pod` lines of a Podfile, with their enclosing `target` blocks.
enum PodfileReader {
    /// Returns every `pod` declaration in file order.
    static func read(_ source: SourceText) -> [Requirement] {
        let tokens = RubyLexer.tokenize(source)
        let builder = RubyDependency(source: source, tokens: tokens, fileKind: .podfile)
        var scopes = RubyScopeTracker()
        var requirements: [Requirement] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let isCommand = token.kind == .identifier && scopes.atStatementStart
            if isCommand && token.text == "pod" {
                let call = RubyCallParser.parse(tokens, afterName: index)
                if let requirement = builder.requirement(call, context: scopes.current) {
                    requirements.append(requirement)
                }
                scopes.atStatementStart = false
                index = call.end
            } else if isCommand && (token.text == "target" || token.text == "abstract_target") {
                let call = RubyCallParser.parse(tokens, afterName: index)
                var context = scopes.current
                if let first = call.arguments.first {
                    let nameToken = tokens[first.tokenIndices[0]]
                    context.target = nameToken.kind == .string || nameToken.kind == .symbol ? nameToken.text : source.text(first.range)
                }
                scopes.pendingContext = context
                scopes.atStatementStart = false
                index = call.end
            } else {
                index = scopes.advance(tokens, at: index)
            }
        }
        return requirements
    }
}
