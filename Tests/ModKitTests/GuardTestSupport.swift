import Foundation
import GitKit
import Testing
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
    let ended = ProcessExit(process)
    try process.run()
    ended.wait()
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

/// The C, C++ and Objective-C compilers guards are proven with: gcc (`gcc`, else `cc`) as C89 with `-pedantic-errors`, C11 and C++11,
/// and clang, when installed, as the same plus Objective-C and Objective-C++; each entry is (name, executable, language flags).
func guardCCompilers() throws -> [(name: String, executable: String, flags: [String])] {
    let gcc = try #require(findExecutable("gcc") ?? findExecutable("cc"), "gcc or cc is needed")
    var compilers = [
        ("gcc C89", gcc, ["-x", "c", "-std=c89", "-pedantic-errors"]),
        ("gcc C11", gcc, ["-x", "c", "-std=c11"]),
        ("g++ C++11", gcc, ["-x", "c++", "-std=c++11"]),
    ]
    if let clang = findExecutable("clang") {
        compilers += [
            ("clang C89", clang, ["-x", "c", "-std=c89", "-pedantic-errors"]),
            ("clang C11", clang, ["-x", "c", "-std=c11"]),
            ("clang C++17", clang, ["-x", "c++", "-std=c++17"]),
            ("clang Objective-C", clang, ["-x", "objective-c"]),
            ("clang Objective-C++", clang, ["-x", "objective-c++"]),
        ]
    }
    return compilers
}

/// The lines of a compiler's output that report an error in a source file (`file:line:col: error: …`).
func errorLines(_ output: String) -> [Substring] {
    output.split(separator: "\n").filter { $0.contains(": error: ") && !$0.hasPrefix("error: ") }
}

func version(_ text: String) -> SemanticVersion { SemanticVersion(text)! }

/// Writes the guard of `spec` into `moduleDirectory` and returns the files written.
@discardableResult
func writeGuard(_ spec: GuardSpec, in moduleDirectory: URL, generatedDir: String = "Generated",
                languages: Set<GuardLanguage> = Set(GuardLanguage.allCases)) throws -> [GuardFile] {
    try GuardWriter.apply(GuardWriter.plan(spec, moduleDirectory: moduleDirectory, generatedDir: generatedDir, languages: languages))
}
