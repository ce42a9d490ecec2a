import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The outcome of running a command in one module for `modkit forall`.
public struct ForallResult: Sendable, Codable, Equatable {
    public var name: String
    public var path: String
    /// The exit status, or nil when the command was not run (module not cloned).
    public var status: Int32?
    /// Standard output and standard error together, in the order they were written.
    public var output: String
    public var skipped: String?

    public var failed: Bool { (status ?? 0) != 0 }
}

/// `modkit forall -c CMD`: runs a shell command in every module directory, in parallel, keeping
/// each module's output whole.
public enum Forall {
    public static func run(
        _ command: String,
        in modules: [Module],
        workspace: Workspace,
        jobs: Int,
        finished: @escaping @Sendable (ForallResult) -> Void = { _ in }
    ) -> [ForallResult] {
        let manifest = workspace.manifest
        let environment = ProcessInfo.processInfo.environment
        return Parallel.map(modules, jobs: jobs) { module in
            let result = runOne(command, module: module, manifest: manifest, environment: environment)
            finished(result)
            return result
        }
    }

    static func runOne(_ command: String, module: Module, manifest: Manifest,
                       environment inherited: [String: String]) -> ForallResult {
        let directory = manifest.directory(of: module)
        var result = ForallResult(name: module.name, path: module.path, status: nil, output: "")
        guard FileManager.default.fileExists(atPath: directory.path) else {
            result.skipped = module.kind == .repository ? "not cloned" : "folder missing"
            return result
        }
        var environment = inherited
        environment["MODKIT_MODULE"] = module.name
        environment["MODKIT_PATH"] = module.path
        environment["MODKIT_ROOT"] = manifest.root.path
        environment["MODKIT_VERSION"] = VersionReader.read(module: module, in: manifest).version?.description ?? ""
        environment["MODKIT_REVISION"] = manifest.revision(of: module) ?? ""
        environment["MODKIT_URL"] = manifest.url(of: module) ?? ""
        do {
            let run = try ShellCommand.run(command, in: directory, environment: environment)
            result.status = run.status
            result.output = run.output
        } catch {
            result.status = 127
            result.output = "modkit: could not start /bin/sh: \(error)\n"
        }
        return result
    }
}
