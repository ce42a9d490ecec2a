/// Turns the arguments of `dependency`/`pod` calls into requirements, shared by the podspec and Podfile readers.
struct RubyDependency {
    let source: SourceText
    let tokens: [RubyToken]
    let fileKind: SpecFileKind

    /// The requirement a dependency call declares, or nil for a call without arguments.
    func requirement(_ call: RubyCall, context baseContext: RequirementContext) -> Requirement? {
        guard let nameArgument = call.arguments.first else { return nil }
        var context = baseContext
        let rest = call.arguments.dropFirst()
        let versionArguments = Array(rest.prefix(while: { $0.kind == .string || $0.kind == .other }))
        let options = Array(rest.dropFirst(versionArguments.count))
        let optionValues = values(of: options, context: &context)

        let nameToken = tokens[nameArgument.tokenIndices[0]]
        let afterName = nameArgument.range.upperBound
        guard nameArgument.kind == .string, nameToken.isPlainString else {
            let reason = nameToken.interpolated ? "the dependency name uses string interpolation" : "the dependency name is not a string literal"
            return make(name: source.text(nameArgument.range), constraint: constraint(of: versionArguments), versions: versionArguments,
                        insertAfter: afterName, context: context, shape: nil, reason: reason)
        }
        let name = nameToken.text

        if let path = optionValues["path"] {
            return make(name: name, origin: .path, constraint: .path(path), versions: versionArguments, insertAfter: afterName,
                        context: context, shape: nil, reason: "a local :path dependency is never rewritten")
        }
        if let podspec = optionValues["podspec"] {
            return make(name: name, origin: .podspec, constraint: .path(podspec), versions: versionArguments, insertAfter: afterName,
                        context: context, shape: nil, reason: "a :podspec dependency is never rewritten")
        }
        if optionValues["git"] != nil {
            return gitRequirement(name: name, optionValues: optionValues, options: options, versions: versionArguments, insertAfter: afterName, context: context)
        }
        return versionRequirement(name: name, nameToken: nameToken, versions: versionArguments, insertAfter: afterName, context: context)
    }

    /// The options after the version arguments by key (`:git`, `:path`, `:branch`…); options naming configurations set
    /// `hasConfigurations` in `context`.
    private func values(of options: [RubyArgument], context: inout RequirementContext) -> [String: String] {
        var values: [String: String] = [:]
        for option in options {
            if option.kind == .hash {
                if source.text(option.range).contains("configuration") { context.hasConfigurations = true }
                continue
            }
            guard let key = option.key else { continue }
            if key == "configurations" || key == "configuration" { context.hasConfigurations = true }
            values[key] = stringValue(option.valueIndices) ?? source.text(valueRange(option.valueIndices) ?? option.range)
        }
        return values
    }

    /// A `:git` dependency: at its `:commit` or `:tag`, else following its `:branch` (rewritten to the locked commit).
    private func gitRequirement(name: String, optionValues: [String: String], options: [RubyArgument], versions: [RubyArgument],
                                insertAfter: Int, context: RequirementContext) -> Requirement {
        let constraint: RequirementKind
        if let commit = optionValues["commit"] { constraint = .revision(commit) }
        else if let tag = optionValues["tag"] { constraint = .revision(tag) }
        else { constraint = .branch(optionValues["branch"] ?? "HEAD") }
        var requirement = make(name: name, origin: .git, constraint: constraint, versions: versions, insertAfter: insertAfter,
                               context: context, shape: nil, reason: "a :git dependency is pinned to the commit its lock file records, not to a version")
        if case .branch = constraint {
            requirement.revisionShape = commitShape(options: options)
            if let shape = requirement.revisionShape {
                requirement.rawText = source.text(shape.range)
                requirement.span = source.span(shape.range)
            }
        }
        return requirement
    }

    /// A CocoaPods dependency: none, literal version strings (rewritten into one), or versions computed in code (never rewritten).
    private func versionRequirement(name: String, nameToken: RubyToken, versions: [RubyArgument], insertAfter: Int,
                                    context: RequirementContext) -> Requirement {
        if versions.isEmpty {
            let quote = Self.quote(forNameOpening: nameToken.open)
            let shape = RewriteShape(range: insertAfter..<insertAfter, prefix: ", " + quote, suffix: quote)
            return make(name: name, constraint: .unconstrained, versions: [], insertAfter: insertAfter, context: context, shape: shape, reason: nil)
        }
        if let dynamic = versions.first(where: { $0.kind != .string || !tokens[$0.tokenIndices[0]].isPlainString }) {
            let values = versions.compactMap { $0.kind == .string ? tokens[$0.tokenIndices[0]].text : nil }
            let constraint: RequirementKind = .range(values.isEmpty ? source.text(dynamic.range) : values.joined(separator: ", "))
            return make(name: name, constraint: constraint, versions: versions, insertAfter: insertAfter,
                        context: context, shape: nil, reason: reason(dynamic))
        }
        let strings = versions.map { tokens[$0.tokenIndices[0]] }
        let constraint = CocoaPodsVersion.classify(strings.map(\.text))
        return make(name: name, constraint: constraint, versions: versions, insertAfter: insertAfter,
                    context: context, shape: collapseShape(versions), reason: nil)
    }

