/// Renders the difference between two versions of a file as a unified diff with three lines of context, for `--dry-run`.
///
/// Returns an empty string when the texts are equal. Lines keep their own endings, so a
/// CRLF file shows its `\r`; a last line without a newline is marked the way `diff` marks it.
public func unifiedDiff(old: String, new: String, path: String) -> String {
    unifiedDiff(old: Array(old.utf8), new: Array(new.utf8), path: path)
}

/// The unified diff of two versions of a file's bytes; lines are compared byte for byte and shown as UTF-8.
///
/// `oldPath`/`newPath` default to `a/<path>` and `b/<path>`; a missing file is diffed as empty.
public func unifiedDiff(old: [UInt8], new: [UInt8], path: String, oldPath: String? = nil, newPath: String? = nil) -> String {
    guard old != new else { return "" }
    let oldLines = splitLines(old)
    let newLines = splitLines(new)
    let operations = diffOperations(oldLines, newLines)
    var output = "--- \(oldPath ?? "a/" + path)\n+++ \(newPath ?? "b/" + path)\n"
    for hunk in hunks(operations, context: 3) {
        let slice = operations[hunk]
        let oldCount = slice.filter { $0.kind != .insert }.count
        let newCount = slice.filter { $0.kind != .delete }.count
        let first = slice[slice.startIndex]
        output += "@@ -\(range(first.oldLine, oldCount)) +\(range(first.newLine, newCount)) @@\n"
        for operation in slice {
            switch operation.kind {
            case .equal: output += line(" ", oldLines[operation.oldLine])
            case .delete: output += line("-", oldLines[operation.oldLine])
            case .insert: output += line("+", newLines[operation.newLine])
            }
        }
    }
    return output
}

/// One step of a line diff; `oldLine`/`newLine` are 0-based and, for insertions and deletions, count the lines before.
private struct DiffOperation {
    enum Kind { case equal, delete, insert }
    var kind: Kind
    var oldLine: Int
    var newLine: Int
}

private func range(_ zeroBasedStart: Int, _ count: Int) -> String {
    if count == 1 { return "\(zeroBasedStart + 1)" }
    return count == 0 ? "\(zeroBasedStart),0" : "\(zeroBasedStart + 1),\(count)"
}

/// One line of the diff output; lines are bytes so that comparison is byte-exact, not Unicode-equivalent.
private func line(_ marker: String, _ bytes: ArraySlice<UInt8>) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    return bytes.last == UInt8(ascii: "\n") ? marker + text : marker + text + "\n\\ No newline at end of file\n"
}

private func splitLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        lines.append(bytes[start...index])
        start = index + 1
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    return lines
}

/// Diffs two line arrays: common prefix and suffix first, then a longest common subsequence of the middle.
private func diffOperations(_ old: [ArraySlice<UInt8>], _ new: [ArraySlice<UInt8>]) -> [DiffOperation] {
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
    var operations = (0..<prefix).map { DiffOperation(kind: .equal, oldLine: $0, newLine: $0) }
    let oldMiddle = Array(old[prefix..<(old.count - suffix)])
    let newMiddle = Array(new[prefix..<(new.count - suffix)])
    let n = oldMiddle.count
    let m = newMiddle.count
    if n * m <= 4_000_000 {
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = oldMiddle[i] == newMiddle[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n && j < m && oldMiddle[i] == newMiddle[j] {
                operations.append(DiffOperation(kind: .equal, oldLine: prefix + i, newLine: prefix + j))
                i += 1
                j += 1
            } else if i < n && (j == m || table[i + 1][j] >= table[i][j + 1]) {
                operations.append(DiffOperation(kind: .delete, oldLine: prefix + i, newLine: prefix + j))
                i += 1
            } else {
                operations.append(DiffOperation(kind: .insert, oldLine: prefix + i, newLine: prefix + j))
                j += 1
            }
        }
    } else {
        operations += (0..<n).map { DiffOperation(kind: .delete, oldLine: prefix + $0, newLine: prefix) }
        operations += (0..<m).map { DiffOperation(kind: .insert, oldLine: prefix + n, newLine: prefix + $0) }
    }
    operations += (0..<suffix).map { DiffOperation(kind: .equal, oldLine: old.count - suffix + $0, newLine: new.count - suffix + $0) }
    return operations
}

/// Groups changed operations with `context` equal lines around them; changes closer than twice the context share a hunk.
private func hunks(_ operations: [DiffOperation], context: Int) -> [Range<Int>] {
    let changes = operations.indices.filter { operations[$0].kind != .equal }
    var result: [Range<Int>] = []
    var index = 0
    while index < changes.count {
        let start = max(0, changes[index] - context)
        var last = changes[index]
        index += 1
        while index < changes.count && changes[index] - last <= 2 * context + 1 {
            last = changes[index]
            index += 1
        }
        result.append(start..<min(operations.count, last + context + 1))
    }
    return result
}
