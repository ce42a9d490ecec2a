import Foundation
import Testing

/// The command runner takes the workspace lock before it reads anything of the workspace.
@Suite struct CommandRunnerEndToEndTests {
    /// The first command (`pin`, which changes the workspace) reads a manifest of 8,000 modules; it is stopped with
    /// SIGSTOP as soon as its lock file names it, so it holds the lock while it is still loading. The second mutating command
    /// is pointed at a broken manifest in the same workspace: refused by the lock, it exits 1 naming the holder; had it read
    /// its manifest before taking the lock, as modkit once did, it would exit 2 with the manifest's error instead.
    @Test func aSecondMutatingCommandIsRefusedBeforeEitherReadsTheManifest() throws {
        let sandbox = try Sandbox()
        let modules = (0..<8_000).map { "  - name: Module\($0)\n    path: Modules/Module\($0)\n    url: https://git.example.com/module\($0).git\n" }
        try sandbox.write("version: 1\nworkspace: Held\nmodules:\n" + modules.joined(), to: "ws/modkit.yml")
        try sandbox.write("version: 1\nworkspace: Broken\nmodules: [ {\n", to: "ws/broken.yml")

        let first = try sandbox.spawnModkit(["pin"], in: "ws")
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL); first.waitUntilExit() } }
        let lockFile = sandbox.url("ws/.modkit/lock")
        let holder = "pid: \(first.processIdentifier)\n"
        let locked = waitUntil(timeout: 120) { !first.isRunning || ((try? String(contentsOf: lockFile, encoding: .utf8))?.hasPrefix(holder) ?? false) }
        kill(first.processIdentifier, SIGSTOP)
        #expect(locked && first.isRunning, "the first command ended without being seen holding the lock")

        let second = try sandbox.modkit("--manifest", "broken.yml", "sync", "--no-manifest-update", in: "ws")
        #expect(second.status == 1, "\(second.err)")
        #expect(second.err.contains("another modkit command holds the workspace lock: pid \(first.processIdentifier) ('modkit pin')"), "\(second.err)")
        #expect(!second.err.contains("broken.yml"), "the second command read its manifest before it asked for the lock: \(second.err)")

        kill(first.processIdentifier, SIGCONT)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: lockFile.path), "the lock was not released")
        // Without the lock in the way, the second command does read its manifest, and reports it.
        let again = try sandbox.modkit("--manifest", "broken.yml", "sync", "--no-manifest-update", in: "ws")
        #expect(again.status == 2 && again.err.contains("broken.yml:"), "\(again.err)")
    }

    /// A mistyped `--manifest` is reported before the lock would create `.modkit/` beside it.
    @Test func aMissingManifestIsReportedBeforeTheLockWritesAnything() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.url("prod"), withIntermediateDirectories: true)
        for arguments in [["--manifest", "prod/modkit.yaml", "sync"], ["--manifest", "prod", "tag", "v1"]] {
            let result = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.root)
            #expect(result.status == 2, "\(arguments): \(result.err)")
            #expect(result.err.contains("no manifest at"), "\(arguments): \(result.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.url("prod").path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url(".modkit").path))
    }

    /// Polls `condition` (a state change of another process) until it holds or `timeout` passes.
    private func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(500)
        }
        return condition()
    }
}
