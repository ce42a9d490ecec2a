import Foundation
import ModKit

/// `modkit affected`: the modules changed since a snapshot or revision, and their dependents, in dependency order.
enum AffectedCommand: Command {
    static let spec = CommandSpec(
        name: "affected",
        summary: "List the modules changed since a snapshot or revision, and what depends on them",
        discussion: """
        A module is changed when its repository has commits since the baseline (or uncommitted changes to
        tracked files), or, for a directory module, when its folder differs. Every module that depends on a
        changed one, directly or not, is affected too. The baseline is a snapshot (its recorded commits) or a
        revision such as origin/main (compared from its merge base with HEAD, in each repository); the
        default is the newest snapshot. Printed in dependency order; --json prints one line that GitHub
        Actions' fromJSON reads ('include' is a ready build matrix), -q prints the names only.
        """,
        options: Options.declared,
        positional: .modules,
        examples: [
            "modkit affected",
            "modkit affected --since v1.1.0",
            "modkit affected --since origin/main --json",
            "modkit forall --affected origin/main --topo -c 'swift test'",
        ]
    )

    struct Options: CommandOptions {
        static let since = OptionSpec(nil, "since", .value(metavar: "SINCE"), help: "Snapshot or revision to compare with (default: the newest snapshot).",
                                      completion: .list(.snapshots))
        static let declared = [since]
        var since: String?
        init(_ arguments: ParsedArguments) { since = arguments.value(Self.since) }
    }

    /// `modkit affected --json`: one object, on one line so that `$GITHUB_OUTPUT` takes it as it is.
    struct Report: Encodable {
        struct Entry: Encodable {
            var module: String
            var path: String
            var reason: AffectedModule.Reason
            var detail: String
        }
        var since: String
        /// The affected module names, dependencies first.
        var modules: [String]
        /// The same as objects: `strategy.matrix.include` of a GitHub Actions job.
        var include: [Entry]
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        try context.withWorkspace { run in try affected(run.workspace, modules: try run.modules(), since: options.since, context: context) }
    }

    private static func affected(_ workspace: Workspace, modules: [Module], since given: String?, context: Context) throws -> ExitStatus {
        let since: String
        if let given {
            since = given
        } else if let newest = try SnapshotCatalog.list(in: workspace).last {
            since = newest.name
        } else {
            throw ModKitError.input("no snapshot yet to compare with", hint: "give one: modkit affected --since origin/main")
        }
        let dependencies = try dependencies(of: modules, workspace: workspace, jobs: try context.jobs(waitsOnIO: false))
        let affected = try Affected.compute(since: since, modules: modules, workspace: workspace, dependencies: dependencies)
        if context.json {
            let entries = affected.map { Report.Entry(module: $0.name, path: $0.path, reason: $0.reason, detail: $0.detail) }
            try context.printJSON(Report(since: since, modules: affected.map(\.name), include: entries), compact: true)
        } else if context.quiet {
            for module in affected { context.console.result(module.name) }
        } else if affected.isEmpty {
            context.console.result("No module changed since \(since).")
        } else {
            var table = TextTable()
            for module in affected { table.add([module.name, module.path, "\(module.reason.rawValue): \(module.detail)"]) }
            context.console.result(table.render())
        }
        return .success
    }

    /// Each selected module's dependencies among the selected ones; a cycle is an error naming it.
    static func dependencies(of modules: [Module], workspace: Workspace, jobs: Int) throws -> [String: [String]] {
        let specs = WorkspaceSpecs.load(workspace, jobs: jobs)
        if case .failure(let cycle) = DependencyGraph.order(specs) {
            throw ModKitError("\(cycle.description)", hint: cycle.steps.joined(separator: "; "))
        }
        let names = Set(modules.map(\.name))
        return Dictionary(uniqueKeysWithValues: modules.map { module in
            (module.name, specs.dependencies(of: module.name).filter(names.contains))
        })
    }
}
