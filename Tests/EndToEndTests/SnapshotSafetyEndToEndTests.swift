import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `modkit checkout SNAPSHOT` moves every repository or none, and finishes after being killed; `modkit tag` leaves
/// either no snapshot or a complete one. Real repositories, bare remotes over file://, the built binary.
@Suite struct SnapshotSafetyEndToEndTests {
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
        Refusal(module: "Mod07", message: "Mod07 in Libs/Mod07: files that git does not track are in the way of incoming files: Old/O3.txt (untracked); move them") { sandbox, base in
            try sandbox.write("mine, not the snapshot's\n", to: "\(base)/Old/O3.txt")
        },
        Refusal(module: "Mod02", message: "Mod02 in Libs/Mod02: files that git does not track are in the way of incoming files: Old/O5.txt (ignored); move them") { sandbox, base in
            try sandbox.write("Old/O5.txt\n", to: "\(base)/.git/info/exclude")
            try sandbox.write("per-user settings\n", to: "\(base)/Old/O5.txt")
        },
        Refusal(module: "Mod05", message: "Mod05 in Libs/Mod05: files that git does not track are in the way of incoming files: Old (untracked)") { sandbox, base in
            try sandbox.write("a file where the snapshot needs a folder\n", to: "\(base)/Old")
        },
        Refusal(module: "Mod08", message: "Mod08 in Libs/Mod08: files that git does not track are in the way of incoming files: New/mine.txt (untracked)") { sandbox, base in
            try sandbox.write("inside a folder the snapshot makes a file\n", to: "\(base)/New/mine.txt")
        },
        Refusal(module: "Mod09", message: "Mod09 in Libs/Mod09: index.lock exists: another git process is using this repository: .git/index.lock") { sandbox, base in
            try sandbox.write("", to: "\(base)/.git/index.lock")
        },
        Refusal(module: "Mod03", message: "Mod03 in Libs/Mod03: a rebase is in progress: .git/rebase-merge; finish it (git rebase --continue)") { sandbox, base in
            let result = try sandbox.run("/bin/sh", ["-c", "GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~1"],
                                         in: sandbox.url(base))
            guard result.status == 0 else { throw SandboxError("rebase: \(result.err)") }
        },
        Refusal(module: "Mod06", message: "Mod06 in Libs/Mod06: branch hotfix is checked out in the linked worktree ", branch: "hotfix") { sandbox, base in
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

    /// `checkout SNAPSHOT` moves with the same mechanism as `sync`: an ignored file where the snapshot adds one keeps
    /// every repository where it is and is named; once it is moved away, files are replaced by new ones (a hard link
    /// outside keeps the old bytes) and a read-only tracked file is replaced as git replaces it.
    @Test func checkoutKeepsIgnoredFilesAndHardLinkedCopiesAsSyncDoes() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeTwoSnapshotProduct(4, files: 5)
        try sandbox.write("Old/O5.txt\n", to: "ws/Libs/Mod02/.git/info/exclude")
        try sandbox.write("per-user settings, not the snapshot's\n", to: "ws/Libs/Mod02/Old/O5.txt")
        let mine = try Data(contentsOf: sandbox.url("ws/Libs/Mod02/Old/O5.txt"))
        let linked = sandbox.url("ws/Libs/Mod03/Sources/F1.swift").path, outside = sandbox.url("outside-F1.swift").path
        #expect(link(linked, outside) == 0)
        let readOnly = sandbox.url("ws/Libs/Mod04/Sources/F2.swift").path
        #expect(chmod(readOnly, 0o444) == 0)
        let before = try sandbox.workspaceState(names)

        let refused = try sandbox.modkit("checkout", "v1", in: "ws")
        #expect(refused.status == 1, "\(refused.err)")
        #expect(refused.err.contains("Mod02 in Libs/Mod02: files that git does not track are in the way of incoming files: Old/O5.txt (ignored)"),
                "\(refused.err)")
        #expect(refused.err.contains("nothing was moved"), "\(refused.err)")
        #expect(try sandbox.workspaceState(names) == before)
        #expect(try Data(contentsOf: sandbox.url("ws/Libs/Mod02/Old/O5.txt")) == mine)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/journal/checkout.json").path))

        try FileManager.default.moveItem(at: sandbox.url("ws/Libs/Mod02/Old/O5.txt"), to: sandbox.url("saved-O5.txt"))
        let result = try sandbox.modkit("checkout", "v1", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let snapshot = try sandbox.snapshotFile("v1")
        for name in names {
            #expect(try sandbox.head(of: name) == sandbox.snapshotFields(snapshot, module: name)["commit"])
            #expect(try sandbox.git("status", "--porcelain", "-uno", in: "ws/Libs/\(name)") == "", "\(name)")
        }
        #expect(try sandbox.read("ws/Libs/Mod02/Old/O5.txt") == "old 5\n")
        #expect(try Data(contentsOf: sandbox.url("saved-O5.txt")) == mine)
        #expect(try sandbox.read("ws/Libs/Mod03/Sources/F1.swift") == "// Mod03 1 first\n")
        #expect(try sandbox.read("outside-F1.swift") == "// Mod03 1 second\n")
        #expect(try sandbox.read("ws/Libs/Mod04/Sources/F2.swift") == "// Mod04 2 first\n")
    }


