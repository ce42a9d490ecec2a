import Foundation

/// Adds a release section to a `CHANGELOG.md`.
public enum Changelog {
    /// `text` with `## VERSION — DATE` and the entries added above the previous sections (below a `# ` title);
    /// nil when a section for that version already exists, so a rerun never duplicates it.
    public static func adding(version: String, date: String, entries: [String], to text: String?) -> String? {
        let bullets = entries.isEmpty ? ["- No changes."] : entries.map { "- \($0)" }
        let section = "## \(version) — \(date)\n\n" + bullets.joined(separator: "\n") + "\n"
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
}
