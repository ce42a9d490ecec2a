import Foundation
import ModKit
import SpecKit

/// `modkit pin`: rewrite loose dependency requirements between modules into exact versions.
enum PinCommand: Command {
    static let spec = CommandSpec(
        name: "pin",
        summary: "Rewrite loose dependency requirements into exact versions",
        discussion: """
        Reads every module's podspec, podspec.json, Podfile, Package.swift and Cartfile. A loose
        requirement on a workspace module becomes that module's current version; one on an outside
        dependency becomes the version in the lock files (Podfile.lock, Package.resolved,
        Cartfile.resolved). An exact requirement on a workspace module that differs from its current
        version is stale and is updated too. Only the requirement's text changes; files are replaced
        atomically. Requirements no version is known for are listed and left as they are (exit 1).
        Requirements computed in code modkit cannot see ("cannot verify") and local path links are
        warned about once; --strict makes them fail. A '# modkit: ignore' (or '// modkit: ignore')
        comment on the requirement's line silences it. "#{s.version}" on a pod of the same module is
        exact by construction (lockstep).
        """,
        options: Options.declared,
        positional: .modules,
        examples: ["modkit pin", "modkit pin --check", "modkit pin --dry-run QCloudCOSXML", "modkit pin --check --json"],
        mutates: true
    )

    /// `modkit pin --json`.
    struct Report: Encodable {
        /// One file that holds requirements on workspace or outside dependencies.
        struct File: Encodable {
            var path: String
            var module: String
            /// updated (pinned; with --check or --dry-run: would be), upToDate, or failed (a requirement no version is known for).
            var outcome: ModuleOutcome
        }
        var dryRun: Bool
        var files: [File]
        var findings: [PinFinding]
        var errors: [ErrorJSON]
    }

    struct Options: CommandOptions {
        static let check = OptionSpec(nil, "check", help: "Change nothing; list loose requirements and exit 1 if there are any (for CI).")
        static let dryRun = OptionSpec(nil, "dry-run", help: "Change nothing; print the changes as a unified diff.")
        static let strict = OptionSpec(nil, "strict", help: "Requirements modkit cannot verify fail too, and with --check local path links.")
        static let declared = [check, dryRun, strict]
        var check: Bool
        var dryRun: Bool
        var strict: Bool
        init(_ arguments: ParsedArguments) {
            check = arguments.flag(Self.check)
            dryRun = arguments.flag(Self.dryRun)
            strict = arguments.flag(Self.strict)
        }
        var changesNothing: Bool { check || dryRun }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let check = options.check
        let dryRun = options.dryRun
        let strict = options.strict
        return try context.withWorkspace { run in
            // A :path line written by `modkit develop` is not a requirement to pin or to check: refuse while one is on.
            if !dryRun { try context.refuseWhileDeveloping(run.workspace) }
            return try pin(run.workspace, modules: try run.modules(), check: check, dryRun: dryRun, strict: strict, context: context)
        }
    }

    private static func pin(_ workspace: Workspace, modules: [Module], check: Bool, dryRun: Bool, strict: Bool, context: Context) throws -> ExitStatus {
        let specs = WorkspaceSpecs.load(workspace, jobs: try context.jobs(waitsOnIO: false))
        // A lock file at the workspace root is every module's: named once.
        var seen = Set<String>()
        let selected = Set(modules.map(\.name))
        let problems = specs.modules.filter { selected.contains($0.module.name) }.flatMap(\.problems)
            .filter { seen.insert($0.description).inserted }
        let plans = Pinner.plan(specs, modules: modules)
        let findings = plans.flatMap(\.findings)
        let blocking = findings.filter { $0.blocks(strict: strict) }
        let toPin = findings.filter { $0.kind == .loose || $0.kind == .stale }
        let paths = findings.filter { $0.kind == .path }
        // Each finding stays one `path:line:` line, as a tool reads it; local path links fail only with --strict --check.
        let diagnostics = problems.map { Diagnostic.error($0.description) }
            + paths.map { strict && check ? .error($0.message) : .warning($0.message) }
            + blocking.map { .error($0.message) }
            + (strict ? [] : findings.filter { $0.kind == .unrewritable }.map { .warning($0.message) })

        var written: [FilePinPlan] = []
        if !check && !dryRun { written = try Pinner.apply(plans) }

        if context.json {
            let files = plans.map { plan in
                Report.File(path: plan.path, module: plan.findings.first?.module ?? "",
                            outcome: plan.findings.contains { $0.kind == .unresolved } ? .failed : plan.hasChanges ? .updated : .upToDate)
            }
            try context.printJSON(Report(dryRun: check || dryRun, files: files, findings: findings,
                                         errors: problems.map { ErrorJSON($0.description) } + blocking.map { ErrorJSON($0.message) }))
        } else {
            printText(plans: plans, written: written, toPin: toPin, check: check, dryRun: dryRun, blocked: !blocking.isEmpty, console: context.console)
            if check && toPin.isEmpty && blocking.isEmpty && problems.isEmpty {
                context.console.info("every requirement is pinned")
            }
        }
        // With --check, a module with a requirement to pin needs attention, as one with a requirement that cannot be.
        let failing = blocking + (check ? toPin + (strict ? paths : []) : [])
        var named: [String] = [], namedSet = Set<String>()
        for module in failing.map(\.module) where namedSet.insert(module).inserted { named.append(module) }
        return context.finish(needingAttention: named, diagnostics: diagnostics, verb: spec.name)
    }

    /// What pin did (or, with --check and --dry-run, would do) on stdout: the findings to pin, the diff, or the files pinned.
    private static func printText(plans: [FilePinPlan], written: [FilePinPlan], toPin: [PinFinding], check: Bool, dryRun: Bool, blocked: Bool,
                                  console: Console) {
        if check {
            for finding in toPin { console.result(finding.message) }
        } else if dryRun {
            for plan in plans where plan.hasChanges {
                console.result(plan.diff, terminator: "")
            }
            // As `pin` says it; on stderr, so stdout stays a diff that `git apply` takes.
            if !plans.contains(where: \.hasChanges) && !blocked { console.info("every requirement is already pinned") }
        } else {
            for plan in written {
                let count = plan.findings.filter { $0.kind == .loose || $0.kind == .stale }.count
                console.result("pinned \(count) requirement\(count == 1 ? "" : "s") in \(plan.path)")
            }
            if written.isEmpty && !blocked { console.result("every requirement is already pinned") }
        }
    }
}