    private func make(name: String, origin: DependencyOrigin = .cocoapods, constraint: RequirementKind, versions: [RubyArgument],
                      insertAfter: Int, context: RequirementContext, shape: RewriteShape?, reason: String?) -> Requirement {
        let range = versions.isEmpty ? insertAfter..<insertAfter : versions[0].range.lowerBound..<versions[versions.count - 1].range.upperBound
        return Requirement(fileKind: fileKind, name: name, origin: origin, constraint: constraint, rawText: source.text(range),
                           span: source.span(range), context: context, shape: shape, reason: reason)
    }

    /// Replaces the last requirement string and deletes the earlier ones, keeping any comments between them.
    private func collapseShape(_ versions: [RubyArgument]) -> RewriteShape {
        let last = tokens[versions[versions.count - 1].tokenIndices[0]]
        var deletions: [Range<Int>] = []
        for (offset, argument) in versions.dropLast().enumerated() {
            let index = argument.tokenIndices[0]
            let nextIndex = versions[offset + 1].tokenIndices[0]
            let between = tokens[(index + 1)..<nextIndex]
            if between.contains(where: { $0.kind == .comment }), let comma = between.firstIndex(where: { $0.isPunct(",") }) {
                // Keep a comment after the comma where it is: delete up to it, not through it.
                let after = comma + 1 < nextIndex ? tokens[comma + 1] : nil
                let end = after?.kind == .comment ? after!.range.lowerBound : tokens[comma].range.upperBound
                deletions.append(argument.range.lowerBound..<end)
            } else {
                deletions.append(argument.range.lowerBound..<tokens[nextIndex].range.lowerBound)
            }
        }
        return RewriteShape(range: last.range, prefix: last.open, suffix: last.close, deletions: deletions)
    }

    /// `:branch => 'main'` becomes `:commit => '<sha>'` (`branch: 'main'` becomes `commit: '<sha>'`); without a branch, one is added after `:git`.
    private func commitShape(options: [RubyArgument]) -> RewriteShape? {
        if let branch = options.first(where: { $0.key == "branch" }), branch.valueIndices.count == 1 {
            let value = tokens[branch.valueIndices[0]]
            guard value.isPlainString else { return nil }
            let key = tokens[branch.tokenIndices[0]].kind == .label ? "commit: " : ":commit => "
            return RewriteShape(range: branch.range, prefix: key + value.open, suffix: value.close)
        }
        guard let git = options.first(where: { $0.key == "git" }), let valueIndex = git.valueIndices.last else { return nil }
        let value = tokens[valueIndex]
        let labelled = tokens[git.tokenIndices[0]].kind == .label
        let quote = value.open == "\"" ? "\"" : "'"
        let at = git.range.upperBound
        return RewriteShape(range: at..<at, prefix: ", " + (labelled ? "commit: " : ":commit => ") + quote, suffix: quote)
    }

    /// The requirement version arguments express, read as far as they are literal.
    private func constraint(of versions: [RubyArgument]) -> RequirementKind {
        guard !versions.isEmpty else { return .unconstrained }
        let literal = versions.allSatisfy { $0.kind == .string && tokens[$0.tokenIndices[0]].isPlainString }
        guard literal else { return .range(source.text(versions[0].range.lowerBound..<versions[versions.count - 1].range.upperBound)) }
        return CocoaPodsVersion.classify(versions.map { tokens[$0.tokenIndices[0]].text })
    }

    private func stringValue(_ indices: [Int]) -> String? {
        guard indices.count == 1, tokens[indices[0]].isPlainString || tokens[indices[0]].kind == .symbol else { return nil }
        return tokens[indices[0]].text
    }

    private func valueRange(_ indices: [Int]) -> Range<Int>? {
        guard let first = indices.first, let last = indices.last else { return nil }
        return tokens[first].range.lowerBound..<tokens[last].range.upperBound
    }

    /// Explains why a non-literal version argument cannot be rewritten.
    private func reason(_ argument: RubyArgument) -> String {
        let first = tokens[argument.tokenIndices[0]]
        let text = source.text(argument.range)
        if argument.tokenIndices.count == 1 {
            switch first.kind {
            case .string: return "the version uses string interpolation (\(text))"
            case .heredoc: return "the version comes from a heredoc"
            case .identifier: return "the version comes from the variable `\(text)`"
            case .symbol: return "the requirement is the symbol \(text), not a version string"
            default: return "the version is not a string literal (\(text))"
            }
        }
        let calls = argument.tokenIndices.contains { tokens[$0].isPunct(".") || tokens[$0].isPunct("(") }
        return calls ? "the version comes from a method call (\(text))" : "the version is an expression (\(text))"
    }

    /// The quote a new version string uses, following the quote of the dependency's name.
    static func quote(forNameOpening open: String) -> String {
        if open == "'" || open == "\"" { return open }
        return open.hasPrefix("%q") ? "'" : "\""
    }
}
