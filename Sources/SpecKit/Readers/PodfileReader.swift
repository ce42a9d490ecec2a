/// Reads the `pod` lines of a Podfile, with their enclosing `target` blocks.
enum PodfileReader {
    /// Returns every `pod` declaration in file order.
    static func read(_ source: SourceText) -> [Requirement] {
        let tokens = RubyLexer.tokenize(source)
        let builder = RubyDependency(source: source, tokens: tokens, fileKind: .podfile)
        var requirements: [Requirement] = []
        // The walk throws only through the closures given to it, and these do not throw.
        try? PodfileWalk.walk(source, tokens, pod: { call, context in
            if let requirement = builder.requirement(call, context: context) { requirements.append(requirement) }
        })
        return requirements
    }
}
