/// Reads the `github`, `git` and `binary` lines of a Cartfile or Cartfile.private.
enum CartfileReader {
    /// Returns every dependency line in file order.
    static func read(_ source: SourceText) -> [Requirement] {
        var requirements: [Requirement] = []
        for (offset, start) in source.lineStarts.enumerated() {
            let end = offset + 1 < source.lineStarts.count ? source.lineStarts[offset + 1] - 1 : source.count
            if let requirement = readLine(source, start..<end) { requirements.append(requirement) }
        }
        return requirements
    }

    private static func readLine(_ source: SourceText, _ line: Range<Int>) -> Requirement? {
        let bytes = source.bytes
        var index = line.lowerBound
        func skipSpaces() { while index < line.upperBound && Byte.isSpace(bytes[index]) { index += 1 } }
        skipSpaces()
        let keywordStart = index
        while index < line.upperBound && Byte.isLetter(bytes[index]) { index += 1 }
        guard let origin = DependencyOrigin(rawValue: source.text(keywordStart..<index)),
              [.github, .git, .binary].contains(origin) else { return nil }
        skipSpaces()
        guard index < line.upperBound, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let (name, nameEnd) = quoted(source, from: index, in: line)
        index = nameEnd
        skipSpaces()
        let requirementStart = index
        var requirementEnd = index
        var inQuotes = false
        while index < line.upperBound {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") { inQuotes.toggle() }
            if c == UInt8(ascii: "#") && !inQuotes { break }
            index += 1
            if !Byte.isSpace(c) { requirementEnd = index }
        }
        let range = requirementStart..<max(requirementStart, requirementEnd)
        let text = source.text(range)

        func make(_ constraint: RequirementKind, _ range: Range<Int>, _ shape: RewriteShape?, reason: String? = nil) -> Requirement {
            Requirement(fileKind: .cartfile, name: name, origin: origin, constraint: constraint, rawText: source.text(range),
                        span: source.span(range), context: RequirementContext(), shape: shape, reason: reason)
        }

        if range.isEmpty {
            return make(.unconstrained, nameEnd..<nameEnd, RewriteShape(range: nameEnd..<nameEnd, prefix: " == ", suffix: ""))
        }
        let replace = RewriteShape(range: range, prefix: "== ", suffix: "")
        if bytes[range.lowerBound] == UInt8(ascii: "\"") {
            let (ref, refEnd) = quoted(source, from: range.lowerBound, in: line)
            guard refEnd == range.upperBound else {
                return make(.range(text), range, nil, reason: "the requirement is not a form SpecKit rewrites (\(text))")
            }
            let isCommit = ref.utf8.count == 40 && ref.utf8.allSatisfy(Byte.isHex)
            var requirement = make(isCommit ? .revision(ref) : .branch(ref), range, replace)
            if !isCommit { requirement.revisionShape = RewriteShape(range: range, prefix: "\"", suffix: "\"") }
            return requirement
        }
        for op in ["==", "~>", ">="] where text.hasPrefix(op) {
            let version = String(Substring(text.dropFirst(op.count)).trimmingWhitespace())
            guard !version.isEmpty, !version.contains(where: { $0 == " " || $0 == "\"" }) else { break }
            return make(op == "==" ? .exact(version) : .range(text), range, replace)
        }
        return make(.range(text), range, nil, reason: "the requirement is not a form SpecKit rewrites (\(text))")
    }

    /// Reads a double-quoted Cartfile string starting at `start`; returns its value and the offset after it.
    static func quoted(_ source: SourceText, from start: Int, in line: Range<Int>) -> (String, Int) {
        var index = start + 1
        while index < line.upperBound && source.bytes[index] != UInt8(ascii: "\"") { index += 1 }
        let value = source.text((start + 1)..<index)
        return (value, min(index + 1, line.upperBound))
    }
}
