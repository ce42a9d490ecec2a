import Foundation
import ModKit
import SpecKit

/// `modkit develop`: make every consumer in the workspace use the local checkouts of some modules, list the overrides, or undo them.
enum DevelopCommand: Command {
    static let spec = CommandSpec(
        name: "develop",
        summary: "Point every consumer at the local checkout of modules, and back (--off)",
        discussion: """
        'modkit develop Core' makes every consumer in the workspace use the checkout of Core you
        are working on. A Podfile's 'pod' lines of Core's pods become ':path' entries relative to
        the Podfile (a pod that reaches the Podfile only through another pod's podspec gets a line of
        its own); a Swift package that depends on Core, directly or through other packages, is put in
        SwiftPM's edit mode ('swift package edit core --path …'): Package.swift is never edited.
        An Xcode project that uses Core as a remote package gets App.modkit-develop.xcworkspace
        beside it (the project, its workspace's items, the checkout): open that one in Xcode.
        Podfiles and projects are those at a module's root and those git tracks below it.
        'modkit develop --off' restores every file byte for byte (comments, quotes, CRLF, encodings)
        and removes a Package.resolved SwiftPM created and the Xcode workspaces modkit wrote; with
        module names it turns off only those.
        'modkit develop' alone lists what is overridden, where, and since when.

        The overrides are yours: they are recorded under .modkit/develop/, never committed. Every
        file is planned and the plan recorded before the first file changes, so a run stopped at any
        moment is finished by the next 'modkit develop' (or '--off'). While an override is on,
        'modkit tag', 'release' and 'pin' refuse (exit 1), 'sync' says so, 'status' lists them.
        """,
        options: Options.declared,
        positional: .modules,
        examples: ["modkit develop Core Network", "modkit develop", "modkit develop --off Network", "modkit develop --off", "modkit develop --json"],
        mutates: true
    )

    /// `modkit develop --json`.
    struct Report: Encodable {
        /// One active override.
        struct Override: Encodable {
            var module: String
            var path: String
            var since: String
            /// The Podfiles that point at the module's checkout.
            var files: [String]
            /// The Swift packages (directories) whose dependency on the module is in edit mode.
            var packages: [String]
            /// The Xcode workspaces modkit wrote that add the module's checkout (open them in Xcode).
            var xcodeWorkspaces: [String]
        }
        /// One consumer file or package this run changed.
        struct Change: Encodable {
            var path: String
            var kind: String
            var outcome: ModuleOutcome
        }
        var off: Bool
        var recovered: Bool
        var overrides: [Override]
        var changes: [Change]
        /// What the user should know although the run went through.
        var warnings: [String]
        var errors: [ErrorJSON]
    }

    struct Options: CommandOptions {
        static let off = OptionSpec(nil, "off", help: "Turn the overrides of the named modules (default: all) off, restoring every file.")
        static let declared = [off]
        var off: Bool
        /// Modules are chosen by name or by -g; with neither, develop lists (and --off turns everything off).
        var selects: Bool
        init(_ arguments: ParsedArguments) {
            off = arguments.flag(Self.off)
            selects = !arguments.positionals.isEmpty || !arguments.values(GlobalOptions.group).isEmpty
        }
        /// The listing writes nothing, unless a run was interrupted: then it finishes that run first, under the lock.
        var changesNothing: Bool { !off && !selects }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let off = options.off
        let unfinished = DevelopStore(workspaceRoot: try context.manifestFile().deletingLastPathComponent()).hasUnfinishedRun
        return try context.withWorkspace(locking: context.changesWorkspace || unfinished) { run in
            let workspace = run.workspace
            let recovered = try Developer.recover(workspace)
            if recovered != nil { context.console.info("finished an interrupted 'modkit develop' first") }
            let selects = options.selects
            if !selects && !off {
                return try list(workspace, state: try DevelopStore(workspaceRoot: workspace.root).load(), result: nil, recovered: recovered != nil, off: off, context: context)
            }
            let modules = selects ? try run.modules() : nil
            let specs = WorkspaceSpecs.load(workspace, jobs: try context.jobs(waitsOnIO: false))
            let problems = specs.modules.flatMap(\.problems).filter { SpecFileKind(fileName: $0.url.lastPathComponent) != .cartfile }
            if !problems.isEmpty {
                throw ManifestError(diagnostics: problems.map { problem in
                    Diagnostic.error(problem.message, at: SourceLocation(file: workspace.relativePath(of: problem.url), line: problem.line ?? 1, column: problem.column ?? 1),
                                     hint: "modkit develop reads every spec file first and changes nothing while one does not read")
                })
            }
            if off, let modules {
                let active = Set(try DevelopStore(workspaceRoot: workspace.root).load().modules.map(\.module))
                for module in modules where !active.contains(module.name) { context.console.info("\(module.name) is not overridden") }
            }
            let result = off ? try Developer.off(modules, workspace, specs: specs) : try Developer.on(modules ?? [], workspace, specs: specs)
            return try list(workspace, state: result.state, result: result, recovered: recovered != nil, off: off, context: context)
        }
    }

