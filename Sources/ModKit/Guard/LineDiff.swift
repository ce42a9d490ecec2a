/// A unified diff of two texts by lines, for `--dry-run`; an LCS table is plenty for files of a few hundred lines.
public enum LineDiff {
    enum Edit: Equatable { case same(Int, Int), delete(Int), insert(Int) }

    /// `--- old` / `+++ new` headers and `@@` hunks with `context` lines around each change; empty when the texts are equal.
    /// A nil `old` is a new file (`--- /dev/null`).
    public static func unified(old: String?, new: String, oldPath: String, newPath: String, context: Int = 3) -> String {
        guard old != new else { return "" }
        let a = lines(old ?? "")
        let b = lines(new)
        let edits = script(a, b)
        var out = ["--- \(old == nil ? "/dev/null" : oldPath)", "+++ \(newPath)"]
        for hunk in hunks(edits, context: context) {
            var oldStart = 0, newStart = 0, oldCount = 0, newCount = 0
            var body: [String] = []
            for (i, edit) in hunk.enumerated() {
                switch edit {
                case let .same(x, y):
                    if i == 0 { oldStart = x; newStart = y }
                    oldCount += 1; newCount += 1
                    body.append(" " + a[x])
                case let .delete(x):
                    if i == 0 { oldStart = x; newStart = firstNew(after: hunk, b: b) }
                    oldCount += 1
                    body.append("-" + a[x])
                case let .insert(y):
                    if i == 0 { newStart = y; oldStart = firstOld(after: hunk, a: a) }
                    newCount += 1
                    body.append("+" + b[y])
                }
            }
            out.append("@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@")
            out += body
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Lines without their terminators; a missing final newline is shown the way diff(1) does.
    static func lines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() } else { result[result.count - 1] += "\n\\ No newline at end of file" }
        return result
    }

    /// The shortest edit script by a longest-common-subsequence table; deletions come before insertions, as in diff(1).
    static func script(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count, m = b.count
        var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] { edits.append(.same(i, j)); i += 1; j += 1 }
            else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] { edits.append(.delete(i)); i += 1 }
            else { edits.append(.insert(j)); j += 1 }
        }
        return edits
    }

    /// Runs of edits around changes, each with up to `context` unchanged lines before and after.
    static func hunks(_ edits: [Edit], context: Int) -> [[Edit]] {
        let changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        var result: [[Edit]] = []
        var start: Int?, end = 0
        for index in changed {
            let from = max(0, index - context), to = min(edits.count - 1, index + context)
            if let s = start, from <= end + 1 { end = to; start = s }
            else {
                if let s = start { result.append(Array(edits[s...end])) }
                start = from; end = to
            }
        }
        if let s = start { result.append(Array(edits[s...end])) }
        return result
    }

    /// The old-file position of a hunk that starts with insertions: that of its first kept or deleted line, else the end.
    static func firstOld(after hunk: [Edit], a: [String]) -> Int {
        for edit in hunk { if case let .same(x, _) = edit { return x }; if case let .delete(x) = edit { return x } }
        return a.count
    }

    static func firstNew(after hunk: [Edit], b: [String]) -> Int {
        for edit in hunk { if case let .same(_, y) = edit { return y }; if case let .insert(y) = edit { return y } }
        return b.count
    }

    /// `start,count` with 1-based start; an empty range names the line before it, as diff(1) does.
    static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
    }
}
