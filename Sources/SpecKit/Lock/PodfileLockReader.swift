extension ResolvedVersions {
    /// Reads the `PODS:` section of a `Podfile.lock` (`- Name (1.2.3)`, `- Name/Subspec (1.2.3):`, quoted entries).
    public static func podfileLock(_ text: String) -> ResolvedVersions {
        var result = ResolvedVersions()
        var pods: [String: String] = [:]
        var inPods = false
        var inCheckout = false
        var checkoutPod: String?
        for rawLine in SourceText(text).body.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = Substring(rawLine)
            if let first = line.first, !first.isWhitespace {
                inPods = line.hasPrefix("PODS:")
                inCheckout = line.hasPrefix("CHECKOUT OPTIONS:")
                continue
            }
            if inCheckout {
                // `  Name:` then `    :commit: <sha>` (and `:git:`).
                if line.hasPrefix("    ") {
                    let entry = line.trimmingWhitespace()
                    if entry.hasPrefix(":commit:"), let pod = checkoutPod {
                        result.podCommits[pod] = String(entry.dropFirst(":commit:".count).trimmingWhitespace())
                    }
                } else {
                    var name = line.trimmingWhitespace()
                    if name.hasSuffix(":") { name = name.dropLast() }
                    if name.count >= 2, let quote = name.first, quote == "\"" || quote == "'", name.last == quote { name = name.dropFirst().dropLast() }
                    checkoutPod = String(name)
                }
                continue
            }
            guard inPods, line.hasPrefix("  - ") else { continue }
            var entry = line.dropFirst(4).trimmingWhitespace()
            if entry.hasSuffix(":") { entry = entry.dropLast() }
            if entry.count >= 2, let quote = entry.first, quote == "\"" || quote == "'", entry.last == quote {
                entry = entry.dropFirst().dropLast()
            }
            guard let open = entry.lastIndex(of: "("), entry.hasSuffix(")") else { continue }
            let name = String(entry[..<open].trimmingWhitespace())
            let version = String(entry[entry.index(after: open)..<entry.index(before: entry.endIndex)].trimmingWhitespace())
            guard !name.isEmpty, !version.isEmpty else { continue }
            pods[name] = version
            let root = String(name.split(separator: "/").first ?? Substring(name))
            if pods[root] == nil { pods[root] = version }
        }
        result.pods = pods
        return result
    }
}
