import Foundation
import Testing

/// `modkit checkout SNAPSHOT` moves every repository or none, and finishes after being killed; `modkit tag` leaves
/// either no snapshot or a complete one. Real repositories, bare remotes over file://, the built binary.
@Suite(.serialized) struct SnapshotSafetyEndToEndTests {
    /// One cause of refusal, set up in one module of ten.
    struct Refusal: Sendable {
        var module: String
        var message: String
        var branch: String?
        var setUp: @Sendable (Sandbox, String) throws -> Void
    }

    static let refusals: [Refusal] = [
        Refusal(module: "Mod04", message: "Mod04: local changes in Libs/Mod04 (Sources/F3.swift") { sandbox, base in
            try sandbox.write("// unsaved work\n", to: "\(base)/Sources/F3.swift")
        },
        Refusal(module: "Mod07", message: "Mod07: untracked file Old/O3.txt in Libs/Mod07 would be overwritten") { sandbox, base in
            try sandbox.write("mine, not the snapshot's\n", to: "\(base)/Old/O3.txt")
        },
        Refusal(module: "Mod02", message: "Mod02: ignored file Old/O5.txt in Libs/Mod02 would be overwritten") { sandbox, base in
            try sandbox.write("Old/O5.txt\n", to: "\(base)/.git/info/exclude")
            try sandbox.write("per-user settings\n", to: "\(base)/Old/O5.txt")
        },
        Refusal(module: "Mod05", message: "Mod05: untracked file Old in Libs/Mod05 would be overwritten") { sandbox, base in
            try sandbox.write("a file where the snapshot needs a folder\n", to: "\(base)/Old")
        },
        Refusal(module: "Mod08", message: "Mod08: untracked file New/mine.txt in Libs/Mod08 would be overwritten") { sandbox, base in
            try sandbox.write("inside a folder the snapshot makes a file\n", to: "\(base)/New/mine.txt")
        },
        Refusal(module: "Mod09", message: "Mod09: Libs/Mod09/.git/index.lock exists") { sandbox, base in
            try sandbox.write("", to: "\(base)/.git/index.lock")
        },
        Refusal(module: "Mod03", message: "Mod03: a rebase is in progress in Libs/Mod03") { sandbox, base in
            let result = try sandbox.run("/bin/sh", ["-c", "GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~1"],
                                         in: sandbox.url(base))
            guard result.status == 0 else { throw SandboxError("rebase: \(result.err)") }
        },
        Refusal(module: "Mod06", message: "Mod06: branch hotfix is checked out in the linked work tree", branch: "hotfix") { sandbox, base in
            try sandbox.git("worktree", "add", "-q", "-b", "hotfix", sandbox.url("elsewhere/Mod06").path, "HEAD~1", in: base)
        },
    ]

    @Test func oneRefusedRepositoryAmongTenLeavesAllTenUnmoved() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeTwoSnapshotProduct(10, files: 20)
        var users: [String: Data] = [:]
        for name in ["Mod01", "Mod10"] { users.merge(try sandbox.addUserFiles(to: name)) { $1 } }
        try FileManager.default.copyItem(at: sandbox.url("ws"), to: sandbox.url("pristine"))

        for refusal in Self.refusals {
            try? FileManager.default.removeItem(at: sandbox.url("ws"))
            try? FileManager.default.removeItem(at: sandbox.url("elsewhere"))
            try FileManager.default.copyItem(at: sandbox.url("pristine"), to: sandbox.url("ws"))
            let base = "ws/Libs/\(refusal.module)"
            try refusal.setUp(sandbox, base)
            let before = try sandbox.workspaceState(names)
            let caused = try FileManager.default.subpathsOfDirectory(atPath: sandbox.url(base).path).sorted()

            let result = try sandbox.modkit(["checkout", "v1"] + (refusal.branch.map { ["--branch", $0] } ?? []), in: "ws")
            #expect(result.status == 1, "\(refusal.module): \(result.err)")
            #expect(result.err.contains(refusal.message), "\(result.err)")
            #expect(result.err.contains("nothing was moved"), "\(result.err)")
            #expect(try sandbox.workspaceState(names) == before, "\(refusal.message)")
            #expect(try sandbox.userFileContents(["Mod01", "Mod10"]) == users)
            #expect(try FileManager.default.subpathsOfDirectory(atPath: sandbox.url(base).path).sorted() == caused)
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/journal/checkout.json").path))
        }

        // With the cause gone, the same checkout completes and keeps the user's files.
        try FileManager.default.removeItem(at: sandbox.url("ws/Libs/Mod06/.git/worktrees"))
        try sandbox.git("branch", "-q", "-D", "hotfix", in: "ws/Libs/Mod06")
        let result = try sandbox.modkit("checkout", "v1", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let snapshot = try sandbox.snapshotFile("v1")
        for name in names {
            #expect(try sandbox.head(of: name) == sandbox.snapshotFields(snapshot, module: name)["commit"])
        }
        #expect(try sandbox.userFileContents(["Mod01", "Mod10"]) == users)
    }
}

extension Sandbox {
    /// Runs the built `modkit` binary with an argument array.
    func modkit(_ arguments: [String], in directory: String) throws -> ProcessResult {
        try run(Sandbox.modkitBinary.path, arguments, in: url(directory))
    }
}
