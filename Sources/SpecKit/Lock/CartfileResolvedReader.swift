extension ResolvedVersions {
    /// Reads a `Cartfile.resolved` (`github "org/Repo" "1.2.3"`, `git "url" "<sha>"`, `binary "url" "1.0"`).
    public static func cartfileResolved(_ text: String) -> ResolvedVersions {
        var entries: [Carthage] = []
        let source = SourceText(text)
        for (offset, start) in source.lineStarts.enumerated() {
            let end = offset + 1 < source.lineStarts.count ? source.lineStarts[offset + 1] - 1 : source.count
            let line = Substring(source.text(start..<end)).trimmingWhitespace()
            guard let space = line.firstIndex(of: " "),
                  let origin = DependencyOrigin(rawValue: String(line[..<space])), [.github, .git, .binary].contains(origin) else { continue }
            let strings = line[space...].split(separator: "\"", omittingEmptySubsequences: false)
            // `"a" "b"` splits into ["  ", a, " ", b, ""].
            guard strings.count >= 5 else { continue }
            entries.append(Carthage(origin: origin, name: String(strings[1]), version: String(strings[3])))
        }
        var result = ResolvedVersions()
        result.carthage = entries
        return result
    }
}
