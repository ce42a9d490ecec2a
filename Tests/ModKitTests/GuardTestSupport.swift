import Foundation
@testable import ModKit

/// What a finished child process said.
struct GuardProcessResult {
    var status: Int32
    var output: String
}

/// Runs `executable` with `arguments` in `directory`, stdout and stderr merged (diagnostics may go to either);
/// `environment` is added to this process's.
func runGuardProcess(_ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> GuardProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
    let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-guard-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputFile) }
    let handle = try FileHandle(forWritingTo: outputFile)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return GuardProcessResult(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self))
}

/// The full path of `name` on PATH, nil when it is not installed.
func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

func version(_ text: String) -> SemanticVersion { SemanticVersion(text)! }

/// Writes the guard of `spec` into `moduleDirectory` and returns the files written.
@discardableResult
func writeGuard(_ spec: GuardSpec, in moduleDirectory: URL, generatedDir: String = "Generated",
                languages: Set<GuardLanguage> = Set(GuardLanguage.allCases)) throws -> [GuardFile] {
    try GuardWriter.apply(GuardWriter.plan(spec, moduleDirectory: moduleDirectory, generatedDir: generatedDir, languages: languages))
}
