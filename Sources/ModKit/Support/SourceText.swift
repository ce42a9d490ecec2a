/// The lines of a source text, split on the same breaks as YAML (LF, CRLF, CR, NEL, LS, PS), for quoting a line under a diagnostic.
public struct SourceText: Sendable {
    public let lines: [String]

    public init(_ text: String) {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if previousWasCR, scalar == "\n" { previousWasCR = false; continue }
            previousWasCR = scalar == "\r"
            if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        if lines.first?.unicodeScalars.first == "\u{FEFF}" { lines[0].unicodeScalars.removeFirst() }
        self.lines = lines
    }

    /// The 1-based line `number`, without its line break.
    public func line(_ number: Int) -> String? {
        number >= 1 && number <= lines.count ? lines[number - 1] : nil
    }
}
