import Foundation

/// Adds a release section to a `CHANGELOG.md`.
public enum Changelog {
    /// `text` with `## VERSION — DATE` and the entries added above the previous sections (below a `# ` title);
    /// nil when a section for that version already exists, so a rerun never duplicates it.
    public static func adding(version: String, date: String, entries: [String], to text: String?) -> String? {
        adding(version: version, date: date, body: entries.isEmpty ? ["- No changes."] : entries.map { "- \($0)" }, to: text)
    }

    /// `text` with `## VERSION — DATE` and the lines of `body` added, as `adding(version:date:entries:to:)` does.
    public static func adding(version: String, date: String, body: [String], to text: String?) -> String? {
        let section = "## \(version) — \(date)\n\n" + body.joined(separator: "\n") + "\n"
        guard let text, !text.isEmpty else { return "# Changelog\n\n" + section }
        if hasSection(version, in: text) { return nil }
        var lines = text.components(separatedBy: "\n")
        let sectionLines = section.components(separatedBy: "\n")   // ends with "": a blank line after the section
        if let first = lines.firstIndex(where: { $0.hasPrefix("## ") }) {
            // Newest first: above the latest section, below the title and any introduction.
            lines.insert(contentsOf: sectionLines, at: first)
            return lines.joined(separator: "\n")
        }
        if lines.first?.hasPrefix("# ") == true {
            while lines.last == "" { lines.removeLast() }
            return (lines + [""] + sectionLines).joined(separator: "\n")
        }
        return section + "\n" + text
    }

    /// Whether `## VERSION` (with or without a date) heads a section.
    public static func hasSection(_ version: String, in text: String) -> Bool {
        text.components(separatedBy: "\n").contains { line in
            guard line.hasPrefix("## ") else { return false }
            let title = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let first = title.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            return first == version || first == "[\(version)]" || first == "v\(version)"
        }
    }

    /// Today as `YYYY-MM-DD` in UTC.
    public static func today(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// A section's lines: an optional link to the commit range, then the commits grouped under Breaking changes,
    /// Features, Fixes and Other (newest first within a group, each with its short id).
    public static func body(commits: [(message: String, short: String)], link: String?) -> [String] {
        var lines: [String] = []
        if let link { lines += ["[Full list of commits](\(link))", ""] }
        guard !commits.isEmpty else { return lines + ["- No changes."] }
        let parsed = commits.map { (ConventionalCommit(message: $0.message), $0.short) }
        for group in ConventionalCommit.Group.allCases {
            let entries = parsed.filter { $0.0.group == group }
            guard !entries.isEmpty else { continue }
            if lines.last.map({ !$0.isEmpty }) ?? false { lines.append("") }
            lines += ["### \(group.rawValue)", ""]
            lines += entries.map { commit, short in "- \(commit.type.map { _ in capitalized(commit.description) } ?? commit.description) (\(short))" }
        }
        return lines
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    /// A web link to the commits between two refs where the remote is on GitHub, GitLab or Bitbucket; nil elsewhere.
    public static func compareLink(remote url: String, from old: String, to new: String) -> String? {
        var rest = Substring(url)
        for scheme in ["https://", "http://", "ssh://", "git://"] where rest.hasPrefix(scheme) { rest = rest.dropFirst(scheme.count) }
        if let at = rest.firstIndex(of: "@"), rest[..<at].firstIndex(of: "/") == nil { rest = rest[rest.index(after: at)...] }
        guard let separator = rest.firstIndex(where: { $0 == "/" || $0 == ":" }) else { return nil }
        var host = String(rest[..<separator]).lowercased()
        if let port = host.firstIndex(of: ":") { host = String(host[..<port]) }
        var path = String(rest[rest.index(after: separator)...])
        // scp-like `host:path`, or `host:port/path` in an ssh:// url.
        if rest[separator] == ":", let slash = path.firstIndex(of: "/"), path[..<slash].allSatisfy(\.isNumber) { path = String(path[path.index(after: slash)...]) }
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix(".git") { path.removeLast(4) }
        guard !path.isEmpty, !host.isEmpty else { return nil }
        let base = "https://\(host)/\(path)"
        if host.contains("github") { return "\(base)/compare/\(old)...\(new)" }
        if host.contains("gitlab") { return "\(base)/-/compare/\(old)...\(new)" }
        if host.contains("bitbucket") { return "\(base)/branches/compare/\(new)%0D\(old)" }
        return nil
    }
}
