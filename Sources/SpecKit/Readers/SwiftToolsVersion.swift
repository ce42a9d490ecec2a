/// The `// swift-tools-version:X.Y` of a manifest, which decides how an exact requirement is spelled.
struct SwiftToolsVersion: Sendable, Comparable {
    var major: Int
    var minor: Int

    /// The first tools version that has the `exact:` label.
    static let exactLabel = SwiftToolsVersion(major: 5, minor: 6)

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }

    /// Reads the tools version from the first line of a manifest; nil when the line is missing or malformed.
    static func read(_ source: SourceText) -> SwiftToolsVersion? {
        // The comment is short; looking at no more than its first bytes keeps a huge first line linear.
        let end = min(source.lineStarts.count > 1 ? source.lineStarts[1] : source.count, source.bodyStart + 256)
        var line = Substring(source.text(source.bodyStart..<end))
        line = line.trimmingWhitespace()
        guard line.hasPrefix("//") else { return nil }
        line = line.dropFirst(2).trimmingWhitespace()
        guard line.lowercased().hasPrefix("swift-tools-version") else { return nil }
        line = line.dropFirst("swift-tools-version".count).trimmingWhitespace()
        guard line.hasPrefix(":") else { return nil }
        let version = line.dropFirst().trimmingWhitespace().prefix { $0.isNumber || $0 == "." }
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard let major = parts.first else { return nil }
        return SwiftToolsVersion(major: major, minor: parts.count > 1 ? parts[1] : 0)
    }
}
