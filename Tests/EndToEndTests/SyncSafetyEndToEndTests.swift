import Foundation
import Testing

/// `modkit sync` moving an existing repository in awkward but ordinary states: it refuses before writing anything
/// (and says why), or it completes, and the next sync after the cause is removed completes.
@Suite struct SyncSafetyEndToEndTests {
    @Test func anIgnoredFileInTheWayKeepsTheModuleAndIsNamed() throws {
        let ws = try SafetyWorkspace()
        try ws.sandbox.write("Config.local.xcconfig\n", to: "\(ws.module)/.git/info/exclude")
        try ws.sandbox.write("API_KEY = mine\n", to: "\(ws.module)/Config.local.xcconfig")
        try ws.sandbox.write("API_KEY = template\n", to: "\(ws.source)/Config.local.xcconfig")
        let target = try ws.commitAndPush("Add a config template")
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())

        try ws.expectKept(try ws.sync(), mentioning: ["Config.local.xcconfig (ignored)"], headBefore: head,
                          statusBefore: status, historyBefore: history,
                          files: ["Config.local.xcconfig": Data("API_KEY = mine\n".utf8)])

        try FileManager.default.moveItem(at: ws.sandbox.url("\(ws.module)/Config.local.xcconfig"), to: ws.sandbox.url("saved.xcconfig"))
        #expect(try ws.sync().status == 0)
        try ws.expectAt(target)
        #expect(ws.bytes("Config.local.xcconfig") == Data("API_KEY = template\n".utf8))
    }

    @Test func aHardLinkedCopyOutsideTheWorkspaceIsNotChanged() throws {
        let ws = try SafetyWorkspace(files: ["README.md": "old text\n"])
        let outside = ws.sandbox.url("outside-link.md")
        try FileManager.default.linkItem(at: ws.sandbox.url("\(ws.module)/README.md"), to: outside)
        try ws.sandbox.write("new text\n", to: "\(ws.source)/README.md")
        let target = try ws.commitAndPush("Change README")
        let before = try ws.history()

        #expect(try ws.sync().status == 0)
        try ws.expectAt(target)
        #expect(ws.bytes("README.md") == Data("new text\n".utf8))
        #expect(FileManager.default.contents(atPath: outside.path) == Data("old text\n".utf8))
        #expect(before.commits.isSubset(of: try ws.history().commits))
    }

    @Test func aHeldIndexLockWritesNothingAndTheNextSyncCompletes() throws {
        let ws = try SafetyWorkspace(files: ["A.txt": "one\n"])
        try ws.sandbox.write("two\n", to: "\(ws.source)/A.txt")
        let target = try ws.commitAndPush("Change A")
        try ws.sandbox.write("", to: "\(ws.module)/.git/index.lock")
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())

        try ws.expectKept(try ws.sync(), mentioning: ["index.lock exists", ".git/index.lock"], headBefore: head,
                          statusBefore: status, historyBefore: history, files: ["A.txt": Data("one\n".utf8)])

        try FileManager.default.removeItem(at: ws.sandbox.url("\(ws.module)/.git/index.lock"))
        #expect(try ws.sync().status == 0)
        try ws.expectAt(target)
        #expect(ws.bytes("A.txt") == Data("two\n".utf8))
    }

    /// A sync killed inside a move can leave the locks it held (index, HEAD, the branch). Those are newer than the
    /// move's journal, so the next sync removes them and finishes the move; a lock older than any move is refused above.
    @Test func locksLeftByASyncKilledMidMoveAreRemovedAndTheMoveFinishes() throws {
        var files: [String: String] = [:]
        for index in 0..<2000 { files["Sources/F\(index).swift"] = "// \(index) one\n" }
        let ws = try SafetyWorkspace(files: files)
        try ws.sandbox.write("my notes\n", to: "\(ws.module)/notes.txt")
        for index in 0..<2000 { try ws.sandbox.write("// \(index) two\n", to: "\(ws.source)/Sources/F\(index).swift") }
        let target = try ws.commitAndPush("Change every file")
        let before = try ws.history()
        let journal = "\(ws.module)/.git/modkit/move"

        var interrupted = false
        for _ in 0..<10 where !interrupted {
            let process = try ws.sandbox.spawnModkit(["sync"], in: "ws")
            ws.sandbox.kill(process, whenExists: journal)
            interrupted = FileManager.default.fileExists(atPath: ws.sandbox.url(journal).path)
        }
        try #require(interrupted, "no kill landed inside the move")
        // What the killed run held at that moment (its journal is older than these).
        usleep(20_000)
        for lock in ["index.lock", "HEAD.lock", "refs/heads/main.lock"] { try ws.sandbox.write("", to: "\(ws.module)/.git/\(lock)") }

        let heal = try ws.sync()
        #expect(heal.status == 0, "\(heal.out)\(heal.err)")
        #expect(try ws.sandbox.git("reflog", "-1", "--format=%gs", in: ws.module) == "modkit: finish interrupted move")
        try ws.expectAt(target, status: ["?? notes.txt"])
        for lock in ["index.lock", "HEAD.lock", "refs/heads/main.lock"] {
            #expect(!FileManager.default.fileExists(atPath: ws.sandbox.url("\(ws.module)/.git/\(lock)").path), "\(lock)")
        }
        #expect(ws.bytes("notes.txt") == Data("my notes\n".utf8))
        #expect(ws.bytes("Sources/F1999.swift") == Data("// 1999 two\n".utf8))
        #expect(before.commits.isSubset(of: try ws.history().commits))
    }

    @Test func aRebaseInProgressIsLeftAloneAndCanContinue() throws {
        let ws = try SafetyWorkspace(files: ["A.txt": "one\n", "B.txt": "b\n"])
        try ws.sandbox.write("upstream\n", to: "\(ws.source)/B.txt")
        try ws.commitAndPush("Change B upstream")
        try ws.sandbox.git("fetch", "-q", "origin", in: ws.module)
        try ws.sandbox.git("checkout", "-q", "-b", "work", in: ws.module)
        try ws.sandbox.write("mine\n", to: "\(ws.module)/A.txt")
        try ws.sandbox.git("commit", "-qam", "My change", in: ws.module)
        let editor = ws.sandbox.url("edit-first.sh")
        try "#!/bin/sh\nsed -i 's/^pick/edit/' \"$1\"\n".write(to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        _ = try ws.sandbox.run("/usr/bin/env", ["GIT_SEQUENCE_EDITOR=\(editor.path)", "git", "rebase", "-q", "-i", "origin/main"],
                               in: ws.sandbox.url(ws.module))
        #expect(FileManager.default.fileExists(atPath: ws.sandbox.url("\(ws.module)/.git/rebase-merge").path))
        try ws.sandbox.write("more upstream\n", to: "\(ws.source)/B.txt")
        try ws.commitAndPush("Change B again")
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())

        try ws.expectKept(try ws.sync(), mentioning: ["a rebase is in progress", "git rebase --continue"], headBefore: head,
                          statusBefore: status, historyBefore: history,
                          files: ["A.txt": Data("mine\n".utf8), "B.txt": Data("upstream\n".utf8)])
        try ws.sandbox.git("rebase", "--continue", in: ws.module)
        #expect(try ws.sandbox.git("rev-parse", "--abbrev-ref", "HEAD", in: ws.module) == "work")
    }

    @Test func aBranchCheckedOutInALinkedWorktreeIsLeftAlone() throws {
        let ws = try SafetyWorkspace(files: ["A.txt": "one\n"])
        try ws.sandbox.git("checkout", "-q", "--detach", in: ws.module)
        let linked = ws.sandbox.url("linked").path
        try ws.sandbox.git("worktree", "add", "-q", linked, "main", in: ws.module)
        try ws.sandbox.write("two\n", to: "\(ws.source)/A.txt")
        try ws.commitAndPush("Change A")
        let mainBefore = try ws.sandbox.git("rev-parse", "main", in: ws.module)
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())

        try ws.expectKept(try ws.sync(), mentioning: ["branch main is checked out in the linked worktree \(linked)"], headBefore: head,
                          statusBefore: status, historyBefore: history, files: ["A.txt": Data("one\n".utf8)])
        #expect(try ws.sandbox.git("rev-parse", "main", in: ws.module) == mainBefore)
        #expect(FileManager.default.contents(atPath: linked + "/A.txt") == Data("one\n".utf8))
        #expect(try ws.sandbox.git("status", "--porcelain", in: "linked").isEmpty)
    }

    @Test func aDirectoryThatBecomesAFileWithAUserFileInsideIsKept() throws {
        let ws = try SafetyWorkspace(files: ["Assets/a.txt": "a\n"])
        try FileManager.default.removeItem(at: ws.sandbox.url("\(ws.source)/Assets"))
        try ws.sandbox.write("now a file\n", to: "\(ws.source)/Assets")
        let target = try ws.commitAndPush("Assets becomes a file")
        try ws.sandbox.write("my notes\n", to: "\(ws.module)/Assets/notes.txt")
        let (head, status, history) = (try ws.head(), try ws.status(), try ws.history())

        try ws.expectKept(try ws.sync(), mentioning: ["Assets/notes.txt (untracked)"], headBefore: head, statusBefore: status,
                          historyBefore: history, files: ["Assets/notes.txt": Data("my notes\n".utf8), "Assets/a.txt": Data("a\n".utf8)])

        try FileManager.default.removeItem(at: ws.sandbox.url("\(ws.module)/Assets/notes.txt"))
        #expect(try ws.sync().status == 0)
        try ws.expectAt(target)
        #expect(ws.bytes("Assets") == Data("now a file\n".utf8))
    }

    @Test func aSparseCheckoutFastForwardsAndStaysSparse() throws {
        let ws = try SafetyWorkspace(files: ["Docs/guide.md": "guide\n", "Sources/Mod/Extra.swift": "// extra\n"])
        try ws.sandbox.git("sparse-checkout", "set", "--cone", "Sources", in: ws.module)
        #expect(!FileManager.default.fileExists(atPath: ws.sandbox.url("\(ws.module)/Docs").path))
        try ws.sandbox.write("guide v2\n", to: "\(ws.source)/Docs/guide.md")
        try ws.sandbox.write("new doc\n", to: "\(ws.source)/Docs/new.md")
        try ws.sandbox.write("// extra v2\n", to: "\(ws.source)/Sources/Mod/Extra.swift")
        try ws.sandbox.write("// new\n", to: "\(ws.source)/Sources/Mod/New.swift")
        let target = try ws.commitAndPush("Change inside and outside the cone")

        let first = try ws.sync()
        #expect(first.status == 0, "\(first.out)\(first.err)")
        try ws.expectAt(target)
        #expect(ws.bytes("Sources/Mod/New.swift") == Data("// new\n".utf8))
        #expect(ws.bytes("Sources/Mod/Extra.swift") == Data("// extra v2\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: ws.sandbox.url("\(ws.module)/Docs").path))
        let second = try ws.sync()
        #expect(second.status == 0 && (second.out + second.err).contains("up to date"), "\(second.out)\(second.err)")
    }

    @Test(arguments: [false, true]) func aModuleWithASubmoduleFastForwards(populated: Bool) throws {
        let ws = try SafetyWorkspace()
        try ws.sandbox.makeRemote("Lib")
        try ws.sandbox.git("-c", "protocol.file.allow=always", "submodule", "add", "-q",
                           ws.sandbox.url("remotes/Lib.git").path, "Vendor/Lib", in: ws.source)
        try ws.commitAndPush("Add submodule")
        #expect(try ws.sync().status == 0)
        if populated {
            try ws.sandbox.git("-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init", in: ws.module)
        }
        try ws.sandbox.pushNewCommit("Lib")
        try ws.sandbox.git("-C", "Vendor/Lib", "pull", "-q", "origin", "main", in: ws.source)
        try ws.sandbox.write("changed\n", to: "\(ws.source)/CHANGES.md")
        let target = try ws.commitAndPush("Bump Lib")

        let first = try ws.sync()
        #expect(first.status == 0, "\(first.out)\(first.err)")
        #expect(try ws.head() == target)
        #expect(ws.bytes("CHANGES.md") == Data("changed\n".utf8))
        let second = try ws.sync()
        #expect(second.status == 0 && (second.out + second.err).contains("up to date"), "\(second.out)\(second.err)")
        let fsck = try ws.sandbox.run("/usr/bin/env", ["git", "fsck", "--no-progress"], in: ws.sandbox.url(ws.module))
        #expect(fsck.status == 0)
    }
}
