import Foundation
import Testing

/// Moves that the file system refuses: a read-only file or directory (as an unprivileged user: the tests run as
/// root, which ignores permissions) and a full disk (a small tmpfs). Nothing is written, the module is reported
/// with the reason, and the next sync after the cause is removed completes.
@Suite struct SyncResourceEndToEndTests {
    static let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Hands the sandbox to uid 65534 and runs `modkit sync` as that user; nil when that is not possible here.
    private func syncAsNobody(_ ws: SafetyWorkspace) throws -> ProcessResult? {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
        try ws.sandbox.git("config", "--global", "--add", "safe.directory", "*")
        _ = try ws.sandbox.run("/bin/chown", ["-R", "65534:65534", ws.sandbox.root.path], in: ws.sandbox.root)
        let result = try ws.sandbox.run("/usr/bin/setpriv", Self.nobody + [Sandbox.modkitBinary.path, "sync"], in: ws.sandbox.url("ws"))
        return result.err.hasPrefix("setpriv:") ? nil : result
    }

    @Test func aReadOnlyTrackedFileIsReplacedAsGitDoes() throws {
        let ws = try SafetyWorkspace(files: ["A.txt": "one\n"])
        try ws.sandbox.write("two\n", to: "\(ws.source)/A.txt")
        let target = try ws.commitAndPush("Change A")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: ws.sandbox.url("\(ws.module)/A.txt").path)
        guard let result = try syncAsNobody(ws) else {
            print("skipped: cannot run modkit as an unprivileged user here (needs root and setpriv)")
            return
        }
        #expect(result.status == 0, "\(result.out)\(result.err)")
        try ws.expectAt(target)
        #expect(ws.bytes("A.txt") == Data("two\n".utf8))
    }

    @Test func aReadOnlyDirectoryWritesNothingAndTheNextSyncCompletes() throws {
        let ws = try SafetyWorkspace()
        try ws.sandbox.write("public enum Mod { static let v = 2 }\n", to: "\(ws.source)/Sources/Mod/Mod.swift")
        try ws.sandbox.write("new\n", to: "\(ws.source)/A.txt")
        let target = try ws.commitAndPush("Change inside Sources/Mod")
        let directory = ws.sandbox.url("\(ws.module)/Sources/Mod").path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())
        let swiftBefore = ws.bytes("Sources/Mod/Mod.swift")
        guard let result = try syncAsNobody(ws) else {
            print("skipped: cannot run modkit as an unprivileged user here (needs root and setpriv)")
            return
        }
        try ws.expectKept(result, mentioning: ["no permission to write", "Sources/Mod"], headBefore: head, statusBefore: status,
                          historyBefore: history, files: ["Sources/Mod/Mod.swift": swiftBefore, "A.txt": nil])

        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        let retry = try ws.sandbox.run("/usr/bin/setpriv", Self.nobody + [Sandbox.modkitBinary.path, "sync"], in: ws.sandbox.url("ws"))
        #expect(retry.status == 0, "\(retry.out)\(retry.err)")
        try ws.expectAt(target)
    }

    @Test func aFullDiskWritesNothingAndTheNextSyncCompletes() throws {
        var mounted: URL?
        let ws = try SafetyWorkspace { sandbox in
            let libs = sandbox.url("ws/Libs")
            try FileManager.default.createDirectory(at: libs, withIntermediateDirectories: true)
            let mount = try sandbox.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", libs.path], in: sandbox.root)
            if mount.status == 0 { mounted = libs }
        }
        defer { if let mounted { _ = try? ws.sandbox.run("/bin/umount", [mounted.path], in: ws.sandbox.root) } }
        guard let mounted else {
            print("skipped: mounting a small tmpfs is not permitted here")
            return
        }
        // 3 MB that compress to a few kilobytes: the fetch fits, the checkout would not.
        try ws.sandbox.write(String(repeating: "a line of data that repeats\n", count: 110_000), to: "\(ws.source)/Big.txt")
        try ws.sandbox.write("changed\n", to: "\(ws.source)/CHANGES.md")
        let target = try ws.commitAndPush("Add a big file")
        try ws.sandbox.git("fetch", "-q", "origin", in: ws.module)
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())

        try ws.expectKept(try ws.sync(), mentioning: ["not enough free disk space"], headBefore: head, statusBefore: status,
                          historyBefore: history, files: ["Big.txt": nil, "CHANGES.md": nil])

        let remount = try ws.sandbox.run("/bin/mount", ["-o", "remount,size=32m", mounted.path], in: ws.sandbox.root)
        #expect(remount.status == 0, "\(remount.err)")
        #expect(try ws.sync().status == 0)
        try ws.expectAt(target)
        #expect(ws.bytes("Big.txt")?.count == 110_000 * 28)
    }
}
