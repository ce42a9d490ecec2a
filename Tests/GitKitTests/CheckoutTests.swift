import Foundation
import GitKit
import Testing

@Suite struct CheckoutTests {
    @Test func checkoutBranchAndDetached() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let work = sandbox.at("clone")

        try repo.createBranch("develop", at: fixture.d1)
        try repo.checkoutBranch("develop")
        #expect(try repo.head() == .branch(name: "develop", commit: fixture.d1))
        #expect(try read(work + "/dev.txt") == "dev\n")
        #expect(try read(work + "/notes.txt") == "note\n")
        #expect(try git("symbolic-ref", "HEAD", in: work) == "refs/heads/develop")
        #expect(try repo.status() == StatusSummary())

        try repo.checkoutDetached(fixture.c1)
        #expect(try repo.head() == .detached(fixture.c1))
        #expect(try read(work + "/README.md") == "hello\n")
        #expect(!exists(work + "/dev.txt"))
        #expect(!exists(work + "/notes.txt"))
        #expect(try repo.status() == StatusSummary())

        try repo.checkoutBranch("main")
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))
        #expect(try read(work + "/README.md") == "hello\nworld\n")
        expectGitError(.notFound) { try repo.checkoutBranch("no-such-branch") }
    }

    @Test func fastForwardTheCheckedOutBranchUpdatesTheWorkTree() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let work = sandbox.at("clone")
        try repo.createBranch("ff", at: fixture.c1)
        try repo.checkoutBranch("ff")
        #expect(try read(work + "/README.md") == "hello\n")

        try repo.fastForward(branch: "ff", to: fixture.c3)
        #expect(try repo.head() == .branch(name: "ff", commit: fixture.c3))
        #expect(try read(work + "/README.md") == "hello\nworld\n")
        #expect(!exists(work + "/notes.txt"))
        #expect(try repo.status() == StatusSummary())
        #expect(try git("reflog", "-1", "--format=%gs", "ff", in: work).hasPrefix("fast-forward"))

        expectGitError(.nonFastForward) { try repo.fastForward(branch: "ff", to: fixture.c1) }
        expectGitError(.nonFastForward) { try repo.fastForward(branch: "ff", to: fixture.d1) }
        #expect(try repo.branchTarget("ff") == fixture.c3)
    }

    @Test func fastForwardAnotherBranchLeavesTheWorkTreeAlone() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        try repo.createBranch("old", at: fixture.c1)
        try write("local edit\n", to: sandbox.at("clone/README.md"))

        try repo.fastForward(branch: "old", to: fixture.c2)
        #expect(try repo.branchTarget("old") == fixture.c2)
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))
        #expect(try read(sandbox.at("clone/README.md")) == "local edit\n")
    }

    @Test func safeCheckoutRefusesToOverwriteAModifiedFile() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let readme = sandbox.at("clone/README.md")
        let edited = Data("my precious edit\r\n\u{0}binary-ish\n".utf8)
        try edited.write(to: URL(fileURLWithPath: readme))

        let error = expectGitError(.conflict) { try repo.checkoutDetached(fixture.c1) }
        #expect(error?.errorClass == "checkout")
        #expect(try Data(contentsOf: URL(fileURLWithPath: readme)) == edited)
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))

        try repo.createBranch("behind", at: fixture.c1)
        expectGitError(.conflict) { try repo.checkoutBranch("behind") }
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))

        let c4 = try fixture.pushNewCommit(in: sandbox, file: "README.md", content: "upstream edit\n", message: "Edit")
        try repo.fetch(remote: "origin")
        expectGitError(.conflict) { try repo.fastForward(branch: "main", to: c4) }
        #expect(try repo.branchTarget("main") == fixture.c3, "the branch must not move when checkout fails")
        #expect(try Data(contentsOf: URL(fileURLWithPath: readme)) == edited)
        #expect(try repo.status().modified == 1)
    }

    @Test func safeCheckoutKeepsUnrelatedLocalChanges() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let c4 = try fixture.pushNewCommit(in: sandbox, file: "other.txt", content: "other\n", message: "Other")
        try repo.fetch(remote: "origin")
        try write("my edit\n", to: sandbox.at("clone/README.md"))

        try repo.fastForward(branch: "main", to: c4)
        #expect(try repo.head() == .branch(name: "main", commit: c4))
        #expect(try read(sandbox.at("clone/other.txt")) == "other\n")
        #expect(try read(sandbox.at("clone/README.md")) == "my edit\n")
        #expect(try repo.status() == StatusSummary(modified: 1))
    }
}
