/// Modules grouped by depth in the dependency graph: level 0 depends on none of the others, each later
/// level only on earlier ones, so every level can run in parallel once the ones before it are done.
public enum DependencyLevels {
    /// The levels of `names`, each in the order of `names`; dependencies outside `names` are ignored.
    /// Modules on a cycle (which `DependencyGraph.order` reports as an error) come last, together.
    public static func levels(of names: [String], dependencies: [String: [String]]) -> [[String]] {
        let selected = Set(names)
        var depth: [String: Int] = [:]
        var remaining = names
        var level = 0
        var levels: [[String]] = []
        while !remaining.isEmpty {
            let ready = remaining.filter { name in
                (dependencies[name] ?? []).allSatisfy { !selected.contains($0) || $0 == name || (depth[$0].map { $0 < level } ?? false) }
            }
            if ready.isEmpty {
                levels.append(remaining)
                break
            }
            for name in ready { depth[name] = level }
            levels.append(ready)
            remaining.removeAll { depth[$0] != nil }
            level += 1
        }
        return levels
    }
}
