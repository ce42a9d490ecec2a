/// Classifies CocoaPods requirement strings (`'1.0'`, `'= 1.0'`, `'~> 1.0'`, `'>= 1.0', '< 2.0'`).
enum CocoaPodsVersion {
    /// The kind of requirement a list of requirement strings expresses.
    static func classify(_ requirements: [String]) -> RequirementKind {
        let exacts = requirements.map(exactVersion)
        if let first = exacts.first, let version = first, exacts.allSatisfy({ $0 == version }) {
            return .exact(version)
        }
        return .range(requirements.map { trimmed($0) }.joined(separator: ", "))
    }

    /// The version a single requirement string fixes, or nil when it allows several.
    static func exactVersion(_ requirement: String) -> String? {
        let text = trimmed(requirement)
        if text.hasPrefix("=") && !text.hasPrefix("==") {
            return trimmed(String(text.dropFirst()))
        }
        if text.hasPrefix("==") { return trimmed(String(text.dropFirst(2))) }
        guard let first = text.unicodeScalars.first, first.properties.numericType != nil || first == "v" else { return nil }
        return text.contains(" ") ? nil : text
    }

    private static func trimmed(_ text: String) -> String {
        String(Substring(text).trimmingWhitespace())
    }
}
