import Foundation
import GitKit
import Testing

/// The fast-path policy: where an attribute, a sparse checkout or a name needs git, git writes the work tree and
/// answers status; each result is compared with what git itself leaves.
@Suite struct FastPathsTests {
    /// A repository whose `.txt` files pass through a filter driver (rot13 by `tr`) configured in its own config.
    private func filteredRepository(_ sandbox: Sandbox, required: String? = nil) throws -> (work: String, first: OID, second: OID) {
        let work = sandbox.at("repo")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try git("init", "-q", in: work)
        // With a marker file, the smudge of c.txt fails: git stops with a.txt and b.txt already written.
        let smudge = required.map { "sh -c 'if [ \"$1\" = c.txt ] && [ -e \($0) ]; then exit 3; fi; tr A-Za-z N-ZA-Mn-za-m' -- %f" }
            ?? "tr A-Za-z N-ZA-Mn-za-m"
        try git("config", "filter.rot13.smudge", smudge, in: work)
        try git("config", "filter.rot13.clean", "tr A-Za-z N-ZA-Mn-za-m", in: work)
        try git("config", "filter.rot13.required", "true", in: work)
        try write("*.txt filter=rot13\n", to: work + "/.gitattributes")
        try write("Hello\n", to: work + "/a.txt")
        try write("plain\n", to: work + "/plain.md")
        try git("add", "-A", in: work)
        try git("commit", "-qm", "one", in: work)
        let first = try #require(OID(hex: try git("rev-parse", "HEAD", in: work)))
        for name in ["a", "b", "c", "d"] { try write("Second \(name)\n", to: work + "/\(name).txt") }
        try write("plain two\n", to: work + "/plain.md")
        try git("add", "-A", in: work)
        try git("commit", "-qm", "two", in: work)
        let second = try #require(OID(hex: try git("rev-parse", "HEAD", in: work)))
        try git("checkout", "-q", "--detach", first.hex, in: work)
        return (work, first, second)
    }

    /// What git's own checkout of `commit` leaves, in a clone of `work`: each file's bytes, and `git ls-files -s`.
    private func gitsResult(_ sandbox: Sandbox, of work: String, at commit: OID) throws -> (files: [String: Data], index: String) {
        let reference = sandbox.at("reference")
        try run("/usr/bin/git", ["clone", "-q", "--no-checkout", work, reference])
        for key in ["smudge", "clean", "required"] {
            try git("config", "filter.rot13.\(key)", try git("config", "filter.rot13.\(key)", in: work), in: reference)
        }
        try git("checkout", "-q", "--detach", commit.hex, in: reference)
        return (try files(in: reference), try git("ls-files", "-s", in: reference))
    }

    private func files(in directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != ".git" {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return result
    }

    @Test func aFilterDriverMakesGitWriteTheMoveWithGitsResult() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (work, first, second) = try filteredRepository(sandbox)
        let repository = try Repository.open(work)
        #expect(FastPaths.checkoutNeedsGit(repository, commit: second)?.contains("filter") == true)
        let report = try WorkTreeMove.perform(repository, to: second, branch: nil, logMessage: "test: move")
        #expect(report.byGit?.contains("filter") == true)
        let expected = try gitsResult(sandbox, of: work, at: second)
        #expect(try files(in: work) == expected.files)
        #expect(try read(work + "/b.txt") == "Second b\n")  // smudged: the blob holds rot13 text
        #expect(try git("cat-file", "-p", "HEAD:b.txt", in: work) == "Frpbaq o")
        #expect(try git("ls-files", "-s", in: work) == expected.index)
        #expect(try git("status", "--porcelain", in: work) == "")
        #expect(try repository.localChanges().isEmpty)
        #expect(try repository.status().isClean)
        _ = first
    }

