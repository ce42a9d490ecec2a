import ModKit

/// `modkit graph`: the dependency graph between modules, in topological order.
enum GraphCommand: Command {
    static let spec = CommandSpec(
        name: "graph",
        summary: "Show the dependency graph between modules in topological order",
        discussion: """
        Dependencies are read from the modules' spec files (podspec, Package.swift, Cartfile, Podfile).
        Modules are listed dependencies first. A cycle is an error that names it, with the file and
        line of every step (exit 1).
        """,
        options: Options.declared,
        examples: ["modkit graph", "modkit graph --format dot | dot -Tsvg > graph.svg", "modkit graph --format mermaid"]
    )

    /// `modkit graph --json`.
    struct Report: Encodable {
        var order: [String]
        var dependencies: [String: [String]]
        /// Pod dependencies inside modules that hold several podspecs, by module, then pod.
        var pods: [String: [String: [String]]]
        /// Implementation → the interface module it implements (`implements:`).
        var implements: [String: String]
    }

    struct Options: CommandOptions {
        static let format = OptionSpec(nil, "format", .value(metavar: "FORMAT"), help: "text (default), dot, mermaid or json.",
                                       completion: .choices(["text", "dot", "mermaid", "json"]))
        static let declared = [format]
        var format: String?
        init(_ arguments: ParsedArguments) { format = arguments.value(Self.format) }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let format = context.json ? "json" : (options.format ?? "text")
        guard ["text", "dot", "mermaid", "json"].contains(format) else {
            throw UsageError("unknown format '\(format)'; use text, dot, mermaid or json")
        }
        let workspace = try context.loadWorkspace()
        let specs = WorkspaceSpecs.load(workspace, jobs: try context.jobs(waitsOnIO: false))
        let order: [String]
        switch DependencyGraph.order(specs) {
        case .success(let sorted): order = sorted
        case .failure(let cycle):
            context.console.error(cycle.description)
            for step in cycle.steps { context.console.diagnostic("  \(step)") }
            return .failure
        }
        let dependencies = Dictionary(uniqueKeysWithValues: order.map { ($0, specs.dependencies(of: $0)) })
        let console = context.console
        let manifest = workspace.manifest
        let implements = Dictionary(manifest.modules.compactMap { module in module.implements.map { (module.name, $0) } }, uniquingKeysWith: { first, _ in first })
        switch format {
        case "json":
            var pods: [String: [String: [String]]] = [:]
            for name in order {
                let entries = specs.podDependencies(of: name)
                if !entries.isEmpty { pods[name] = Dictionary(entries.map { ($0.pod, $0.dependencies) }, uniquingKeysWith: { first, _ in first }) }
            }
            try context.printJSON(Report(order: order, dependencies: dependencies, pods: pods, implements: implements))
        case "dot":
            var lines = ["digraph modules {", "  rankdir=LR;", "  node [shape=box];"]
            for name in order {
                lines.append("  \"\(name)\";")
                for dependency in dependencies[name] ?? [] { lines.append("  \"\(name)\" -> \"\(dependency)\";") }
                if let interface = implements[name] { lines.append("  \"\(name)\" -> \"\(interface)\" [style=dashed, label=\"implements\"];") }
            }
            console.result((lines + ["}"]).joined(separator: "\n"))
        case "mermaid":
            var lines = ["graph TD"]
            func node(_ name: String) -> String { "\(Identifier.derived(from: name))[\"\(name)\"]" }
            for name in order {
                let deps = dependencies[name] ?? []
                if deps.isEmpty { lines.append("  \(node(name))") }
                for dependency in deps { lines.append("  \(node(name)) --> \(node(dependency))") }
                if let interface = implements[name] { lines.append("  \(node(name)) -. implements .-> \(node(interface))") }
            }
            console.result(lines.joined(separator: "\n"))
        default:
            var table = TextTable()
            for name in order {
                let deps = dependencies[name] ?? []
                let pair = implements[name].map { "implements " + $0 } ?? ""
                table.add([name, deps.isEmpty ? "" : "→ " + deps.joined(separator: ", "), pair])
                for entry in specs.podDependencies(of: name) {
                    table.add(["  " + entry.pod, entry.dependencies.isEmpty ? "" : "→ " + entry.dependencies.joined(separator: ", ")])
                }
            }
            console.result(table.render())
        }
        return .success
    }
}
