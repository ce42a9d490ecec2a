import Foundation
import GitKit
import Testing

@Suite struct CommitTests {
    @Test func commitFromTheIndexIncludingTheInitialCommit() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("repo")
        let repo = try Repository.create(at: work)

        try write("one\n", to: work + "/a.txt")
        try write("ignored\n", to: work + "/b.txt")
        try repo.add(["a.txt"])
        #expect(try repo.status() == StatusSummary(staged: 1, untracked: 1))
        let first = try repo.commit(message: "Initial commit\n\nWith a body.")
        #expect(try repo.head() == .branch(name: "main", commit: first))
        #expect(try git("ls-tree", "-r", "--name-only", "HEAD", in: work) == "a.txt")
        #expect(try git("log", "--format=%s|%b|%an|%ae", "-1", in: work) == "Initial commit|With a body.\n|GitKit Tester|tester@example.com")

        let info = try repo.commitInfo(first)
        #expect(info.oid == first)
        #expect(info.parents == [])
        #expect(info.summary == "Initial commit")
        #expect(info.message == "Initial commit\n\nWith a body.\n")
        #expect(info.authorName == "GitKit Tester")
        #expect(abs(info.date.timeIntervalSinceNow) < 120)

        // Directories, modifications and deletions.
        try write("two\n", to: work + "/a.txt")
        try write("x\n", to: work + "/dir/x.txt")
        try write("y\n", to: work + "/dir/sub/y.txt")
        try repo.add(["a.txt", "dir"])
        let author = Signature(name: "Ada", email: "ada@example.com", date: Date(timeIntervalSince1970: 1_600_000_000))
        let second = try repo.commit(message: "Second", author: author)
        #expect(try git("ls-tree", "-r", "--name-only", "HEAD", in: work) == "a.txt\ndir/sub/y.txt\ndir/x.txt")
        #expect(try git("show", "HEAD:a.txt", in: work) == "two")
        let secondInfo = try repo.commitInfo(second)
        #expect(secondInfo.parents == [first])
        #expect(secondInfo.authorName == "Ada")
        #expect(secondInfo.date == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(try git("log", "-1", "--format=%cn", in: work) == "GitKit Tester")

        try FileManager.default.removeItem(atPath: work + "/dir/x.txt")
        try repo.add(["dir"])
        try repo.commit(message: "Delete x")
        #expect(try git("ls-tree", "-r", "--name-only", "HEAD", in: work) == "a.txt\ndir/sub/y.txt")

        try FileManager.default.removeItem(atPath: work + "/a.txt")
        try write("c\n", to: work + "/c.txt")
        try repo.addAll()
        #expect(try repo.status() == StatusSummary(staged: 3))
        try repo.commit(message: "Everything")
        #expect(try git("ls-tree", "-r", "--name-only", "HEAD", in: work) == "b.txt\nc.txt\ndir/sub/y.txt")
        #expect(try repo.status() == StatusSummary())
    }

    @Test func defaultSignatureWithoutConfigNamesTheFix() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("repo")
        let repo = try Repository.create(at: work)
        // An empty local value hides the global one, as if nothing were configured.
        try git("config", "user.name", "", in: work)
        if ProcessInfo.processInfo.environment["GIT_AUTHOR_NAME"] == nil {
            let error = expectGitError(.notFound) { try repo.defaultSignature() }
            #expect(error?.message.contains("git config --global user.name") == true, "\(String(describing: error))")
        }
    }

    @Test func logBetweenTwoCommits() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.open(fixture.seed)

        let range = try repo.log(from: fixture.c3, excluding: [fixture.c1])
        #expect(range.map(\.oid) == [fixture.c3, fixture.c2])
        #expect(range.map(\.summary) == ["Remove notes", "Add notes"])
        #expect(range[0].parents == [fixture.c2])

        #expect(try repo.log(from: fixture.c3).map(\.oid) == [fixture.c3, fixture.c2, fixture.c1])
        #expect(try repo.log(from: fixture.c3, limit: 1).map(\.oid) == [fixture.c3])
        #expect(try repo.log(from: fixture.d1, excluding: [fixture.c3]).map(\.oid) == [fixture.d1])
        #expect(try repo.log(from: fixture.c1, excluding: [fixture.c3]) == [])
    }

    @Test func readFileAtARevision() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))

        #expect(try repo.readFile("notes.txt", at: "v1.0") == Data("note\n".utf8))
        #expect(try repo.readFile("notes.txt", at: "main") == nil)
        #expect(try repo.readFile("notes.txt", at: "HEAD") == nil)
        #expect(try repo.readFile("README.md", at: fixture.c1.hex) == Data("hello\n".utf8))
        #expect(try repo.readFile("dev.txt", at: "origin/develop") == Data("dev\n".utf8))
        #expect(try repo.readFile("no/such/file", at: "main") == nil)
        expectGitError(.notFound) { try repo.readFile("README.md", at: "no-such-revision") }
    }
}
