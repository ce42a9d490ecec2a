/// Reads the `.package(…)` dependencies of a Package.swift, including `#if` branches and legacy forms.
enum PackageSwiftReader {
    /// One argument of a `.package(…)` call: its label and tokens.
    private struct Argument {
        var label: String?
        var tokens: ArraySlice<SwiftToken>
        var range: Range<Int>
        var valueRange: Range<Int>
    }

    private static let locationLabels: Set<String> = ["url", "path", "id", "name"]
    /// Labels of arguments that are neither the location nor the requirement (SwiftPM 6.1 package traits).
    private static let otherLabels: Set<String> = ["traits"]

    /// Returns every package dependency in file order; throws when the file ends inside a string.
    static func read(_ source: SourceText) throws(SpecReadError) -> [Requirement] {
        let tokens = try SwiftLexer.tokenize(source)
        let modern = (SwiftToolsVersion.read(source) ?? SwiftToolsVersion.exactLabel) >= SwiftToolsVersion.exactLabel
        var conditions = ConditionStack()
        var requirements: [Requirement] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .directive {
                conditions.apply(token)
            } else if token.isPunct("."), index + 2 < tokens.count, tokens[index + 1].kind == .identifier,
                      tokens[index + 1].text == "package", tokens[index + 2].isPunct("(") {
                let (arguments, end) = parseArguments(tokens, open: index + 2)
                if let requirement = requirement(arguments, source: source, modern: modern, condition: conditions.condition) {
                    requirements.append(requirement)
                }
                index = end
                continue
            }
            index += 1
        }
        return requirements
    }

    /// Splits the arguments of the call whose `(` is at `open`; returns them and the index after the `)`.
    private static func parseArguments(_ tokens: [SwiftToken], open: Int) -> ([Argument], Int) {
        var arguments: [Argument] = []
        var depth = 0
        var start = open + 1
        var index = open + 1
        func finish(_ end: Int) {
            guard end > start else { return }
            let slice = tokens[start..<end]
            var label: String?
            var valueStart = start
            if slice.count >= 2, tokens[start].kind == .identifier, tokens[start + 1].isPunct(":") {
                label = tokens[start].text
                valueStart = start + 2
            }
            let range = tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound
            let valueRange = valueStart < end ? tokens[valueStart].range.lowerBound..<tokens[end - 1].range.upperBound : range.upperBound..<range.upperBound
            arguments.append(Argument(label: label, tokens: tokens[valueStart..<end], range: range, valueRange: valueRange))
        }
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .punct {
                if ["(", "[", "{"].contains(token.text) { depth += 1 }
                else if [")", "]", "}"].contains(token.text) {
                    if depth == 0 {
                        finish(index)
                        return (arguments, index + 1)
                    }
                    depth -= 1
                } else if token.text == "," && depth == 0 {
                    finish(index)
                    start = index + 1
                }
            }
            index += 1
        }
        finish(index)
        return (arguments, index)
    }

    private static func requirement(_ arguments: [Argument], source: SourceText, modern: Bool, condition: String?) -> Requirement? {
        let context = RequirementContext(condition: condition)
        let location = arguments.first { ["url", "path", "id"].contains($0.label ?? "") }
        let declared = arguments.first { $0.label == "name" }.flatMap { plainString($0.tokens) }
        let requirementArguments = arguments.filter { !locationLabels.contains($0.label ?? "") && !otherLabels.contains($0.label ?? "") }
        guard let location, let label = location.label else { return nil }
        let origin: DependencyOrigin = label == "path" ? .path : (label == "id" ? .registry : .git)
        let locationValue = plainString(location.tokens)
        let name = locationValue ?? source.text(location.valueRange)

        func make(_ constraint: RequirementKind, _ range: Range<Int>, shape: RewriteShape?, reason: String?) -> Requirement {
            Requirement(fileKind: .packageSwift, name: name, origin: origin, declaredName: declared, constraint: constraint,
                        rawText: source.text(range), span: source.span(range), context: context, shape: shape, reason: reason)
        }

        if label == "path" {
            return make(.path(name), location.range, shape: nil, reason: "a local path: package is never rewritten")
        }
        guard let first = requirementArguments.first, let last = requirementArguments.last else {
            return make(.unconstrained, location.range.upperBound..<location.range.upperBound, shape: nil,
                        reason: "the .package(…) call has no requirement SpecKit recognises")
        }
        let range = first.range.lowerBound..<last.range.upperBound
        let shape = modern ? RewriteShape(range: range, prefix: "exact: \"", suffix: "\"")
                           : RewriteShape(range: range, prefix: ".exact(\"", suffix: "\")")
        if locationValue == nil {
            let kind = classify(first, source: source) ?? .range(source.text(range))
            return make(kind, range, shape: nil, reason: "the package location is not a string literal (\(name))")
        }
        guard requirementArguments.count == 1, let kind = classify(first, source: source) else {
            return make(.range(source.text(range)), range, shape: nil, reason: dynamicReason(requirementArguments, source.text(range)))
        }
        var requirement = make(kind, range, shape: shape, reason: nil)
        if case .branch = kind, origin == .git {
            requirement.revisionShape = modern ? RewriteShape(range: range, prefix: "revision: \"", suffix: "\"")
                                               : RewriteShape(range: range, prefix: ".revision(\"", suffix: "\")")
        }
        return requirement
    }

    /// Classifies a literal requirement argument, or returns nil when it is computed.
    private static func classify(_ argument: Argument, source: SourceText) -> RequirementKind? {
        let text = source.text(argument.range)
        let tokens = Array(argument.tokens)
        if let label = argument.label {
            guard let value = plainString(argument.tokens) else { return nil }
            switch label {
            case "from": return .range(text)
            case "exact": return .exact(value)
            case "branch": return .branch(value)
            case "revision": return .revision(value)
            default: return nil
            }
        }
        if tokens.count == 3, tokens[0].isPlainString, tokens[2].isPlainString, tokens[1].isPunct("..<") || tokens[1].isPunct("...") {
            return .range(text)
        }
        guard tokens.count >= 5, tokens[0].isPunct("."), tokens[1].kind == .identifier, tokens[2].isPunct("("),
              tokens[tokens.count - 1].isPunct(")"), tokens[tokens.count - 2].isPlainString else { return nil }
        let inner = tokens[3..<(tokens.count - 1)]
        let labelled = inner.count == 3 && inner.first?.text == "from" && inner.dropFirst().first?.isPunct(":") == true
        guard inner.count == 1 || labelled else { return nil }
        let value = tokens[tokens.count - 2].text
        switch (tokens[1].text, labelled) {
        case ("upToNextMajor", true), ("upToNextMinor", true): return .range(text)
        case ("exact", false): return .exact(value)
        case ("branch", false): return .branch(value)
        case ("revision", false): return .revision(value)
        default: return nil
        }
    }

    private static func plainString(_ tokens: ArraySlice<SwiftToken>) -> String? {
        guard tokens.count == 1, let token = tokens.first, token.isPlainString else { return nil }
        return token.text
    }

    /// Explains why a computed requirement cannot be rewritten.
    private static func dynamicReason(_ arguments: [Argument], _ text: String) -> String {
        let tokens = arguments.flatMap { Array($0.tokens) }
        if tokens.contains(where: { $0.kind == .string && $0.interpolated }) {
            return "the version uses string interpolation (\(text))"
        }
        if tokens.contains(where: { $0.isPunct("(") }) {
            return "the version comes from a function call (\(text))"
        }
        if tokens.contains(where: { $0.kind == .identifier }) {
            return "the version comes from a variable (\(text))"
        }
        return "the requirement is not a form SpecKit rewrites (\(text))"
    }
}

/// The stack of `#if` conditions enclosing the current position of a manifest.
struct ConditionStack {
    private var stack: [(current: String, earlier: [String])] = []

    /// Updates the stack for an `#if`, `#elseif`, `#else` or `#endif` token.
    mutating func apply(_ directive: SwiftToken) {
        switch directive.text {
        case "#if":
            stack.append((directive.condition, []))
        case "#elseif" where !stack.isEmpty:
            stack[stack.count - 1].earlier.append(stack[stack.count - 1].current)
            stack[stack.count - 1].current = directive.condition
        case "#else" where !stack.isEmpty:
            let all = stack[stack.count - 1].earlier + [stack[stack.count - 1].current]
            stack[stack.count - 1].earlier = all
            stack[stack.count - 1].current = "!(" + all.joined(separator: " || ") + ")"
        case "#endif" where !stack.isEmpty:
            stack.removeLast()
        default:
            break
        }
    }

    /// The enclosing conditions joined with ` && `, or nil outside any `#if`.
    var condition: String? {
        stack.isEmpty ? nil : stack.map(\.current).joined(separator: " && ")
    }
}
