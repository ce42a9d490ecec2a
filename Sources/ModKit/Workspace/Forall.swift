import Foundation

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
        return Parallel.map(modules, jobs: jobs) { module in
            let result = runOne(command, module: module, manifest: manifest)
            finished(result)
            return result
        }
    }

    static func runOne(_ command: String, module: Module, manifest: Manifest) -> ForallResult {
        let directory = manifest.directory(of: module)
        var result = ForallResult(name: module.name, path: module.path, status: nil, output: "")
        guard FileManager.default.fileExists(atPath: directory.path) else {
            result.skipped = module.kind == .repository ? "not cloned" : "folder missing"
            return result
        }
        var environment = ProcessInfo.processInfo.environment
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

/// Runs `/bin/sh -c` with stdout and stderr captured together through a temporary file.
public enum ShellCommand {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
    }

    public static func run(_ command: String, in directory: URL, environment: [String: String]) throws -> Result {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: capture.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: capture) }
        let handle = try FileHandle(forWritingTo: capture)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let data = (try? Data(contentsOf: capture)) ?? Data()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
