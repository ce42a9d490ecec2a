/// Points the `pod` lines of a Podfile at local checkouts (`:path => '../Core'`), as `modkit develop` does; the
/// original bytes are kept by the caller, so only the pod lines it overrides and the lines it adds change.
public enum PodfileOverride {
    /// What to do to one Podfile: the local folder of each developed pod, and the pods that reach it only through others.
    public struct Request: Sendable {
        /// Lowercased root pod name → the folder of its podspec, relative to the Podfile's folder.
        public var paths: [String: String]
        /// Lowercased root pod name of a developed pod → the lowercased pods of the Podfile that bring it in
        /// (through podspec dependencies); it gets its own `:path` line after the first of them in each target.
        public var transitive: [String: Set<String>]
        /// Pod names as their podspecs spell them, by lowercased name, for the lines added.
        public var spelling: [String: String]

        public init(paths: [String: String], transitive: [String: Set<String>] = [:], spelling: [String: String] = [:]) {
            self.paths = paths
            self.transitive = transitive
            self.spelling = spelling
        }
    }

    /// Options that choose where a pod comes from; they give way to `:path`. Other options (configurations, modular headers, …) stay.
    private static let sourceOptions: Set<String> = ["path", "git", "branch", "tag", "commit", "podspec", "source", "http"]

    /// The Podfile's lowercased root pod names as written with a literal name, in file order; checks that the file is
    /// one modkit can read (balanced blocks, terminated strings) and throws the first problem at its line:column.
    public static func pods(_ bytes: [UInt8]) throws(SpecReadError) -> [String] {
        try scan(SourceText(bytes: bytes)).calls.compactMap(\.root)
    }

    /// The Podfile with every `pod` line of a developed pod pointing at its local folder and a `:path` line added for
    /// each developed pod that reaches it only transitively. A pod whose name or version is computed in code is refused.
    public static func apply(_ bytes: [UInt8], _ request: Request) throws(SpecReadError) -> [UInt8] {
        let source = SourceText(bytes: bytes)
        let scanned = try scan(source)
        let tokens = scanned.tokens
        var edits: [TextEdit] = []
        var added: Set<String> = []   // "pod\u{0}target"
        var insertions: [Int: String] = [:]
        for call in scanned.calls {
            guard let nameArgument = call.call.arguments.first else { continue }
            let nameToken = tokens[nameArgument.tokenIndices[0]]
            guard let root = call.root else {
                let text = source.text(nameArgument.range)
                if request.paths.keys.contains(where: { text.lowercased().contains($0) }) {
                    throw error(source, nameArgument.range, "the pod name \(text) is computed in code; modkit develop cannot tell which pod it is: write the name as a string")
                }
                continue
            }
            let quote = RubyDependency.quote(forNameOpening: nameToken.open)
            if let path = request.paths[root] {
                let rest = call.call.arguments.dropFirst()
                if let dynamic = rest.first(where: { $0.kind == .other || ($0.kind == .string && !tokens[$0.tokenIndices[0]].isPlainString) }) {
                    throw error(source, dynamic.range, "the requirement of '\(nameToken.text)' is computed in code (\(source.text(dynamic.range))); modkit develop does not rewrite it: write it as a string")
                }
                let kept = rest.filter { $0.kind == .hash || ($0.kind == .option && !sourceOptions.contains($0.key ?? "")) }
                let labelled = rest.contains { $0.kind == .option && tokens[$0.tokenIndices[0]].kind == .label }
                var replacement = ", " + (labelled ? "path: " : ":path => ") + quote + escape(path, quote) + quote
                for option in kept { replacement += ", " + source.text(option.range) }
                let end = rest.last?.range.upperBound ?? nameArgument.range.upperBound
                edits.append(TextEdit(range: nameArgument.range.upperBound..<end, replacement: replacement))
            }
            // Developed pods this line brings in without naming them: one line each, after the first such pod of the target.
            for (pod, bringers) in request.transitive.sorted(by: { $0.key < $1.key }) where bringers.contains(root) {
                guard let path = request.paths[pod], added.insert(pod + "\u{0}" + (call.context.target ?? "")).inserted else { continue }
                let lineEnd = lineEnd(after: tokens[call.call.end - 1].range.upperBound, in: source)
                let indent = indentation(of: nameArgument.range.lowerBound, in: source)
                let newline = lineEnd.crlf ? "\r\n" : "\n"
                let name = request.spelling[pod] ?? pod
                let line = indent + "pod " + quote + escape(name, quote) + quote + ", :path => " + quote + escape(path, quote) + quote
                insertions[lineEnd.offset, default: ""] += lineEnd.hadNewline ? line + newline : newline + line
            }
        }
        for (offset, text) in insertions { edits.append(TextEdit(range: offset..<offset, replacement: text)) }
        do { return try TextEdit.apply(edits, to: bytes) } catch {
            throw SpecReadError(line: 1, column: 1, message: error.message)
        }
    }

