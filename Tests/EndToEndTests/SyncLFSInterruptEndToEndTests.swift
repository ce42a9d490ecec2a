import Foundation
import Testing

/// A fast-forward of a Git LFS repository (git writes its work tree: the smudge filter runs in git only), killed with
/// SIGKILL at random moments: after each kill, one `modkit sync` leaves exactly what `git pull --ff-only` leaves.
@Suite(.serialized) struct SyncLFSInterruptEndToEndTests {
    @Test func killNineDuringAnLFSFastForwardHealsToGitsResult() throws {
        let fixture = try LFSMoveFixture()
        let sandbox = fixture.ws.sandbox
        let duration = try fixture.uninterruptedDuration()
        var midMove = 0
        for round in 0..<10 {
            try fixture.resetModule()
            let process = try sandbox.spawnModkit(["sync"], in: "ws")
            if round % 2 == 0 {
                sandbox.kill(process, whenExists: "\(fixture.ws.module)/.git/modkit/move", extra: 0.6 * duration)
            } else {
                usleep(UInt32(Double.random(in: 0.05...1.0) * duration * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            if FileManager.default.fileExists(atPath: sandbox.url("\(fixture.ws.module)/.git/modkit/move").path) { midMove += 1 }
            let heal = try sandbox.modkit("sync", in: "ws")
            #expect(heal.status == 0, "round \(round): \(heal.out)\(heal.err)")
            try fixture.expectGitsResult(round: round)
        }
        #expect(midMove >= 2, "only \(midMove) of 10 runs stopped mid-move")
    }
}

/// One module tracked by Git LFS (`*.bin`), one commit behind a remote commit that rewrites 40 assets; a plain
/// `git clone` + `git pull --ff-only` of the same remote is the reference. A pristine copy is restored each round.
private struct LFSMoveFixture {
    let ws: SafetyWorkspace
    let target: String
    private let pristine: URL
    private let reference = "reference"

    init() throws {
        ws = try SafetyWorkspace(prepare: { sandbox in try sandbox.git("lfs", "install", "--skip-repo") })
        let sandbox = ws.sandbox
        try sandbox.git("lfs", "install", "--local", in: ws.source)
        try sandbox.write("*.bin filter=lfs diff=lfs merge=lfs -text\n", to: "\(ws.source)/.gitattributes")
        try FileManager.default.createDirectory(at: sandbox.url("\(ws.source)/Assets"), withIntermediateDirectories: true)
        for index in 0..<40 { try Self.asset(index, version: 1).write(to: sandbox.url("\(ws.source)/Assets/a\(index).bin")) }
        try sandbox.write("readme\n", to: "\(ws.source)/README.md")
        try Self.push("Add assets", in: ws)
        guard try ws.sync().status == 0 else { throw SandboxError("sync of the assets failed") }
        for index in 0..<40 { try Self.asset(index, version: 2).write(to: sandbox.url("\(ws.source)/Assets/a\(index).bin")) }
        try sandbox.write("readme 2\n", to: "\(ws.source)/README.md")
        target = try Self.push("Rewrite the assets", in: ws)
        try sandbox.git("fetch", "-q", "origin", in: ws.module)
        pristine = sandbox.url("pristine-Mod")
        _ = try sandbox.run("/bin/cp", ["-a", sandbox.url(ws.module).path, pristine.path], in: sandbox.root)
        try sandbox.git("clone", "-q", sandbox.url("remotes/Mod.git").path, reference)
    }

    /// Commits and pushes to a `file://` url: git-lfs sends the assets only to a url.
    @discardableResult
    private static func push(_ message: String, in ws: SafetyWorkspace) throws -> String {
        let sandbox = ws.sandbox
        try sandbox.git("add", "-A", in: ws.source)
        try sandbox.git("commit", "-qm", message, in: ws.source)
        try sandbox.git("push", "-q", "file://" + sandbox.url("remotes/Mod.git").path, "HEAD:main", in: ws.source)
        return try sandbox.git("rev-parse", "HEAD", in: ws.source)
    }

    /// 100 KB of bytes that differ per asset and version, so that no pointer file could pass for one.
    static func asset(_ index: Int, version: Int) -> Data {
        var state = UInt64(index * 7919 + version * 104_729 + 1)
        return Data((0..<100_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
    }

    func resetModule() throws {
        let module = ws.sandbox.url(ws.module)
        try FileManager.default.removeItem(at: module)
        _ = try ws.sandbox.run("/bin/cp", ["-a", pristine.path, module.path], in: ws.sandbox.root)
    }

    /// The time of one whole sync, to aim the kills.
    func uninterruptedDuration() throws -> Double {
        let start = Date()
        guard try ws.sync().status == 0 else { throw SandboxError("uninterrupted sync failed") }
        let duration = Date().timeIntervalSince(start)
        try expectGitsResult(round: -1)
        try ws.sandbox.git("pull", "-q", "--ff-only", in: reference)
        return duration
    }

    func expectGitsResult(round: Int) throws {
        let sandbox = ws.sandbox
        #expect(try ws.head() == target, "round \(round)")
        #expect(try ws.status() == [], "round \(round)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("\(ws.module)/.git/modkit/move").path), "round \(round)")
        for index in 0..<40 {
            #expect(ws.bytes("Assets/a\(index).bin") == Self.asset(index, version: 2), "round \(round): Assets/a\(index).bin")
        }
        #expect(ws.bytes("README.md") == Data("readme 2\n".utf8))
        let indexHere = try sandbox.git("ls-files", "-s", in: ws.module)
        let statusHere = try sandbox.modkit("status", "--json", "Mod", in: "ws")
        let report = try JSONSerialization.jsonObject(with: Data(statusHere.out.utf8)) as? [String: Any]
        let row = (report?["modules"] as? [[String: Any]])?.first
        #expect(row?["outcome"] as? String == "clean", "round \(round): \(statusHere.out)")
        if FileManager.default.fileExists(atPath: sandbox.url(reference + "/README.md").path),
           try sandbox.git("rev-parse", "HEAD", in: reference) == target {
            #expect(indexHere == (try sandbox.git("ls-files", "-s", in: reference)), "round \(round)")
        }
    }
}
