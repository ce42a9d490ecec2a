extension Requirement {
    /// Whether the requirement is the spec's own version (`"#{s.version}"`, `s.version.to_s`, `s.version`): lockstep, exact by construction
    /// when the dependency is released together with the spec.
    public var isOwnVersion: Bool {
        guard fileKind == .podspec else { return false }
        var text = rawText.filter { !$0.isWhitespace }
        if text.hasPrefix("\"#{") && text.hasSuffix("}\"") {
            text = String(text.dropFirst(3).dropLast(2))
        } else if text.hasPrefix("%Q{#{") || text.hasPrefix("%{#{") {
            text = String(text.drop { $0 != "#" }.dropFirst(2).dropLast(2))
        }
        if text.hasSuffix(".to_s") { text = String(text.dropLast(5)) }
        guard text.hasSuffix(".version") else { return false }
        let receiver = text.dropLast(".version".count)
        return !receiver.isEmpty && receiver.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// Whether a `# modkit: ignore` (Ruby, Cartfile) or `// modkit: ignore` (Swift) comment on one of the requirement's lines silences it.
    /// For many requirements of one file, build `IgnoreComments` once instead.
    public func isIgnored(in bytes: [UInt8]) -> Bool {
        IgnoreComments(bytes, fileKind: fileKind).silence(self)
    }

    /// Whether `version` satisfies the requirement's own range; nil when the range is not one SpecKit evaluates.
    public func admits(_ version: String) -> Bool? {
        guard case .range(let text) = constraint, let candidate = VersionNumber(version) else { return nil }
        let bounds: [(String, VersionNumber)]
        switch fileKind {
        case .packageSwift: bounds = swiftBounds(rawText)
        default: bounds = text.split(separator: ",").compactMap { Self.operatorBound(String($0)) }.flatMap { $0 }
        }
        guard !bounds.isEmpty else { return nil }
        return bounds.allSatisfy { op, bound in
            switch op {
            case ">=": return candidate >= bound
            case ">": return candidate > bound
            case "<": return candidate < bound
            case "<=": return candidate <= bound
            default: return candidate == bound
            }
        }
    }

    /// `~> 1.2.3` → [>= 1.2.3, < 1.3]; `>= 1.0` → [>= 1.0].
    private static func operatorBound(_ text: String) -> [(String, VersionNumber)]? {
        let trimmed = text.trimmingCharacters(in: " \t")
        let op = String(trimmed.prefix { "<>=~!".contains($0) })
        guard let version = VersionNumber(String(trimmed.dropFirst(op.count)).trimmingCharacters(in: " \t")) else { return nil }
        switch op {
        case "~>": return [(">=", version), ("<", version.pessimisticUpperBound)]
        case ">=", ">", "<", "<=": return [(op, version)]
        case "", "=", "==": return [("=", version)]
        default: return nil
        }
    }

    /// Bounds of `from: "1.2.3"`, `.upToNextMajor/Minor(from:)`, `"a"..<"b"`, `"a"..."b"`.
    private func swiftBounds(_ text: String) -> [(String, VersionNumber)] {
        let strings = text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        guard let first = strings.first.flatMap(VersionNumber.init) else { return [] }
        if text.contains("..<"), strings.count == 2, let upper = VersionNumber(strings[1]) { return [(">=", first), ("<", upper)] }
        if text.contains("..."), strings.count == 2, let upper = VersionNumber(strings[1]) { return [(">=", first), ("<=", upper)] }
        if text.contains("upToNextMinor") { return [(">=", first), ("<", first.nextMinor)] }
        if text.contains("from") { return [(">=", first), ("<", first.nextMajor)] }
        return []
    }
}

/// The numeric part of a version (`v1.2.3-beta` → 1.2.3), compared component by component.
struct VersionNumber: Comparable {
    var parts: [Int]

    init?(_ text: String) {
        let core = (text.first == "v" || text.first == "V" ? text.dropFirst() : Substring(text)).prefix { $0 != "-" && $0 != "+" }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        self.parts = parts.map { $0! }
    }

    private init(parts: [Int]) { self.parts = parts }

    private func padded(_ count: Int) -> [Int] { parts + Array(repeating: 0, count: max(0, count - parts.count)) }

    static func < (lhs: Self, rhs: Self) -> Bool {
        let count = max(lhs.parts.count, rhs.parts.count)
        return lhs.padded(count).lexicographicallyPrecedes(rhs.padded(count))
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        let count = max(lhs.parts.count, rhs.parts.count)
        return lhs.padded(count) == rhs.padded(count)
    }

    /// The exclusive upper bound of `~> self`: drop the last component and bump the one before it.
    var pessimisticUpperBound: VersionNumber {
        guard parts.count > 1 else { return VersionNumber(parts: [parts[0] + 1]) }
        var upper = Array(parts.dropLast())
        upper[upper.count - 1] += 1
        return VersionNumber(parts: upper)
    }

    var nextMajor: VersionNumber { VersionNumber(parts: [parts[0] + 1]) }
    var nextMinor: VersionNumber { VersionNumber(parts: [parts[0], (parts.count > 1 ? parts[1] : 0) + 1]) }
}

extension String {
    /// Without the given leading and trailing characters (no Foundation needed).
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

/// The `# modkit: ignore` (Ruby, Cartfile) and `// modkit: ignore` (Swift) comments of one file, found in one pass, so asking
/// about each of thousands of requirements on one line never scans the line again.
public struct IgnoreComments: Sendable {
    private let source: SourceText
    /// Offsets of every `modkit: ignore`, ascending; empty in almost every file, and then nothing else is indexed.
    private let directives: [Int]
    /// Offsets of every comment marker (`#` or `//`), ascending.
    private let markers: [Int]
    private let markerLength: Int

    public init(_ bytes: [UInt8], fileKind: SpecFileKind) {
        source = SourceText(bytes: bytes)
        directives = Self.offsets(of: Array("modkit: ignore".utf8), in: bytes)
        let marker = Array((fileKind == .packageSwift ? "//" : "#").utf8)
        markerLength = marker.count
        markers = directives.isEmpty ? [] : Self.offsets(of: marker, in: bytes)
    }

    /// Whether a comment marker and, after it, `modkit: ignore` stand on the lines from the requirement's first to its last.
    public func silence(_ requirement: Requirement) -> Bool {
        guard !directives.isEmpty else { return false }
        let span = requirement.span
        let first = span.line - 1
        guard first >= 0, first < source.lineStarts.count else { return false }
        let last = source.position(of: max(span.range.lowerBound, span.range.upperBound - 1)).line - 1
        let start = source.lineStarts[first]
        let end = last + 1 < source.lineStarts.count ? source.lineStarts[last + 1] : source.count
        // The first marker on those lines, then the last directive that ends on them: the directive must come after the marker.
        let marker = Self.firstIndex(in: markers, atLeast: start)
        guard marker < markers.count, markers[marker] < end else { return false }
        let directive = Self.firstIndex(in: directives, atLeast: end - "modkit: ignore".utf8.count + 1) - 1
        return directive >= 0 && directives[directive] >= markers[marker] + markerLength
    }

    private static func offsets(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        guard let head = needle.first, bytes.count >= needle.count else { return found }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == head, bytes[index..<index + needle.count].elementsEqual(needle) {
                found.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The index of the first element of an ascending array that is at least `value` (the count when none is).
    private static func firstIndex(in sorted: [Int], atLeast value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
