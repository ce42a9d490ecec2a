/// The one walk over a Podfile's tokens that both reading (`PodfileReader`) and overriding (`PodfileOverride`) use:
/// each `pod` call with the `target` blocks around it, and every other token as the block tracker sees it.
enum PodfileWalk {
    /// Calls `pod` for each `pod` call in file order; `before` and `after` see every other token with the block depth
    /// before and after it (to report a stray `end` or an unclosed block).
    static func walk(_ source: SourceText, _ tokens: [RubyToken],
                     pod: (RubyCall, RequirementContext) -> Void,
                     before: (RubyToken, _ depth: Int) throws(SpecReadError) -> Void = { _, _ in },
                     after: (RubyToken, _ depthBefore: Int, _ depthAfter: Int) -> Void = { _, _, _ in }) throws(SpecReadError) {
        var scopes = RubyScopeTracker()
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let isCommand = token.kind == .identifier && scopes.atStatementStart
            if isCommand && token.text == "pod" {
                let call = RubyCallParser.parse(tokens, afterName: index)
                pod(call, scopes.current)
                scopes.atStatementStart = false
                index = max(call.end, index + 1)
            } else if isCommand && (token.text == "target" || token.text == "abstract_target") {
                let call = RubyCallParser.parse(tokens, afterName: index)
                var context = scopes.current
                if let first = call.arguments.first {
                    let nameToken = tokens[first.tokenIndices[0]]
                    context.target = nameToken.kind == .string || nameToken.kind == .symbol ? nameToken.text : source.text(first.range)
                }
                scopes.pendingContext = context
                scopes.atStatementStart = false
                index = max(call.end, index + 1)
            } else {
                let depth = scopes.frames.count
                try before(token, depth)
                index = scopes.advance(tokens, at: index)
                after(token, depth, scopes.frames.count)
            }
        }
    }
}
