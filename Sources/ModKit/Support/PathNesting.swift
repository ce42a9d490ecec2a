/// Module paths that collide: the same path, or one inside the other where that nesting is not allowed.
///
/// Comparing every pair is quadratic, and an imported repo manifest can list 20,000 projects; this index
/// answers by looking up a path's ancestors and the path itself by name, O(depth) per path (plus the paths
/// below it when some nesting is allowed).
struct PathNesting {
    /// Whether the path added under the first index may hold the one added under the second inside it.
    typealias NestingRule = (_ outer: Int, _ inner: Int) -> Bool

    /// Each added path, with the index of the first added there.
    private var exact: [String: Int] = [:]
    /// Each directory above an added path (the workspace root "" included), with the indices added below it, in order.
    private var below: [String: [Int]] = [:]

    /// Adds a path (normalised, relative, "" for the workspace root) under `index`.
    mutating func add(_ path: String, index: Int) {
        if exact[path] == nil { exact[path] = index }
        for directory in Self.directories(above: path) {
            below[directory, default: []].append(index)
        }
    }

    /// The earliest index added at `path`, in a directory above it, or below it, that may not nest with `index`;
    /// nil when none collides. Without a rule, no nesting is allowed.
    func earliestCollision(with path: String, index: Int = .max, allows rule: NestingRule? = nil) -> Int? {
        var candidates = [exact[path]]
        for directory in Self.directories(above: path) {
            if let outer = exact[directory], rule?(outer, index) != true { candidates.append(outer) }
        }
        if let inner = below[path] {
            if let rule {
                candidates.append(inner.first { !rule(index, $0) })
            } else {
                candidates.append(inner.first)
            }
        }
        return candidates.compactMap { $0 }.min()
    }

    /// For each path, the index of the earliest earlier path that is the same, or contains it or lies inside it against `rule`.
    static func earliestCollisions(_ paths: [String], allows rule: NestingRule? = nil) -> [Int?] {
        var index = PathNesting()
        return paths.enumerated().map { offset, path in
            defer { index.add(path, index: offset) }
            return index.earliestCollision(with: path, index: offset, allows: rule)
        }
    }

    /// "a/b/c" → ["", "a", "a/b"]; nothing is above the workspace root "" itself.
    private static func directories(above path: String) -> [String] {
        guard !path.isEmpty else { return [] }
        var result = [""]
        var start = path.startIndex
        while let slash = path[start...].firstIndex(of: "/") {
            result.append(String(path[..<slash]))
            start = path.index(after: slash)
        }
        return result
    }
}
