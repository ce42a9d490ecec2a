import Foundation
import Testing
@testable import GitKit

/// The stat-data proof of a clean work tree: it holds where `git status` is clean and the stat data say so, gives up
/// everywhere else, and status then counts what `git status` counts.
@Suite struct CleanWorkTreeProofTests {
    /// A repository made by the git CLI (`makeGitWorkTree`) with an ignored directory and a precomposed name.
    private func makeRepository(_ sandbox: Sandbox) throws -> String {
        let work = try makeGitWorkTree(sandbox, files: 30, modules: 3)
        try write(".build/\n*.log\n", to: work + "/.gitignore")
        try write("caf\u{E9}\n", to: work + "/Sources/Caf\u{E9}.swift")  // NFC on disk and in the index
        try commitFile(work, "README.md", "one\n", "One")
        try settle(work)
        try git("commit", "-q", "--allow-empty", "-m", "Two", in: work)
        return work
    }

    private func proves(_ work: String, untracked: Bool = true) throws -> Bool {
        let repository = try Repository.open(work)
        guard let judged = repository.indexFileMatchingHead(collectingEntries: true) else { return false }
        return CleanWorkTreeProof(repository: repository, index: judged).holds(untracked: untracked)
    }

    /// A file git just wrote is racily clean until git writes the index a tick later, as its refresh does.
    private func settle(_ work: String) throws {
        Thread.sleep(forTimeInterval: 0.05)
        try git("update-index", "--refresh", "-q", in: work)
    }

    /// git's view, without the index write `git status` makes when it refreshes stat data: that write would decide
    /// what the proof sees next, depending on whether a second boundary passed.
    private func gitStatus(_ work: String) throws -> String {
        try git("--no-optional-locks", "status", "--porcelain", "--untracked-files=all", in: work)
    }