    @Test
    func killedCheckoutsOfFortyRepositoriesFinishOnTheNextCheckout() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeTwoSnapshotProduct(40, files: 60)
        let userModules = ["Mod01", "Mod13", "Mod27", "Mod40"]
        for name in userModules { _ = try sandbox.addUserFiles(to: name) }
        let users = try sandbox.userFileContents(userModules)
        let refsBefore = try names.map { try sandbox.reachable(in: "ws/Libs/\($0)") }
        try sandbox.copyWorkspace(from: "ws", to: "pristine")

        // The state one uninterrupted checkout reaches is the state every killed one must end in.
        let start = Date()
        let clean = try sandbox.modkit("checkout", "v1", in: "ws")
        let duration = Date().timeIntervalSince(start)
        print("killedCheckoutsOfFortyRepositoriesFinishOnTheNextCheckout: one checkout of 40 repositories took \(String(format: "%.2f", duration)) s")
        #expect(clean.status == 0, "\(clean.err)")
        let snapshot = try sandbox.snapshotFile("v1")
        for name in names {
            #expect(try sandbox.head(of: name) == sandbox.snapshotFields(snapshot, module: name)["commit"])
            #expect(try sandbox.git("status", "--porcelain", "-uno", in: "ws/Libs/\(name)") == "")
        }
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == sandbox.tagCommit("v1", in: "ws"))
        #expect(try names.map { try sandbox.reachable(in: "ws/Libs/\($0)") } == refsBefore)
        let expected = try sandbox.repositoryReport(names)
        #expect(!expected.contains("error") && !expected.contains("dangling"), "\(expected)")

        var cutShort = 0
        let rounds = 20
        for round in 0..<rounds {
            try sandbox.copyWorkspace(from: "pristine", to: "ws")
            let process = try sandbox.spawnModkit(["checkout", "v1"], in: "ws")
            if round % 2 == 0 {
                // Every other kill is aimed inside the moves: after the journal is written, at a random point of the rest.
                sandbox.kill(process, whenExists: "ws/.modkit/journal/checkout.json", extra: 0.6 * duration)
            } else {
                usleep(UInt32(Double.random(in: 0.3...1.0) * duration * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            if FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/journal/checkout.json").path) {
                cutShort += 1
                let status = try sandbox.modkit("status", in: "ws")
                #expect(status.err.contains("a checkout of snapshot v1 was interrupted") && status.err.contains("'modkit checkout v1'"),
                        "round \(round): \(status.err)")
                if cutShort == 1 {
                    // The killed run's workspace lock is taken over by sync, and released: that is all it may change.
                    let before = try sandbox.repositoryReport(names).replacingOccurrences(of: "!! .modkit/lock\n", with: "")
                    let sync = try sandbox.modkit("sync", in: "ws")
                    #expect(sync.status == 1 && sync.err.contains("finish it with 'modkit checkout v1'"), "\(sync.err)")
                    let after = try sandbox.repositoryReport(names)
                    #expect(after == before, "sync moved something while a checkout was unfinished: \(Sandbox.lineDifference(before, after))")
                }
            }
            let again = try sandbox.modkit("checkout", "v1", in: "ws")
            #expect(again.status == 0, "round \(round): \(again.err.prefix(1500)) \(again.out.split(separator: "\n").filter { $0.contains("fail") || $0.contains("error") }.prefix(5))")
            let report = try sandbox.repositoryReport(names)
            #expect(report == expected, "round \(round): \(Sandbox.lineDifference(expected, report))")
            #expect(try sandbox.userFileContents(userModules) == users, "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/journal/checkout.json").path))
        }
        #expect(cutShort >= rounds / 3, "only \(cutShort) of \(rounds) kills landed while repositories were moving")
    }

    @Test func killedTagsLeaveNoSnapshotOrACompleteOne() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct(6)
        try sandbox.write("the user's scratch file\n", to: "ws/scratch.txt")
        let porcelain = try sandbox.git("status", "--porcelain", in: "ws")
        #expect(porcelain == "?? scratch.txt")
        let before = try sandbox.git("rev-parse", "HEAD", in: "ws")
        let heads = try names.map { try sandbox.head(of: $0) }
        try sandbox.copyWorkspace(from: "ws", to: "pristine")

        let start = Date()
        let clean = try sandbox.modkit("tag", "v1", in: "ws")
        let duration = Date().timeIntervalSince(start)
        #expect(clean.status == 0, "\(clean.err)")
        try expectCompleteSnapshot(sandbox, names: names, heads: heads, parent: before, porcelain: porcelain, "uninterrupted")

        var outcomes: [String: Int] = [:]
        for round in 0..<30 {
            try sandbox.copyWorkspace(from: "pristine", to: "ws")
            let process = try sandbox.spawnModkit(["tag", "v1"], in: "ws")
            if round % 3 == 0 {
                // Every third kill is aimed at the moment the journal is written, so some land while tags are being made.
                sandbox.kill(process, whenExists: "ws/.modkit/journal/tag.json", extra: 0.002)
            } else {
                usleep(UInt32(Double.random(in: 0.2...1.1) * duration * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            let head = try sandbox.git("rev-parse", "HEAD", in: "ws")
            if FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/journal/tag.json").path) {
                outcomes["cut short (journal)", default: 0] += 1
                #expect(head == before || sandbox.tagCommit("v1", in: "ws") == head, "round \(round)")
            } else if head == before {
                outcomes["nothing yet", default: 0] += 1
                let now = try sandbox.git("status", "--porcelain", in: "ws")
                #expect(now == porcelain, "round \(round): \(now)")
                #expect(sandbox.tagCommit("v1", in: "ws") == nil, "round \(round)")
                for name in names { #expect(sandbox.tagCommit("v1", in: "ws/Libs/\(name)") == nil, "round \(round): \(name)") }
            } else {
                outcomes["complete", default: 0] += 1
                try expectCompleteSnapshot(sandbox, names: names, heads: heads, parent: before, porcelain: porcelain, "round \(round)")
            }
            let again = try sandbox.modkit("tag", "v1", in: "ws")
            #expect(again.status == 0, "round \(round): \(again.err)")
            try expectCompleteSnapshot(sandbox, names: names, heads: heads, parent: before, porcelain: porcelain, "round \(round), again")
        }
        print("killedTagsLeaveNoSnapshotOrACompleteOne: \(outcomes)")
        #expect((outcomes["cut short (journal)"] ?? 0) >= 3, "\(outcomes)")
    }

    /// The snapshot commit on top of `parent` holds the snapshot file, the tag `v1` is on it and on every module's HEAD,
    /// the index and work tree agree with it, and no journal is left.
    private func expectCompleteSnapshot(_ sandbox: Sandbox, names: [String], heads: [String], parent: String, porcelain: String,
                                        _ context: String) throws {
        let head = try sandbox.git("rev-parse", "HEAD", in: "ws")
        #expect(try sandbox.git("rev-parse", "HEAD~1", in: "ws") == parent, "\(context)")
        #expect(sandbox.tagCommit("v1", in: "ws") == head, "\(context)")
        let now = try sandbox.git("status", "--porcelain", in: "ws")
        #expect(now == porcelain, "\(context): \(now)")
        #expect(try sandbox.git("ls-files", "--stage", ".modkit/snapshots/v1.yml", in: "ws").contains(
            try sandbox.git("rev-parse", "HEAD:.modkit/snapshots/v1.yml", in: "ws")), "\(context)")
        #expect(try sandbox.read("ws/.modkit/snapshots/v1.yml") == sandbox.git("show", "HEAD:.modkit/snapshots/v1.yml", in: "ws") + "\n",
                "\(context)")
        for (name, commit) in zip(names, heads) { #expect(sandbox.tagCommit("Product/v1", in: "ws/Libs/\(name)") == commit, "\(context): \(name)") }
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/journal/tag.json").path), "\(context)")
    }
}

