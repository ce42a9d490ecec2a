/// Finds module paths that collide: the same path, or one inside the other (modules cannot nest).
///
/// Comparing every pair is quadratic, and an imported repo manifest can list 20,000 projects; this
/// looks up each path's ancestors by name and its descendants as a range of the byte-sorted paths,
/// O(n log n) in all.
enum PathNesting {
    /// For each path (normalised, relative, "" for the workspace root), the index of the earliest
    /// earlier path that is the same, contains it or lies inside it; nil when there is none.
    static func earliestCollisions(_ paths: [String]) -> [Int?] {
        let bytes = paths.map { Array($0.utf8) }
        var firstIndex: [String: Int] = [:]
        for (index, path) in paths.enumerated() where firstIndex[path] == nil {
            firstIndex[path] = index
        }
        let order = paths.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) }
        let sorted = order.map { bytes[$0] }
        let earliest = RangeMinimum(order)
        let slash = UInt8(ascii: "/")

        return paths.indices.map { index -> Int? in
            var best: Int?
            func consider(_ candidate: Int?) {
                guard let candidate, candidate < index, candidate < (best ?? .max) else { return }
                best = candidate
            }
            // The same path, the workspace root, and every ancestor directory.
            consider(firstIndex[paths[index]])
            consider(firstIndex[""])
            for (offset, byte) in bytes[index].enumerated() where byte == slash {
                consider(firstIndex[String(decoding: bytes[index][..<offset], as: UTF8.self)])
            }
            // Descendants: every path starting with "<path>/" ("/" + 1 is "0"); below the root, every non-empty path.
            let lower = paths[index].isEmpty ? [0] : bytes[index] + [slash]
            let upper = paths[index].isEmpty ? [UInt8.max, UInt8.max] : bytes[index] + [slash + 1]
            let start = sorted.partitioningIndex { !$0.lexicographicallyPrecedes(lower) }
            let end = sorted.partitioningIndex { !$0.lexicographicallyPrecedes(upper) }
            if start < end { consider(earliest.minimum(start..<end)) }
            return best
        }
    }
}

/// Minimum of any range of a fixed array in constant time, after an O(n log n) table (a sparse table).
private struct RangeMinimum {
    /// levels[k][i] is the minimum of values[i ..< i + 2^k].
    private var levels: [[Int]]

    init(_ values: [Int]) {
        levels = [values]
        var width = 1
        while width * 2 <= values.count {
            let previous = levels[levels.count - 1]
            levels.append((0...(values.count - width * 2)).map { min(previous[$0], previous[$0 + width]) })
            width *= 2
        }
    }

    func minimum(_ range: Range<Int>) -> Int {
        var level = 0
        while 1 << (level + 1) <= range.count { level += 1 }
        return min(levels[level][range.lowerBound], levels[level][range.upperBound - (1 << level)])
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for an array where every such element comes after every other.
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
