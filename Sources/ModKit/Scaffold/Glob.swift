/// Path patterns of `template.yml` (`skip:`, `executable:`): `*` and `?` within one path component, `**` across components.
enum Glob {
    /// Whether `path` (components joined by "/") matches `pattern`; a pattern without "/" matches the last component anywhere.
    static func matches(_ pattern: String, path: String) -> Bool {
        let pattern = pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern
        let parts = path.split(separator: "/").map(String.init)
        if !pattern.contains("/") { return parts.last.map { component(pattern, $0) } ?? false }
        return match(pattern.split(separator: "/").map(String.init)[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return parts.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            for start in parts.indices + [parts.endIndex] where match(rest, parts[start...]) { return true }
            return false
        }
        guard let part = parts.first, component(first, part) else { return false }
        return match(pattern.dropFirst(), parts.dropFirst())
    }

    /// One component against `*`/`?` wildcards.
    static func component(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        guard !p.isEmpty else { return t.isEmpty }
        var table = Array(repeating: Array(repeating: false, count: t.count + 1), count: p.count + 1)
        table[0][0] = true
        for i in 1...p.count {
            for j in 0...t.count {
                switch p[i - 1] {
                case "*": table[i][j] = table[i - 1][j] || (j > 0 && table[i][j - 1])
                case "?": table[i][j] = j > 0 && table[i - 1][j - 1]
                default: table[i][j] = j > 0 && table[i - 1][j - 1] && p[i - 1] == t[j - 1]
                }
            }
        }
        return table[p.count][t.count]
    }
}