    /// One `pod` call with the target it sits in.
    private struct PodCall {
        var call: RubyCall
        var context: RequirementContext
        /// The lowercased root pod name when the name is a plain string literal.
        var root: String?
    }

    private static func scan(_ source: SourceText) throws(SpecReadError) -> (tokens: [RubyToken], calls: [PodCall]) {
        let tokens = RubyLexer.tokenize(source)
        if let open = tokens.last(where: { $0.kind == .string || $0.kind == .heredoc }), open.range.upperBound >= source.count, !endsWith(source, open) {
            throw error(source, open.range, "unterminated string (expected \(open.close))")
        }
        var openers: [Range<Int>] = []
        var calls: [PodCall] = []
        try PodfileWalk.walk(source, tokens, pod: { call, context in
            var root: String?
            if let first = call.arguments.first, first.kind == .string, tokens[first.tokenIndices[0]].isPlainString {
                root = String(tokens[first.tokenIndices[0]].text.split(separator: "/", omittingEmptySubsequences: false).first ?? "").lowercased()
            }
            calls.append(PodCall(call: call, context: context, root: root))
        }, before: { (token, depth) throws(SpecReadError) in
            if token.is(.identifier, "end") || token.isPunct("}"), depth == 1 {
                throw error(source, token.range, "'\(token.text)' closes nothing")
            }
        }, after: { token, depthBefore, depthAfter in
            if depthAfter > depthBefore { openers.append(token.range) }
            if depthAfter < depthBefore { openers.removeLast() }
        })
        if let open = openers.last {
            throw error(source, open, "'\(source.text(open))' is never closed (expected 'end' or '}')")
        }
        return (tokens, calls)
    }

    private static func endsWith(_ source: SourceText, _ token: RubyToken) -> Bool {
        let close = Array(token.close.utf8)
        return close.isEmpty || source.bytes[token.range].count >= close.count && Array(source.bytes[token.range].suffix(close.count)) == close
    }

    private static func error(_ source: SourceText, _ range: Range<Int>, _ message: String) -> SpecReadError {
        let span = source.span(range)
        return SpecReadError(line: span.line, column: span.column, message: message)
    }

    /// Where the line holding `offset` ends: just after its newline, and whether that newline is CRLF.
    private static func lineEnd(after offset: Int, in source: SourceText) -> (offset: Int, crlf: Bool, hadNewline: Bool) {
        var index = offset
        while index < source.count && source.bytes[index] != 10 { index += 1 }
        guard index < source.count else {
            let crlf = source.bytes.firstIndex(of: 10).map { $0 > 0 && source.bytes[$0 - 1] == 13 } ?? false
            return (source.count, crlf, false)
        }
        return (index + 1, index > 0 && source.bytes[index - 1] == 13, true)
    }

    /// The blanks before the first character of the line holding `offset`.
    private static func indentation(of offset: Int, in source: SourceText) -> String {
        var start = offset
        while start > 0 && source.bytes[start - 1] != 10 { start -= 1 }
        var end = start
        while end < offset && (source.bytes[end] == 32 || source.bytes[end] == 9) { end += 1 }
        return String(decoding: source.bytes[start..<end], as: UTF8.self)
    }

    /// `value` inside a Ruby string literal opened by `quote`.
    private static func escape(_ value: String, _ quote: String) -> String {
        var result = ""
        var previous: Character?
        for character in value {
            if character == "\\" || String(character) == quote || (quote == "\"" && character == "{" && previous == "#") { result.append("\\") }
            result.append(character)
            previous = character
        }
        return result
    }
}
