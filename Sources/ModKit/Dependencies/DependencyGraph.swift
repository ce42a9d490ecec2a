import Foundation

/// A cycle among workspace modules, with the spec file line that makes each step.
public struct DependencyCycle: Error, Sendable, CustomStringConvertible {
    public var modules: [String]
    public var steps: [String]

    public var description: String {
        "dependency cycle: " + modules.joined(separator: " → ")
    }
}

/// The modules of a workspace ordered so that every module comes after the modules it depends on.
public enum DependencyGraph {
    /// Topological order (dependencies first, otherwise manifest order), or the first cycle found.
    public static func order(_ specs: WorkspaceSpecs) -> Result<[String], DependencyCycle> {
        let names = specs.modules.map(\.module.name)
        var state: [String: Int] = [:]   // 1 visiting, 2 done
        var order: [String] = []
        var stack: [String] = []

        func visit(_ name: String) -> DependencyCycle? {
            if state[name] == 2 { return nil }
            if state[name] == 1 {
                let start = stack.firstIndex(of: name) ?? 0
                let cycle = Array(stack[start...]) + [name]
                return DependencyCycle(modules: cycle, steps: steps(of: cycle, in: specs))
            }
            state[name] = 1
            stack.append(name)
            for dependency in specs.dependencies(of: name) {
                if let cycle = visit(dependency) { return cycle }
            }
            stack.removeLast()
            state[name] = 2
            order.append(name)
            return nil
        }

        for name in names {
            if let cycle = visit(name) { return .failure(cycle) }
        }
        return .success(order)
    }

    /// "Feature/Feature.podspec:7: Feature depends on Core" for each step of a cycle.
    static func steps(of cycle: [String], in specs: WorkspaceSpecs) -> [String] {
        zip(cycle, cycle.dropFirst()).map { from, to in
            guard let edge = specs.edges.first(where: { $0.from == from && $0.to == to }) else { return "\(from) depends on \(to)" }
            return "\(Workspace.displayPath(of: edge.file)):\(edge.requirement.span.line): \(from) depends on \(to)"
        }
    }
}
