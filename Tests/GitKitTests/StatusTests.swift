import Foundation
import GitKit
import Testing

@Suite struct StatusTests {
    @Test func countsModifiedStagedAndUntracked() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let work = sandbox.at("clone")
        #expect(try repo.status() == StatusSummary())
        #expect(try repo.status().isClean)

        try write("untracked\n", to: work + "/loose.txt")
        try write("a\n", to: work + "/newdir/a.txt")
        try write("b\n", to: work + "/newdir/deeper/b.txt")
        try write("*.log\n", to: work + "/.git/info/exclude")
        try write("ignored\n", to: work + "/debug.log")
        var status = try repo.status()
        #expect(status == StatusSummary(untracked: 3))
        #expect(status.isClean, "untracked files do not make a repository dirty")

        try write("changed\n", to: work + "/README.md")
        try write("staged\n", to: work + "/staged.txt")
        try git("add", "staged.txt", in: work)
        status = try repo.status()
        #expect(status == StatusSummary(staged: 1, modified: 1, untracked: 3))
        #expect(!status.isClean)

        try git("add", "README.md", in: work)
        try write("changed again\n", to: work + "/README.md")
        #expect(try repo.status() == StatusSummary(staged: 2, modified: 1, untracked: 3))
    }

    @Test func countsConflictsFromARealMerge() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        try git("checkout", "-q", "-b", "theirs", in: work)
        try commitFile(work, "README.md", "theirs\n", "Theirs")
        try git("checkout", "-q", "main", in: work)
        try commitFile(work, "README.md", "ours\n", "Ours")
        #expect(throws: CommandFailed.self) { try git("merge", "theirs", in: work) }
        #expect(try git("status", "--porcelain", in: work) == "UU README.md")

        let status = try repo.status()
        #expect(status == StatusSummary(conflicted: 1))
        #expect(!status.isClean)
        expectGitError(.unmerged) { try repo.commit(message: "cannot commit a conflict") }
    }

    @Test func statusOfABareRepositoryThrows() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let repo = try Repository.create(at: sandbox.at("bare.git"), bare: true)
        expectGitError(.bareRepository) { try repo.status() }
    }
}
