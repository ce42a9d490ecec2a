/// Reads the `dependency` declarations of a Ruby `*.podspec`, including subspecs, test/app specs and platform forms.
enum PodspecReader {
    /// The platform proxies a podspec may put between the spec variable and `dependency`.
    static let platforms: Set<String> = ["ios", "osx", "macos", "tvos", "watchos", "visionos"]

    /// Returns every dependency declaration in file order.
    static func read(_ source: SourceText) -> [Requirement] {
        let tokens = RubyLexer.tokenize(source)
        let builder = RubyDependency(source: source, tokens: tokens, fileKind: .podspec)
        var scopes = RubyScopeTracker()
        var requirements: [Requirement] = []
        var index = 0
        while index < tokens.count {
            guard let (receiver, platform, method, methodIndex) = specCall(tokens, at: index) else {
                index = scopes.advance(tokens, at: index)
                continue
            }
            let receiverContext = scopes.context(boundTo: receiver) ?? scopes.frames[0].context
            let call = RubyCallParser.parse(tokens, afterName: methodIndex)
            if method == "dependency" {
                var context = receiverContext
                context.platform = platform
                if let requirement = builder.requirement(call, context: context) {
                    requirements.append(requirement)
                }
            } else {
                scopes.pendingContext = blockContext(method, call, tokens, source, parent: receiverContext)
            }
            scopes.atStatementStart = false
            index = call.end
        }
        return requirements
    }

    /// Recognises `recv.dependency`, `recv.ios.dependency`, `recv.subspec`, `recv.test_spec` and `recv.app_spec` at `index`.
    private static func specCall(_ tokens: [RubyToken], at index: Int) -> (String, String?, String, Int)? {
        let methods: Set<String> = ["dependency", "subspec", "test_spec", "app_spec"]
        guard tokens[index].kind == .identifier, index + 2 < tokens.count, tokens[index + 1].isPunct("."),
              index == 0 || !(tokens[index - 1].isPunct(".") || tokens[index - 1].isPunct("::")) else { return nil }
        let receiver = tokens[index].text
        let second = tokens[index + 2]
        guard second.kind == .identifier else { return nil }
        if methods.contains(second.text) {
            return (receiver, nil, second.text, index + 2)
        }
        if platforms.contains(second.text), index + 4 < tokens.count, tokens[index + 3].isPunct("."),
           tokens[index + 4].is(.identifier, "dependency") {
            return (receiver, second.text, "dependency", index + 4)
        }
        return nil
    }

    private static func blockContext(_ method: String, _ call: RubyCall, _ tokens: [RubyToken], _ source: SourceText,
                                     parent: RequirementContext) -> RequirementContext {
        var name: String
        if let first = call.arguments.first {
            let token = tokens[first.tokenIndices[0]]
            name = first.kind == .string && token.isPlainString ? token.text : source.text(first.range)
        } else {
            name = method == "app_spec" ? "App" : "Tests"
        }
        var context = parent
        context.platform = nil
        context.hasConfigurations = false
        switch method {
        case "subspec":
            context.block = .subspec
            if let parentName = parent.specName { name = parentName + "/" + name }
        case "test_spec":
            context.block = .testSpec
        default:
            context.block = .appSpec
        }
        context.specName = name
        return context
    }
}
