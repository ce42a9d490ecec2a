import Foundation

/// What running the command in one module for `modkit forall` gave, beside its outcome (`ok`, `failed` or `skipped`).
public struct ForallFacts: Sendable, Encodable, Equatable {
    /// The command's exit status (nil when it did not run: module not cloned, a dependency failed).
    public var exitCode: Int32?
    /// Standard output and standard error together, when they were captured (empty when streamed).
    public var output: String = ""
}

extension ModuleResult where Facts == ForallFacts {
    /// The command ran and exited with `status`: `ok` on 0, else `failed` with the error naming the status.
    static func ran(_ module: Module, status: Int32, output: String) -> Self {
        ModuleResult(name: module.name, path: module.path, outcome: status == 0 ? .ok : .failed, detail: "exit \(status)",
                     diagnostics: status == 0 ? [] : [.error("the command exited with \(status)", module: module.name)],
                     facts: ForallFacts(exitCode: status, output: output))
    }

    /// The command did not run here, and why.
    static func skipped(_ module: Module, _ reason: String) -> Self {
        ModuleResult(name: module.name, path: module.path, outcome: .skipped, detail: reason, facts: ForallFacts())
    }

    /// Whether a finished module stops its dependents: it failed, or was itself held back.
    var blocksDependents: Bool { outcome == .failed || outcome == .skipped && detail.hasPrefix("not run") }
}

/// How `modkit forall` runs the command and where its output goes.
public struct ForallOptions: Sendable {
    public enum Output: Sendable {
        /// Each module's output kept whole and handed over when the module finishes.
        case grouped
        /// Each line handed over as it arrives (`ForallEvent.line`).
        case lines
        /// The command talks to modkit's own terminal: stdin, stdout and stderr (one module at a time).
        case terminal
    }

    public var jobs: Int
    public var output: Output
    /// Dependencies first, in parallel by level; a module whose dependency failed is not run.
    /// Each selected module's dependencies among the selected modules, when given.
    public var dependencies: [String: [String]]?

    public init(jobs: Int, output: Output = .grouped, dependencies: [String: [String]]? = nil) {
        self.jobs = jobs
        self.output = output
        self.dependencies = dependencies
    }
}

/// What `modkit forall` reports while it runs.
public enum ForallEvent: Sendable {
    case started(module: String, path: String)
    case line(module: String, text: String)
    case finished(ModuleResult<ForallFacts>)
}

/// `modkit forall -c CMD`: runs a shell command in every module directory, in parallel.
public enum Forall {
    public static func run(
        _ command: String,
        in modules: [Module],
        workspace: Workspace,
        options: ForallOptions,
        observe: @escaping @Sendable (ForallEvent) -> Void = { _ in }
    ) -> [ModuleResult<ForallFacts>] {
        let manifest = workspace.manifest
        let environment = ProcessInfo.processInfo.environment
        let jobs = options.output == .terminal ? 1 : options.jobs
        let runModule: @Sendable (Module) -> ModuleResult<ForallFacts> = { module in
            let result = runOne(command, module: module, manifest: manifest, environment: environment,
                                output: options.output, observe: observe)
            observe(.finished(result))
            return result
        }
        guard let dependencies = options.dependencies else {
            return Parallel.map(modules, jobs: jobs, runModule)
        }
        var results: [String: ModuleResult<ForallFacts>] = [:]
        let levels = DependencyLevels.levels(of: modules.map(\.name), dependencies: dependencies)
        for level in levels {
            let levelModules = modules.filter { level.contains($0.name) }
            var runnable: [Module] = []
            for module in levelModules {
                let blocked = (dependencies[module.name] ?? []).filter { results[$0]?.blocksDependents ?? false }
                if blocked.isEmpty {
                    runnable.append(module)
                } else {
                    let result = ModuleResult.skipped(module, "not run: its dependency \(blocked.joined(separator: ", ")) did not succeed")
                    observe(.finished(result))
                    results[module.name] = result
                }
            }
            for result in Parallel.map(runnable, jobs: jobs, runModule) { results[result.name ?? result.path] = result }
        }
        return levels.flatMap { level in
            modules.filter { level.contains($0.name) }.compactMap { results[$0.name] }
        }
    }

    static func runOne(_ command: String, module: Module, manifest: Manifest, environment inherited: [String: String],
                       output: ForallOptions.Output, observe: @escaping @Sendable (ForallEvent) -> Void) -> ModuleResult<ForallFacts> {
        let directory = manifest.directory(of: module)
        guard FileManager.default.fileExists(atPath: directory.path) else {
            return .skipped(module, module.kind == .repository ? "not cloned" : "folder missing")
        }
        var environment = inherited
        environment["MODKIT_MODULE"] = module.name
        environment["MODKIT_PATH"] = module.path
        environment["MODKIT_ROOT"] = manifest.root.path
        environment["MODKIT_VERSION"] = VersionReader.read(module: module, in: manifest).version?.description ?? ""
        environment["MODKIT_REVISION"] = manifest.revision(of: module) ?? ""
        environment["MODKIT_URL"] = manifest.url(of: module) ?? ""
        observe(.started(module: module.name, path: module.path))
        let name = module.name
        let shellOutput: ShellCommand.Output
        switch output {
        case .grouped: shellOutput = .capture
        case .lines: shellOutput = .lines { observe(.line(module: name, text: $0)) }
        case .terminal: shellOutput = .inherit
        }
        do {
            let run = try ShellCommand.run(command, in: directory, environment: environment, output: shellOutput)
            return .ran(module, status: run.status, output: run.output)
        } catch {
            let text = "modkit: could not start /bin/sh: \(error)\n"
            if case .lines = output { observe(.line(module: name, text: text.trimmingCharacters(in: .newlines))) }
            return .ran(module, status: 127, output: text)
        }
    }
}
