import ModKit

/// `modkit api`: the public API of interface modules compared with their last release, and the version it requires.
enum APICommand: Command {
    static let spec = CommandSpec(
        name: "api",
        summary: "Compare the public API of interface modules with their last release",
        discussion: """
        For each interface module (one that another module 'implements:'), reads the public API with the
        compilers (Swift: swiftc -emit-module and swift-api-digester -dump-sdk; Objective-C headers:
        clang -ast-dump=json) now and at its last version tag, and lists what changed: a removal, a rename or
        a changed signature is breaking (x+1), an addition is additive (y+1), an added protocol requirement
        included. --check exits 1 when the version in the module's spec file understates the change;
        --json exits 0 whatever it finds.
        """,
        options: Options.declared,
        positional: .modules,
        examples: ["modkit api", "modkit api PaymentsInterface --since 1.0", "modkit api --check", "modkit api --json"]
    )

    struct Options: CommandOptions {
        static let since = OptionSpec(nil, "since", .value(metavar: "VERSION"), help: "Compare with this released version instead of the last one.")
        static let check = OptionSpec(nil, "check", help: "Exit 1 when a spec file's version is below what the API change requires (for CI).")
        static let declared = [since, check]
        var since: String?
        var check: Bool
        init(_ arguments: ParsedArguments) {
            since = arguments.value(Self.since)
            check = arguments.flag(Self.check)
        }
    }

    /// `modkit api --json`.
    struct Report: Encodable {
        var modules: [APIReport]
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let workspace = try context.loadWorkspace()
        let manifest = workspace.manifest
        let named = context.arguments.positionals
        let selected = try workspace.modules(named: named)
        let modules = named.isEmpty ? selected.filter { manifest.isInterface($0.name) } : selected
        if let notInterface = modules.first(where: { !manifest.isInterface($0.name) }) {
            throw ModKitError.input("\(notInterface.name) is not an interface module: no module of the workspace implements it",
                                    hint: "add 'implements: \(notInterface.name)' to the implementation's entry in modkit.yml")
        }
        let since = options.since
        var reports: [APIReport] = []
        var failed = false
        for module in modules {
            do {
                reports.append(try APIReport.make(module, since: since, workspace: workspace))
            } catch {
                failed = true
                context.console.error("\(module.name): \(error)")
            }
        }
        if context.json {
            try context.printJSON(Report(modules: reports))
            return failed ? .failure : .success
        }
        let console = context.console
        for report in reports {
            guard let since = report.since else {
                console.result("\(report.module): never released (no version tag); nothing to compare")
                continue
            }
            let verdict = report.impact == .none ? "no API change" : "\(report.impact.rawValue): requires \(report.required ?? "?")"
            console.result("\(report.module) \(report.version ?? "?") since \(since) (\(report.sinceTag ?? since)): \(verdict)")
            for change in report.changes { console.result("  \(change.impact == .breaking ? "breaking" : "additive")  \(change)") }
            if report.understated {
                console.result("  \(report.module)'s version \(report.version ?? "?") understates the change; set it to \(report.required ?? "?") or later")
            }
        }
        if failed { return .failure }
        if options.check, reports.contains(where: \.understated) { return .failure }
        return .success
    }
}