    @Test func holdsForACleanWorkTreeWithIgnoredFiles() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        #expect(try proves(work))
        try write("built\n", to: work + "/.build/debug/App.o")
        try write("log\n", to: work + "/Sources/Module1/debug.log")
        #expect(try gitStatus(work) == "")
        #expect(try proves(work))
        #expect(try Repository.open(work).status() == StatusSummary())
    }

    @Test func givesUpOnEveryChangeAndStatusCountsIt() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        let file = work + "/Sources/Module0/Deep/File0.swift"
        let repository = try Repository.open(work)

        // Same size, new content, the old modification time put back: the change time still differs.
        let original = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        try write("file X\n", to: file)
        try FileManager.default.setAttributes([.modificationDate: try #require(original)], ofItemAtPath: file)
        #expect(try !proves(work))
        #expect(try repository.status() == StatusSummary(modified: 1))
        try git("checkout", "--", "Sources/Module0/Deep/File0.swift", in: work)
        try settle(work)
        #expect(try proves(work))

        try write("new\n", to: work + "/Sources/Module2/New.swift")
        #expect(try !proves(work))
        #expect(try proves(work, untracked: false), "an untracked file does not count without untracked")
        #expect(try repository.status() == StatusSummary(untracked: 1))
        try FileManager.default.removeItem(atPath: work + "/Sources/Module2/New.swift")

        // A name that differs from a tracked one only in its Unicode form is another file to git on Linux.
        try write("nfd\n", to: work + "/Sources/Cafe\u{301}.swift")
        #expect(try gitStatus(work) == "?? \"Sources/Cafe\\314\\201.swift\"")
        #expect(try !proves(work))
        #expect(try repository.status() == StatusSummary(untracked: 1))
        try FileManager.default.removeItem(atPath: work + "/Sources/Cafe\u{301}.swift")

        try write("nested\n", to: work + "/Vendor/inner/README")
        try git("init", "-q", work + "/Vendor/inner", in: work)
        #expect(try !proves(work))
        try FileManager.default.removeItem(atPath: work + "/Vendor")

        _ = try run("/bin/chmod", ["+x", file])
        #expect(try !proves(work))
        #expect(try repository.status() == StatusSummary(modified: 1))
        _ = try run("/bin/chmod", ["-x", file])

        try FileManager.default.removeItem(atPath: work + "/README.md")
        #expect(try !proves(work))
        #expect(try repository.status() == StatusSummary(modified: 1))
        try git("checkout", "--", "README.md", in: work)

        try FileManager.default.removeItem(atPath: work + "/link")
        try write("scripts/run.sh", to: work + "/link")
        #expect(try !proves(work), "a symbolic link became a file")
        try FileManager.default.removeItem(atPath: work + "/link")
        try git("checkout", "--", "link", in: work)

        try write("staged\n", to: work + "/Sources/Module1/Deep/File1.swift")
        try git("add", "-A", in: work)
        #expect(try !proves(work))
        #expect(try repository.status() == StatusSummary(staged: 1))
    }

    /// A tracked directory moved away and replaced by a symbolic link to it: its files keep every stat datum, but
    /// to git they are deleted and the link is untracked. Directories are never opened through a link.
    @Test func givesUpOnADirectoryReplacedByASymbolicLink() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try FileManager.default.moveItem(atPath: work + "/Sources/Module1", toPath: work + "/Moved")
        try FileManager.default.createSymbolicLink(atPath: work + "/Sources/Module1", withDestinationPath: "../Moved")
        #expect(try git("--no-optional-locks", "status", "--porcelain", "--untracked-files=no", in: work)
            .contains(" D Sources/Module1/"))
        #expect(try !proves(work, untracked: false))
        #expect(try !proves(work))
        let deleted = try git("ls-files", "Sources/Module1", in: work).split(separator: "\n").count
        #expect(try Repository.open(work).status(untracked: false) == StatusSummary(modified: deleted))
    }

    /// An index older than its entries leaves every entry racily clean: only content can tell, so libgit2 decides.
    @Test func givesUpOnRacilyCleanEntries() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: work + "/.git/index")
        #expect(try !proves(work))
        #expect(try Repository.open(work).status() == StatusSummary())
    }

    @Test func followsOnlyTheSettingsItUnderstands() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try git("config", "core.ignorecase", "true", in: work)
        #expect(try !proves(work))
        try git("config", "core.ignorecase", "false", in: work)
        try git("config", "core.checkStat", "minimal", in: work)
        #expect(try !proves(work))
        try git("config", "--unset", "core.checkStat", in: work)
        #expect(try proves(work))

        // With core.filemode off, git ignores the executable bit; so does the proof.
        try git("config", "core.filemode", "false", in: work)
        _ = try run("/bin/chmod", ["+x", work + "/README.md"])
        #expect(try gitStatus(work) == "")
        // chmod changed the change time's nanoseconds, which git does not compare and the proof does: it gives up.
        #expect(try !proves(work))
        #expect(try Repository.open(work).status() == StatusSummary())
        // Once git records the new stat data (and the trees again), the executable bit alone does not count.
        try git("add", "README.md", in: work)
        try git("commit", "-q", "--allow-empty", "-m", "Mode", in: work)
        try settle(work)
        #expect(try git("ls-files", "-s", "README.md", in: work).hasPrefix("100644 "))
        #expect(try proves(work))
        try git("config", "core.filemode", "true", in: work)
        #expect(try !proves(work))
    }

    /// A file outside the sparse checkout is absent from the work tree, and that is clean.
    @Test func skipWorktreeEntriesAreNotLookedAt() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try git("update-index", "--index-version", "3", "--skip-worktree", "Sources/Module2/Deep/File2.swift", in: work)
        try FileManager.default.removeItem(atPath: work + "/Sources/Module2/Deep/File2.swift")
        try git("commit", "-q", "--allow-empty", "-m", "Sparse", in: work)  // records the trees again
        #expect(try gitStatus(work) == "")
        #expect(try proves(work))
    }

    /// A sparse checkout: the directories outside it are absent, and that is clean. A file outside it that is
    /// there anyway is compared by git, so the proof gives up on it.
    @Test func aSparseCheckoutIsCleanWithItsDirectoriesAbsent() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try git("sparse-checkout", "set", "Sources/Module0", "scripts", in: work)
        #expect(!exists(work + "/Sources/Module1"))
        try git("commit", "-q", "--allow-empty", "-m", "Sparse", in: work)  // records the trees again
        try settle(work)
        #expect(try gitStatus(work) == "")
        #expect(try proves(work))
        #expect(try proves(work, untracked: false))

        try write("file 1\n", to: work + "/Sources/Module1/Deep/File1.swift")  // its committed content
        try write("changed\n", to: work + "/Sources/Module1/Deep/File4.swift")
        #expect(try gitStatus(work).contains("Sources/Module1/Deep/File4.swift"), "git compares it")
        #expect(try !proves(work))
        #expect(try !proves(work, untracked: false))
        try FileManager.default.removeItem(atPath: work + "/Sources/Module1")

        try write("not a directory\n", to: work + "/Sources/Module1")
        #expect(try !proves(work), "an untracked file where the index has a directory")
    }

    /// git does not look at an assume-unchanged file, but when a directory replaces it, it lists the directory
    /// as untracked.
    @Test func givesUpOnAnAssumeUnchangedFileReplacedByADirectory() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try git("update-index", "--assume-unchanged", "README.md", in: work)
        try git("commit", "-q", "--allow-empty", "-m", "Assumed", in: work)  // update-index dropped the trees
        try settle(work)
        try FileManager.default.removeItem(atPath: work + "/README.md")
        #expect(try gitStatus(work) == "")
        #expect(try proves(work))
        try write("new\n", to: work + "/README.md/new")
        #expect(try gitStatus(work) == "?? README.md/new")
        #expect(try !proves(work))
        #expect(try proves(work, untracked: false))
    }

    @Test func givesUpOnSubmodules() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        let inner = sandbox.at("inner")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main", inner, in: sandbox.path)
        try commitFile(inner, "a.txt", "a\n", "Inner")
        try git("-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "Vendor/inner", in: work)
        try git("commit", "-q", "-m", "Submodule", in: work)
        #expect(try gitStatus(work) == "")
        #expect(try !proves(work))
        #expect(try Repository.open(work).status() == StatusSummary())
    }

    /// A large index is checked in parts on several threads: a change in the first or the last part is found.
    @Test func aLargeIndexIsCheckedInParts() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main", work, in: sandbox.path)
        for index in 0..<2_400 { try write("\(index)\n", to: work + "/Part\(index / 600)/File\(index).txt") }
        try commitFile(work, "README.md", "large\n", "Large")
        try settle(work)
        #expect(try proves(work))
        for file in ["Part0/File0.txt", "Part3/File2399.txt"] {
            try write("changed\n", to: work + "/" + file)
            #expect(try !proves(work), "\(file)")
            #expect(try Repository.open(work).status() == StatusSummary(modified: 1))
            try git("checkout", "--", file, in: work)
            try settle(work)
            #expect(try proves(work))
        }
    }
}
