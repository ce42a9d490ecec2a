/// Module paths that collide: the same path, or one inside the other (modules cannot nest).
///
/// Comparing every pair is quadratic, and an imported repo manifest can list 20,000 projects; this index
/// answers by looking up a path's ancestors and the path itself by name, O(depth) per path.
struct PathNesting {
    /// Each added path, with the index of the first added there.
    private var exact: [String: Int] = [:]
    /// Each directory above an added path (the workspace root "" included), with the first index added below it.
    private var above: [String: Int] = [:]

    /// Adds a path (normalised, relative, "" for the workspace root) under `index`.
    mutating func add(_ path: String, index: Int) {
        if exact[path] == nil { exact[path] = index }
        for directory in Self.directories(above: path) where above[directory] == nil {
            above[directory] = index
        }
    }

    /// The earliest index added at `path`, in a directory above it, or below it; nil when none collides.
    func earliestCollision(with path: String) -> Int? {
        let candidates = [exact[path], above[path]] + Self.directories(above: path).map { exact[$0] }
        return candidates.compactMap { $0 }.min()
    }

    /// For each path, the index of the earliest earlier path that is the same, contains it or lies inside it.
    static func earliestCollisions(_ paths: [String]) -> [Int?] {
        var index = PathNesting()
        return paths.enumerated().map { offset, path in
            defer { index.add(path, index: offset) }
            return index.earliestCollision(with: path)
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