    @Test func statusInAFilteredRepositoryIsGitsAnswer() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (work, _, second) = try filteredRepository(sandbox)
        try git("checkout", "-q", "--detach", second.hex, in: work)
        let repository = try Repository.open(work)
        // Touched files whose content is unchanged: libgit2 alone would hash them without the clean filter.
        for name in ["a", "b"] { try write("Second \(name)\n", to: work + "/\(name).txt") }
        #expect(try git("status", "--porcelain", in: work) == "")
        #expect(try repository.status(untracked: false).isClean)
        #expect(try repository.localChanges().isEmpty)
        try write("Changed\n", to: work + "/c.txt")
        #expect(try repository.localChanges().paths == ["c.txt"])
        #expect(try repository.status().modified == 1)
        #expect(try repository.changedTrackedPaths() == ["c.txt"])
    }

    /// A filter that fails halfway stops git with some files written: the journal stays, and the next call
    /// finishes the move with exactly git's result.
    @Test func aGitMoveInterruptedHalfwayIsFinishedWithGitsResult() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let marker = sandbox.at("fail-now")
        try write("", to: marker)
        let (work, first, second) = try filteredRepository(sandbox, required: marker)
        // Checked out before the marker made the filter fail.
        try FileManager.default.removeItem(atPath: marker)
        try git("checkout", "-q", "--detach", second.hex, in: work)
        try git("checkout", "-q", "--detach", first.hex, in: work)
        try write("", to: marker)
        let repository = try Repository.open(work)
        #expect(throws: (any Error).self) {
            try WorkTreeMove.perform(repository, to: second, branch: nil, logMessage: "test: move")
        }
        #expect(try WorkTreeMove.interruptedMove(in: repository) != nil)
        try FileManager.default.removeItem(atPath: marker)
        let recovered = try WorkTreeMove.recoverIfInterrupted(try Repository.open(work))
        #expect(recovered?.to == second)
        #expect(try WorkTreeMove.interruptedMove(in: repository) == nil)
        let expected = try gitsResult(sandbox, of: work, at: second)
        #expect(try files(in: work) == expected.files)
        #expect(try git("ls-files", "-s", in: work) == expected.index)
        #expect(try git("rev-parse", "HEAD", in: work) == second.hex)
        #expect(try git("status", "--porcelain", in: work) == "")
    }

    @Test func theOffSwitchSendsAPlainRepositoryToGit() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("plain")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try git("init", "-q", in: work)
        let first = try commitFile(work, "a.swift", "one\n", "one")
        let second = try commitFile(work, "a.swift", "two\n", "two")
        try git("checkout", "-q", "--detach", first.hex, in: work)
        var repository = try Repository.open(work)
        #expect(FastPaths.enabled(in: repository))
        #expect(!FastPaths.enabled(in: repository, environment: ["MODKIT_FAST_PATHS": "0"]))
        #expect(FastPaths.checkoutNeedsGit(repository, commit: second) == nil)
        #expect(try WorkTreeMove.perform(repository, to: second, branch: nil, logMessage: "test").byGit == nil)
        try git("config", "modkit.fastPaths", "false", in: work)
        repository = try Repository.open(work)
        #expect(!FastPaths.enabled(in: repository))
        let report = try WorkTreeMove.perform(repository, to: first, branch: nil, logMessage: "test")
        #expect(report.byGit?.contains("modkit.fastPaths") == true)
        #expect(try read(work + "/a.swift") == "one\n")
        #expect(try git("status", "--porcelain", in: work) == "")
    }

    @Test func aNameThatIsNotPlainASCIIIsWrittenByGit() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("names")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try git("init", "-q", in: work)
        let first = try commitFile(work, "Caf\u{E9}.swift", "composed\n", "one")
        try git("mv", "Caf\u{E9}.swift", "Cafe\u{301}.swift", in: work)
        try git("commit", "-qm", "decomposed", in: work)
        let second = try #require(OID(hex: try git("rev-parse", "HEAD", in: work)))
        try git("checkout", "-q", "--detach", first.hex, in: work)
        let repository = try Repository.open(work)
        let report = try WorkTreeMove.perform(repository, to: second, branch: nil, logMessage: "test")
        #expect(report.byGit?.contains("ASCII") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: work).filter { $0 != ".git" }.map { Array($0.utf8) }
        #expect(names == [Array("Cafe\u{301}.swift".utf8)])
        #expect(try git("status", "--porcelain", in: work) == "")
    }
}
