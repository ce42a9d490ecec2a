/// Reads the `dependencies` of a `*.podspec.json`, including platform sections, subspecs, test specs and app specs.
enum PodspecJSONReader {
    /// Returns every dependency declaration in file order; throws when the file is not JSON.
    static func read(_ source: SourceText) throws(SpecReadError) -> [Requirement] {
        let root = try JSONScanner.parse(source)
        var requirements: [Requirement] = []
        visit(root, context: RequirementContext(), source: source, into: &requirements)
        return requirements.sorted { $0.span.range.lowerBound < $1.span.range.lowerBound }
    }

    private static func visit(_ spec: JSONNode, context: RequirementContext, source: SourceText, into requirements: inout [Requirement]) {
        if let dependencies = spec["dependencies"] {
            read(dependencies, context: context, source: source, into: &requirements)
        }
        for platform in PodspecReader.platforms.sorted() {
            if let section = spec[platform], let dependencies = section["dependencies"] {
                var platformContext = context
                platformContext.platform = platform
                read(dependencies, context: platformContext, source: source, into: &requirements)
            }
        }
        let children: [(String, RequirementContext.SpecBlock)] = [("subspecs", .subspec), ("testspecs", .testSpec), ("appspecs", .appSpec)]
        for (key, block) in children {
            guard case .array(let specs)? = spec[key]?.value else { continue }
            for child in specs {
                var childContext = RequirementContext(block: block)
                let name = child["name"]?.string ?? ""
                childContext.specName = block == .subspec ? [context.specName, name].compactMap { $0 }.joined(separator: "/") : name
                visit(child, context: childContext, source: source, into: &requirements)
            }
        }
    }

    private static func read(_ dependencies: JSONNode, context: RequirementContext, source: SourceText,
                             into requirements: inout [Requirement]) {
        for member in dependencies.members {
            let node = member.value
            var constraint = RequirementKind.unconstrained
            var range: Range<Int>
            var shape: RewriteShape?
            var reason: String?
            switch node.value {
            case .array(let elements):
                let strings = elements.compactMap(\.string)
                if let first = elements.first, let last = elements.last {
                    range = first.range.lowerBound..<last.range.upperBound
                } else {
                    range = (node.range.lowerBound + 1)..<(node.range.upperBound - 1)
                }
                if strings.count == elements.count {
                    constraint = strings.isEmpty ? .unconstrained : CocoaPodsVersion.classify(strings)
                    shape = RewriteShape(range: range, prefix: "\"", suffix: "\"")
                } else {
                    constraint = .range(source.text(range))
                    reason = "a requirement in the array is not a string"
                }
            case .string(let text):
                range = node.range
                constraint = CocoaPodsVersion.classify([text])
                shape = RewriteShape(range: range, prefix: "\"", suffix: "\"")
            default:
                range = node.range
                constraint = .range(source.text(range))
                reason = "the requirement is neither an array nor a string"
            }
            let rawText = constraint == .unconstrained ? "" : source.text(range)
            requirements.append(Requirement(fileKind: .podspecJSON, name: member.key, origin: .cocoapods, constraint: constraint,
                                            rawText: rawText, span: source.span(range), context: context, shape: shape, reason: reason))
        }
    }
}

extension PodspecJSONReader {
    /// The top-level `name` and `version` of a podspec.json.
    static func declaration(_ source: SourceText) throws(SpecReadError) -> SpecDeclaration? {
        let root = try JSONScanner.parse(source)
        func value(_ key: String) -> DeclaredValue? {
            guard let node = root[key] else { return nil }
            var value = DeclaredValue(literal: node.string, expression: source.text(node.range), span: source.span(node.range))
            if node.string != nil { value.contentRange = (node.range.lowerBound + 1)..<(node.range.upperBound - 1) }
            return value
        }
        return SpecDeclaration(name: value("name"), version: value("version"))
    }
}