extension Sandbox {
    /// Replaces `destination` with a copy of `source` (`cp -a`), both relative to the sandbox.
    func copyWorkspace(from source: String, to destination: String) throws {
        try? FileManager.default.removeItem(at: url(destination))
        let result = try run("/bin/cp", ["-a", url(source).path, url(destination).path], in: root)
        guard result.status == 0 else { throw SandboxError("cp -a: \(result.err)") }
    }

    /// For the manifest repository and every module: HEAD and every ref with its target, `git status --porcelain
    /// --ignored` and `git fsck`'s findings (which include any commit a ref no longer reaches completely), in one shell run.
    func repositoryReport(_ names: [String]) throws -> String {
        let script = """
        for d in . \(names.map { "Libs/\($0)" }.joined(separator: " ")); do
          echo "== $d"; git -C "$d" show-ref --head; git -C "$d" status --porcelain --ignored
          git -C "$d" fsck --no-progress 2>&1
        done
        """
        let result = try run("/bin/sh", ["-c", script], in: url("ws"))
        guard result.status == 0 else { throw SandboxError("report: \(result.err)") }
        return result.out
    }

    /// The lines only in `a` (marked -) and only in `b` (marked +), for a failure message.
    static func lineDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false), right = b.split(separator: "\n", omittingEmptySubsequences: false)
        let removed = left.filter { !right.contains($0) }.map { "- \($0)" }, added = right.filter { !left.contains($0) }.map { "+ \($0)" }
        return (removed + added).prefix(20).joined(separator: "\n")
    }

    /// Runs the built `modkit` binary with an argument array.
    func modkit(_ arguments: [String], in directory: String) throws -> ProcessResult {
        try run(Sandbox.modkitBinary.path, arguments, in: url(directory))
    }
}
