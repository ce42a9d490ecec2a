import Foundation
import ModKit

/// `modkit forall -c CMD`: run a shell command in every module, in parallel, its output streamed as it comes.
enum ForallCommand: Command {
    static let spec = CommandSpec(
        name: "forall",
        summary: "Run a shell command in every module directory, in parallel",
        discussion: """
        With -j 1 the command runs with modkit's terminal: its stdin, stdout and stderr, one module after
        another, each under a '== Module (path)' line. With more jobs every output line is printed as it
        comes, prefixed with the module's name (--group-output prints each module's output whole instead,
        when it finishes); a terminal shows a progress line. The command sees MODKIT_MODULE, MODKIT_PATH
        (relative to the workspace), MODKIT_ROOT, MODKIT_VERSION, MODKIT_REVISION and MODKIT_URL.
        --topo runs modules after their dependencies (read from the spec files), in parallel level by level,
        and does not run the dependents of a module that failed. --affected SNAPSHOT|REF runs only the
        modules changed since then and those that depend on them (see 'modkit affected'). Modules that
        are not cloned are skipped. Exits 1 with a summary when the command failed anywhere.
        """,
        options: Options.declared,
        positional: .modules,
        examples: [
            "modkit forall -c 'git log -1 --oneline'",
            "modkit forall -j 8 -c 'swift build' -g core",
            "modkit forall --topo -c 'swift build'",
            "modkit forall --affected origin/main --topo -c 'swift test'",
            "modkit forall -j 1 -c 'git add -p'",
            "modkit forall -c 'echo $MODKIT_MODULE $MODKIT_VERSION' --json",
        ],
        runsInModules: true
    )

    /// `modkit forall --json`'s own field.
    struct Fields: Encodable { var commandLine: String }

    struct Options: CommandOptions {
        static let command = OptionSpec("c", "command", .value(metavar: "CMD"), help: "The shell command to run (required).")
        static let topo = OptionSpec(nil, "topo", help: "Dependencies first, in parallel by level; skip dependents of a failure.")
        static let affected = OptionSpec(nil, "affected", .value(metavar: "SINCE"), help: "Only modules changed since snapshot or revision SINCE, and their dependents.",
                                         completion: .list(.snapshots))
        static let groupOutput = OptionSpec(nil, "group-output", help: "Print each module's output whole when it finishes.")
        static let declared = [command, topo, affected, groupOutput]
        var command: String?
        var topo: Bool
        var affected: String?
        var groupOutput: Bool
        init(_ arguments: ParsedArguments) {
            command = arguments.value(Self.command)
            topo = arguments.flag(Self.topo)
            affected = arguments.value(Self.affected)
            groupOutput = arguments.flag(Self.groupOutput)
        }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        guard let command = options.command else { throw UsageError("forall needs -c CMD") }
        return try context.withWorkspace { run in
            try forall(command, workspace: run.workspace, modules: try run.modules(), options: options, context: context)
        }
    }

    private static func forall(_ command: String, workspace: Workspace, modules selected: [Module], options given: Options,
                               context: Context) throws -> ExitStatus {
        var modules = selected
        let jobs = try context.jobs(waitsOnIO: false)
        var dependencies: [String: [String]]?
        if given.topo || given.affected != nil {
            dependencies = try AffectedCommand.dependencies(of: modules, workspace: workspace, jobs: jobs)
        }
        if let since = given.affected, let graph = dependencies {
            let affected = try Affected.compute(since: since, modules: modules, workspace: workspace, dependencies: graph)
            let names = Set(affected.map(\.name))
            modules = modules.filter { names.contains($0.name) }
            if !context.json { context.console.info("\(modules.count) of \(graph.count) modules affected since \(since)") }
        }
        let output: ForallOptions.Output = context.json || given.groupOutput ? .grouped : jobs == 1 ? .terminal : .lines
        let options = ForallOptions(jobs: jobs, output: output, dependencies: given.topo ? dependencies : nil)
        let printer = ForallPrinter(console: context.console, modules: modules, output: output, quiet: context.json)
        let results = Forall.run(command, in: modules, workspace: workspace, options: options, observe: printer.observe)
        context.console.clearProgress()
        return try context.report(results, fields: Fields(commandLine: command),
                                  diagnostics: results.filter { $0.detail.hasPrefix("not run") }.map { .note($0.detail, module: $0.name) },
                                  verb: "forall", text: .custom {})
    }
}

/// Prints what `forall` reports as it happens: prefixed lines, whole blocks or headers, and a progress line.
private final class ForallPrinter: @unchecked Sendable {
    private let console: Console
    private let output: ForallOptions.Output
    private let quiet: Bool
    private let width: Int
    private let total: Int
    private let lock = NSLock()
    private var running: [String] = []
    private var done = 0

    init(console: Console, modules: [Module], output: ForallOptions.Output, quiet: Bool) {
        self.console = console
        self.output = output
        self.quiet = quiet
        width = modules.map(\.name.count).max() ?? 0
        total = modules.count
    }

    var observe: @Sendable (ForallEvent) -> Void { { [self] event in handle(event) } }

    private func handle(_ event: ForallEvent) {
        guard !quiet else { return }
        let style = console.style(for: .standardOutput)
        switch event {
        case .started(let module, let path):
            lock.withLock { running.append(module) }
            if output == .terminal { console.write(style.bold("== \(module) (\(path))") + "\n", to: .standardOutput) }
            showProgress()
        case .line(let module, let text):
            console.write(style.dim(prefix(module)) + text + "\n", to: .standardOutput)
            showProgress()
        case .finished(let result):
            lock.withLock {
                running.removeAll { $0 == result.label }
                done += 1
            }
            switch output {
            case .grouped:
                var block = style.bold("== \(result.label) (\(result.path))")
                if result.outcome == .skipped {
                    block += style.dim(" skipped: \(result.detail)") + "\n"
                } else {
                    block += (result.outcome == .failed ? style.red(" \(result.detail)") : "") + "\n" + result.output
                    if !result.output.isEmpty && !result.output.hasSuffix("\n") { block += "\n" }
                }
                console.write(block, to: .standardOutput)
            case .lines, .terminal:
                let lead = output == .lines ? style.dim(prefix(result.label)) : style.bold("== \(result.label) ")
                if result.outcome == .skipped {
                    console.write(lead + style.dim("skipped: \(result.detail)") + "\n", to: .standardOutput)
                } else if result.outcome == .failed {
                    console.write(lead + style.red(result.detail) + "\n", to: .standardOutput)
                }
            }
            showProgress()
        }
    }

    private func prefix(_ module: String) -> String {
        (module + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0)
    }

    private func showProgress() {
        guard output != .terminal else { return }
        let (finished, active) = lock.withLock { (done, running) }
        guard finished < total else { console.clearProgress(); return }
        console.progress("forall: \(finished)/\(total) done; running \(active.joined(separator: ", "))")
    }
}
