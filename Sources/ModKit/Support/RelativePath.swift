/// Normalises paths written in the manifest, relative to the workspace root.
public enum RelativePath {
    public enum Problem: Error, Sendable, Equatable {
        case empty, absolute, escapes
    }

    /// `Libs/./Core/` → `Libs/Core`; `a/../b` → `b`; an absolute path (`/x`, `~/x`) or one that climbs above the root is a problem; `.` normalises to "".
    public static func normalize(_ path: String) -> Result<String, Problem> {
        if path.isEmpty { return .failure(.empty) }
        if path.hasPrefix("/") || path.hasPrefix("~") { return .failure(.absolute) }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return .failure(.escapes) }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return .success(parts.joined(separator: "/"))
    }

    /// True when `inner` equals `outer` or lies below it (both normalised).
    public static func isInside(_ inner: String, _ outer: String) -> Bool {
        if outer.isEmpty || inner == outer { return true }
        // Byte comparison without building `outer + "/"`: the manifest check runs this for every pair of modules.
        let innerBytes = inner.utf8, outerBytes = outer.utf8
        guard innerBytes.count > outerBytes.count, innerBytes.starts(with: outerBytes) else { return false }
        return innerBytes[innerBytes.index(innerBytes.startIndex, offsetBy: outerBytes.count)] == UInt8(ascii: "/")
    }
}
