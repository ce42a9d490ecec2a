/// west's import filters, as west applies them: a project is blocked when its name is in `name-blocklist` or its path
/// matches a `path-blocklist` pattern, allowed when its name is in `name-allowlist` or its path matches a
/// `path-allowlist` pattern; a blocked project is taken only when allowed, any other only when allowed or when the
/// import has no allowlist. The filters of nested imports all apply.
enum WestImportFilter {
    /// Whether one import's filters take the project `name` at `path` (its path in the workspace, path prefixes included).
    static func allows(_ entry: ManifestImport, name: String, path: String) -> Bool {
        let nameAllow = entry.nameAllowlist ?? [], pathAllow = entry.pathAllowlist ?? []
        let blocked = (entry.nameBlocklist ?? []).contains(name) || (entry.pathBlocklist ?? []).contains { matches($0, path: path) }
        let allowed = nameAllow.contains(name) || pathAllow.contains { matches($0, path: path) }
        return allowed || (!blocked && nameAllow.isEmpty && pathAllow.isEmpty)
    }

    /// Python's `PurePosixPath(path).match(pattern)`, which west uses: a relative pattern matches the path's last
    /// components, one pattern component per path component, each with `*`, `?` and `[…]` (`**` is `*`).
    static func matches(_ pattern: String, path: String) -> Bool {
        let patternParts = components(pattern), pathParts = components(path)
        guard !patternParts.isEmpty else { return false }
        if pattern.hasPrefix("/") { return false }  // module paths are relative; an absolute pattern matches none of them
        guard patternParts.count <= pathParts.count else { return false }
        return zip(patternParts.reversed(), pathParts.reversed()).allSatisfy { component($0, $1) }
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." }
    }

    /// One pattern element of `fnmatch`.
    private enum Token {
        case star, any
        case character(Character)
        case set([ClosedRange<Character>], negated: Bool)

        func accepts(_ c: Character) -> Bool {
            switch self {
            case .star, .any: true
            case .character(let own): own == c
            case .set(let ranges, let negated): ranges.contains { $0.contains(c) } != negated
            }
        }
    }

    /// `fnmatch.fnmatchcase` of one component; a `[` without its `]` is an ordinary character, as in Python.
    static func component(_ pattern: Substring, _ text: Substring) -> Bool {
        let tokens = tokenize(Array(pattern))
        let text = Array(text)
        // matched[j]: the tokens so far match the first j characters.
        var matched = [true] + Array(repeating: false, count: text.count)
        for token in tokens {
            var next = Array(repeating: false, count: text.count + 1)
            for j in 0...text.count {
                if case .star = token {
                    next[j] = matched[j] || (j > 0 && next[j - 1])
                } else {
                    next[j] = j > 0 && matched[j - 1] && token.accepts(text[j - 1])
                }
            }
            matched = next
        }
        return matched[text.count]
    }

    private static func tokenize(_ p: [Character]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case "*":
                if case .star = tokens.last {} else { tokens.append(.star) }
            case "?":
                tokens.append(.any)
            case "[":
                var j = i + 1
                let negated = j < p.count && p[j] == "!"
                if negated { j += 1 }
                if j < p.count, p[j] == "]" { j += 1 }
                while j < p.count, p[j] != "]" { j += 1 }
                guard j < p.count else { tokens.append(.character("[")); break }
                var ranges: [ClosedRange<Character>] = []
                var k = i + 1 + (negated ? 1 : 0)
                while k < j {
                    if k + 2 < j, p[k + 1] == "-" {
                        if p[k] <= p[k + 2] { ranges.append(p[k]...p[k + 2]) }
                        k += 3
                    } else {
                        ranges.append(p[k]...p[k])
                        k += 1
                    }
                }
                tokens.append(.set(ranges, negated: negated))
                i = j
            default:
                tokens.append(.character(p[i]))
            }
            i += 1
        }
        return tokens
    }
}
