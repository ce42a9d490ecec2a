/// The projects of a repo manifest as its elements declare, extend and remove them, each step O(1) per project touched
/// (TWRP removes 846 projects from AOSP's 1,045; rescanning the list for each removal was quadratic).
struct RepoProjectTable {
    struct Project {
        var name: String
        var path: String
        var remote: String?
        var revision: String?
        var groups: [String]
        var cloneDepth: Int?
        var preferredName: String?
        var line: Int
        var source: ImportSource
    }

    /// Every project ever added, in declaration order; removed ones are nil.
    private var slots: [Project?] = []
    private var byName: [String: [Int]] = [:]
    private var byNameAndPath: [String: Int] = [:]

    private static func key(_ name: String, _ path: String) -> String { "\(name)\u{0}\(path)" }

    /// The live projects in declaration order.
    var projects: [Project] { slots.compactMap { $0 } }

    /// The project already declared with this name and path.
    func existing(name: String, path: String) -> Project? {
        byNameAndPath[Self.key(name, path)].flatMap { slots[$0] }
    }

    mutating func add(_ project: Project) {
        byNameAndPath[Self.key(project.name, project.path)] = slots.count
        byName[project.name, default: []].append(slots.count)
        slots.append(project)
    }

    /// Applies `change` to the live projects named `name` (and at `path`, when given); returns how many it changed.
    @discardableResult
    mutating func update(name: String, path: String?, _ change: (inout Project) -> Void) -> Int {
        var count = 0
        for index in byName[name] ?? [] {
            guard var project = slots[index], path == nil || project.path == path else { continue }
            let oldKey = Self.key(project.name, project.path)
            change(&project)
            if byNameAndPath[oldKey] == index { byNameAndPath[oldKey] = nil }
            byNameAndPath[Self.key(project.name, project.path)] = index
            slots[index] = project
            count += 1
        }
        return count
    }

    /// Removes the live projects named `name` (and at `path`), or with only `path`, every project at that path; returns how many.
    mutating func remove(name: String?, path: String?) -> Int {
        let candidates: [Int]
        if let name {
            candidates = byName[name] ?? []
        } else if let path {
            candidates = pathIndex()[path] ?? []
        } else {
            return 0
        }
        var count = 0
        for index in candidates {
            guard let project = slots[index], path == nil || project.path == path, name == nil || project.name == name else { continue }
            slots[index] = nil
            if byNameAndPath[Self.key(project.name, project.path)] == index { byNameAndPath[Self.key(project.name, project.path)] = nil }
            count += 1
        }
        if let name { byName[name] = byName[name]?.filter { slots[$0] != nil } }
        return count
    }

    /// Live projects by path, built on demand: removal by path alone is rare.
    private func pathIndex() -> [String: [Int]] {
        var index: [String: [Int]] = [:]
        for (offset, project) in slots.enumerated() {
            if let project { index[project.path, default: []].append(offset) }
        }
        return index
    }
}
