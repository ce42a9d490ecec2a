import Foundation
import Testing

/// A fast-forward that rewrites 5,000 files, killed (SIGKILL) or interrupted (SIGINT) at random moments, many times
/// over: after each, one `modkit sync` leaves the repository exactly at the target commit with every user change kept.
@Suite struct SyncMoveInterruptEndToEndTests {
    @Test func killNineDuringAFiveThousandFileFastForwardHeals() throws {
        try interruptRounds(signal: SIGKILL, rounds: 20)
    }

    @Test func ctrlCDuringAFiveThousandFileFastForwardHeals() throws {
        try interruptRounds(signal: SIGINT, rounds: 20)
    }

    private func interruptRounds(signal: Int32, rounds: Int) throws {
        let fixture = try BigMoveFixture()
        let sandbox = fixture.ws.sandbox
        let duration = try fixture.uninterruptedDuration()
        var midMove = 0
        // How long after the journal appears an aimed stop may come. The first sync, timed cold, can take far longer
        // than the move of a warm one: an aimed stop that finds the move over halves it.
        var aim = 0.5 * duration
        for round in 0..<rounds {
            try fixture.resetModule()
            let process = try sandbox.spawnModkit(["sync"], in: "ws")
            if round % 2 == 0 {
                // Every other stop is aimed inside the move: once its journal is written, at a random point of the rest.
                sandbox.kill(process, whenExists: "\(fixture.ws.module)/.git/modkit/move", extra: aim, signal: signal)
                if !FileManager.default.fileExists(atPath: sandbox.url("\(fixture.ws.module)/.git/modkit/move").path) { aim /= 2 }
            } else {
                usleep(UInt32(Double.random(in: 0.05...1.0) * duration * 1_000_000))
                kill(process.processIdentifier, signal)
                process.waitUntilExit()
            }

            var expected = ["?? notes.txt", "!! Local.xcconfig"]
            var edit: Data?
            if FileManager.default.fileExists(atPath: sandbox.url("\(fixture.ws.module)/.git/modkit/move").path) {
                // Stopped mid-move. The user goes on working first: an edit the incoming commit does not touch.
                midMove += 1
                edit = Data("user edit \(round)\n".utf8)
                try edit?.write(to: sandbox.url("\(fixture.ws.module)/Keep.txt"))
                expected.append(" M Keep.txt")
            }
            let heal = try sandbox.modkit("sync", in: "ws")
            #expect(heal.status == 0, "round \(round): \(heal.out)\(heal.err)")
            try fixture.ws.expectAt(fixture.target, status: expected)
            #expect(fixture.ws.bytes("Keep.txt") == edit ?? Data("kept as is\n".utf8))
            #expect(fixture.ws.bytes("notes.txt") == fixture.untracked)
            #expect(fixture.ws.bytes("Local.xcconfig") == fixture.ignored)
            #expect(fixture.historyBefore.commits.isSubset(of: try fixture.ws.history().commits))
            if try fixture.ws.head() != fixture.target { break }
        }
        // Most stops must land inside the move itself, or the test proves little.
        #expect(midMove >= rounds / 3, "only \(midMove) of \(rounds) runs stopped mid-move")
    }
}

/// One module whose remote's newest commit rewrites 5,000 files; the module sits one commit behind with that commit
/// fetched, an untracked and an ignored file. A pristine copy is restored before every round.
private struct BigMoveFixture {
    let ws: SafetyWorkspace
    let target: String
    let untracked = Data("my notes\n".utf8)
    let ignored = Data("SECRET = 1\n".utf8)
    let historyBefore: (refs: Set<String>, commits: Set<String>)
    private let pristine: URL

    init() throws {
        var files: [String: String] = ["Keep.txt": "kept as is\n"]
        for index in 0..<5000 { files[String(format: "Data/%02d/file%04d.txt", index % 50, index)] = "version 1 of \(index)\n" }
        ws = try SafetyWorkspace(files: files)
        for index in 0..<5000 {
            try Data("version 2 of \(index)\n".utf8).write(to: ws.sandbox.url(String(format: "\(ws.source)/Data/%02d/file%04d.txt", index % 50, index)))
        }
        target = try ws.commitAndPush("Rewrite 5,000 files")
        try ws.sandbox.git("fetch", "-q", "origin", in: ws.module)
        try untracked.write(to: ws.sandbox.url("\(ws.module)/notes.txt"))
        try ws.sandbox.write("Local.xcconfig\n", to: "\(ws.module)/.git/info/exclude")
        try ignored.write(to: ws.sandbox.url("\(ws.module)/Local.xcconfig"))
        historyBefore = try ws.history()
        pristine = ws.sandbox.url("pristine-Mod")
        _ = try ws.sandbox.run("/bin/cp", ["-a", ws.sandbox.url(ws.module).path, pristine.path], in: ws.sandbox.root)
    }

    func resetModule() throws {
        let module = ws.sandbox.url(ws.module)
        try FileManager.default.removeItem(at: module)
        let copy = try ws.sandbox.run("/bin/cp", ["-a", pristine.path, module.path], in: ws.sandbox.root)
        guard copy.status == 0 else { throw SandboxError("cp failed: \(copy.err)") }
    }

    /// Seconds one whole sync takes here (and a check that it completes and keeps the user's files).
    func uninterruptedDuration() throws -> Double {
        try resetModule()
        let start = Date()
        let result = try ws.sync()
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        try ws.expectAt(target, status: ["?? notes.txt", "!! Local.xcconfig"])
        return seconds
    }
}
