import Foundation
import GitKit

/// The result of running a command: exit status and captured output.
struct ProcessOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs command-line tools for the evaluation tests.
enum ProcessRunner {
    /// Runs `arguments[0]` found on PATH with the rest as arguments, waits, and captures both streams.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let ended = ProcessExit(process)
        try process.run()
        // Read both pipes before waiting so a chatty tool cannot block on a full pipe.
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        while !errData.isSet { Thread.sleep(forTimeInterval: 0.001) }
        return ProcessOutput(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData.value, as: UTF8.self))
    }

    /// Whether a tool is on PATH.
    static func isAvailable(_ tool: String) -> Bool {
        (try? run(["which", tool]).status) == 0
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("speckit-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Data handed from a reader thread to the waiting test.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}
