import Foundation
import GitKit
import Testing

/// The cache-tree reader against indexes written by the real git, and status (which trusts it) against
/// `git status` in the states that keep or break the cache-tree.
@Suite struct IndexCacheTreeTests {
    /// A repository made by the git CLI (`makeGitWorkTree`) with three commits.
    private func makeRepository(_ sandbox: Sandbox) throws -> String {
        let work = try makeGitWorkTree(sandbox, files: 40, modules: 4)
        try commitFile(work, "README.md", "one\n", "One")
        try commitFile(work, "Sources/Module1/Deep/File1.swift", "changed\n", "Two")
        try commitFile(work, "Sources/Module2/New.swift", "new\n", "Three")
        return work
    }

    private func indexBytes(_ work: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: work + "/.git/index")))
    }

    private func headTree(_ work: String) throws -> OID {
        try #require(OID(hex: try git("rev-parse", "HEAD^{tree}", in: work)))
    }

    @Test(arguments: [2, 3, 4]) func readsTheRootTreeOfEachIndexVersion(version: Int) throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try git("update-index", "--index-version", "\(version)", in: work)
        // A skip-worktree entry sets the extended flags of a version 3 or 4 entry.
        if version >= 3 {
            try git("update-index", "--skip-worktree", "README.md", in: work)
            try git("commit", "-q", "--allow-empty", "-m", "Sparse", in: work)  // git records the trees again
        }
        let bytes = try indexBytes(work)
        #expect(Array(bytes[4..<8]) == [0, 0, 0, UInt8(version)])
        #expect(IndexCacheTree(indexFile: bytes)?.rootTree == (try headTree(work)))
    }

    @Test func anIndexThatDiffersFromItsRecordedTreeGivesNone() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) != nil)

        try write("staged\n", to: work + "/Sources/Module3/Deep/File3.swift")
        try git("add", "Sources/Module3/Deep/File3.swift", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) == nil, "a staged change invalidates the root record")
        try git("reset", "-q", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) == nil, "git's mixed reset leaves the root record invalid")
        try git("commit", "-q", "--allow-empty", "-m", "Empty", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work))?.rootTree == (try headTree(work)))

        try write("intent\n", to: work + "/Later.swift")
        try git("add", "-N", "Later.swift", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) == nil, "an intent-to-add entry is in no tree")
        try git("rm", "-q", "--cached", "Later.swift", in: work)
        try git("commit", "-q", "--allow-empty", "-m", "Empty again", in: work)

        try git("update-index", "--split-index", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) == nil, "a split index is not read")
        try git("update-index", "--no-split-index", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work))?.rootTree == (try headTree(work)))
    }

    @Test func aMergeConflictGivesNone() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        try git("checkout", "-q", "-b", "theirs", in: work)
        try commitFile(work, "README.md", "theirs\n", "Theirs")
        try git("checkout", "-q", "main", in: work)
        try commitFile(work, "README.md", "ours\n", "Ours")
        #expect(throws: CommandFailed.self) { try git("merge", "-q", "theirs", in: work) }
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) == nil)
    }

    /// Truncated or corrupted files never crash the reader, and never yield a tree other than the true one.
    @Test func damagedIndexesNeverYieldAnotherTree() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        for version in [2, 4] {
            try git("update-index", "--index-version", "\(version)", in: work)
            let bytes = try indexBytes(work)
            let truth = try headTree(work)
            for length in 0..<bytes.count {
                let tree = IndexCacheTree(indexFile: Array(bytes.prefix(length)))?.rootTree
                #expect(tree == nil || tree == truth, "index v\(version) cut to \(length) bytes")
            }
            var random = SystemRandomNumberGenerator()
            for _ in 0..<2_000 {
                var damaged = bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                _ = IndexCacheTree(indexFile: damaged)
            }
        }
    }

    /// Status trusts a valid root record only while it is HEAD's tree: moving HEAD alone, staging and
    /// committing are each counted as `git status` counts them.
    @Test func statusAgreesWithGitAsTheCacheTreeComesAndGoes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        let repository = try Repository.open(work)
        #expect(try repository.status() == StatusSummary())

        // HEAD moves and the index stays: the last commit's two files are staged.
        try git("reset", "-q", "--soft", "HEAD~2", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) != nil, "the recorded tree is no longer HEAD's")
        #expect(try repository.status() == StatusSummary(staged: 2))
        #expect(try repository.changedTrackedPaths() == ["Sources/Module1/Deep/File1.swift", "Sources/Module2/New.swift"])
        try git("commit", "-q", "-m", "Again", in: work)
        #expect(try repository.status() == StatusSummary())
        #expect(try repository.changedTrackedPaths() == [])

        try write("edited\n", to: work + "/Sources/Module0/Deep/File0.swift")
        try write("loose\n", to: work + "/Loose.swift")
        #expect(try repository.status() == StatusSummary(modified: 1, untracked: 1))
        try git("add", "Sources/Module0/Deep/File0.swift", in: work)
        #expect(try repository.status() == StatusSummary(staged: 1, untracked: 1))
        try git("commit", "-q", "-m", "Edit", in: work)
        #expect(try repository.status() == StatusSummary(untracked: 1))
        try FileManager.default.removeItem(atPath: work + "/README.md")
        #expect(try repository.status() == StatusSummary(modified: 1, untracked: 1))
        #expect(try repository.status(paths: ["Sources"]) == StatusSummary())
    }

    /// A move from a commit whose tree the index records leaves the new commit's tree recorded, as git's own
    /// fast-forward does, with every tree it names in the repository and no object written.
    @Test func aMoveRecordsTheNewTree() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        let target = try commitFile(work, "Sources/Module3/Deep/Added.swift", "added\n", "Four")
        try FileManager.default.removeItem(atPath: work + "/Sources/Module0/Deep/File4.swift")
        try git("commit", "-q", "-a", "-m", "Five", in: work)
        let newest = try #require(OID(hex: try git("rev-parse", "HEAD", in: work)))
        try git("reset", "-q", "--hard", "HEAD~3", in: work)
        #expect(IndexCacheTree(indexFile: try indexBytes(work))?.rootTree == (try headTree(work)))
        let objects = try git("count-objects", "-v", in: work)

        let repository = try Repository.open(work)
        try WorkTreeMove.perform(repository, to: target, branch: "main", logMessage: "test: move")
        #expect(try git("rev-parse", "HEAD", in: work) == target.hex)
        #expect(IndexCacheTree(indexFile: try indexBytes(work))?.rootTree == (try headTree(work)))
        try WorkTreeMove.perform(repository, to: newest, branch: "main", logMessage: "test: move")
        #expect(IndexCacheTree(indexFile: try indexBytes(work))?.rootTree == (try headTree(work)))
        #expect(try git("count-objects", "-v", in: work) == objects, "the recorded trees were all there")
        #expect(try git("status", "--porcelain", in: work) == "")
        // git builds its next commit from the recorded trees: they must be the true ones.
        try git("commit", "-q", "--allow-empty", "-m", "Six", in: work)
        #expect(try git("rev-parse", "HEAD^{tree}", in: work) == (try git("rev-parse", "\(newest.hex)^{tree}", in: work)))
        #expect(try repository.status() == StatusSummary())
    }

    /// With a change staged, the index is no commit's tree: the move keeps it staged and records nothing.
    @Test func aMoveWithAStagedChangeRecordsNoTree() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = try makeRepository(sandbox)
        let target = try commitFile(work, "Sources/Module3/Deep/Added.swift", "added\n", "Four")
        try git("reset", "-q", "--hard", "HEAD~1", in: work)
        try write("staged\n", to: work + "/Sources/Module1/Deep/File5.swift")
        try git("add", "Sources/Module1/Deep/File5.swift", in: work)
        let objects = try git("count-objects", "-v", in: work)

        let repository = try Repository.open(work)
        try WorkTreeMove.perform(repository, to: target, branch: "main", logMessage: "test: move")
        #expect(IndexCacheTree(indexFile: try indexBytes(work)) == nil)
        #expect(try git("count-objects", "-v", in: work) == objects)
        #expect(try git("status", "--porcelain", in: work) == "M  Sources/Module1/Deep/File5.swift")
        #expect(try repository.status() == StatusSummary(staged: 1))
    }
}