    /// Lists the overrides after the run and what it changed (or `--json`), then ends through the one summary: the
    /// run's warnings and every consumer SwiftPM refused, exit 1 when one did.
    private static func list(_ workspace: Workspace, state: DevelopState, result: Developer.Result?, recovered: Bool, off: Bool,
                             context: Context) throws -> ExitStatus {
        let overrides = self.overrides(state)
        let changes = self.changes(result)
        let errors = (result?.failures ?? []).map { Diagnostic.error("\($0.step.package.isEmpty ? "." : $0.step.package): \($0.message)") }
        if context.json {
            try context.printJSON(Report(off: off, recovered: recovered, overrides: overrides, changes: changes,
                                         warnings: (result?.warnings ?? []).map(\.message), errors: errors.map { ErrorJSON($0) }))
        } else {
            printChanges(changes, workspace: workspace, console: context.console)
            printOverrides(overrides, state: state, console: context.console)
        }
        return context.finish(needingAttention: [], diagnostics: (result?.warnings ?? []) + errors, verb: spec.name)
    }

    /// Every active override with the consumers that use its checkout.
    private static func overrides(_ state: DevelopState) -> [Report.Override] {
        state.modules.map { override in
            Report.Override(module: override.module, path: override.path, since: override.since,
                            files: state.files.filter { $0.kind == "podfile" && $0.modules.contains(override.module) }.map(\.path),
                            packages: state.packages.filter { $0.module == override.module }.map { $0.path.isEmpty ? "." : $0.path },
                            xcodeWorkspaces: state.files.filter { $0.kind == "xcworkspace" && $0.modules.contains(override.module) }
                                .compactMap { DevelopState.xcodeWorkspace(ofContents: $0.path) })
        }
    }

    /// The consumers this run changed: Podfiles and Xcode workspaces written or removed, packages put in or out of edit mode.
    private static func changes(_ result: Developer.Result?) -> [Report.Change] {
        var changes = (result?.written ?? []).map { path in
            DevelopState.xcodeWorkspace(ofContents: path).map {
                Report.Change(path: $0, kind: "xcworkspace", outcome: result?.created.contains(path) == true ? .created : .updated)
            }
                ?? Report.Change(path: path, kind: "podfile", outcome: .updated)
        }
        for path in result?.removed ?? [] {
            changes.append(Report.Change(path: DevelopState.xcodeWorkspace(ofContents: path) ?? path, kind: "xcworkspace", outcome: .deleted))
        }
        for step in result?.edited ?? [] {
            let failed = result?.failures.contains { $0.step.package == step.package && $0.step.dependency == step.dependency } ?? false
            changes.append(Report.Change(path: step.package.isEmpty ? "." : step.package, kind: step.edit ? "swiftpmEdit" : "swiftpmUnedit",
                                         outcome: failed ? .failed : .updated))
        }
        return changes
    }

    /// One line per consumer changed (the failed ones are diagnostics).
    private static func printChanges(_ changes: [Report.Change], workspace: Workspace, console: Console) {
        for change in changes where change.outcome != .failed {
            switch (change.kind, change.outcome) {
            case ("podfile", _): console.result("rewrote \(change.path)")
            case ("xcworkspace", .deleted):
                console.result("removed \(change.path)")
                if FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent(change.path).path) {
                    console.info("kept the folder \(change.path): it holds files modkit did not write (Xcode's xcuserdata); delete it when you no longer need them")
                }
            case ("xcworkspace", _): console.result("wrote \(change.path)")
            case ("swiftpmEdit", _): console.result("edit mode in \(change.path)")
            default: console.result("left edit mode in \(change.path)")
            }
        }
    }

    /// The overrides as a table (module, consumers, since), and what to open in Xcode.
    private static func printOverrides(_ overrides: [Report.Override], state: DevelopState, console: Console) {
        guard !overrides.isEmpty else {
            console.result("No module is overridden: every consumer uses its released dependency.")
            return
        }
        var table = TextTable()
        for override in overrides {
            let consumers = override.files + override.packages.map { "\($0) (swift package edit)" } + override.xcodeWorkspaces
            table.add([override.module, consumers.isEmpty ? "no consumer" : consumers.joined(separator: ", "), "since \(override.since)"])
        }
        console.result(table.render())
        for folder in state.xcodeWorkspaces {
            console.info("in Xcode, open \(folder) ('xed \(folder)'), not the project or its own workspace: there your checkouts replace the remote packages")
        }
        console.info("'modkit develop --off' restores every consumer; tag, release and pin refuse until then")
    }
}

extension DevelopCommand {
    /// The one line sync and status print while overrides are active, or nil.
    static func activeNote(_ workspace: Workspace) -> String? {
        let store = DevelopStore(workspaceRoot: workspace.root)
        guard store.isActive else { return nil }
        let names = store.activeModules()
        let workspaces = (try? store.load())?.xcodeWorkspaces ?? []
        let xcode = workspaces.isEmpty ? "" : "; in Xcode open \(workspaces.joined(separator: ", "))"
        return "local overrides are active (modkit develop): \(names.isEmpty ? "an interrupted run" : names.joined(separator: ", "))\(xcode); 'modkit develop --off' restores the consumers"
    }
}

extension Context {
    /// Refuses a command that would record or publish versions while `modkit develop` overrides are active (exit 1).
    func refuseWhileDeveloping(_ workspace: Workspace) throws {
        let store = DevelopStore(workspaceRoot: workspace.root)
        guard store.isActive else { return }
        let names = store.activeModules()
        throw ModKitError("\(command.name) refused: local overrides are active for \(names.isEmpty ? "an interrupted run" : names.joined(separator: ", ")) (modkit develop); nothing was changed",
                          hint: "run 'modkit develop --off' first, then '\(["modkit", command.name].joined(separator: " "))' again")
    }
}
