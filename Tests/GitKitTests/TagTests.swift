import Foundation
import GitKit
import Testing

@Suite struct TagTests {
    @Test func annotatedTagsCreateListLookUpAndDelete() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)

        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let tagOID = try repo.createAnnotatedTag("v2.0", at: fixture.c3, message: "Release 2.0",
                                                 tagger: Signature(name: "Rel Eng", email: "rel@example.com", date: date))
        #expect(try git("rev-parse", "v2.0", in: work) == tagOID.hex)
        #expect(try git("rev-parse", "v2.0^{commit}", in: work) == fixture.c3.hex)
        #expect(try git("cat-file", "-p", "v2.0", in: work).contains("tagger Rel Eng <rel@example.com> 1700000000"))

        let defaultTagger = try repo.createAnnotatedTag("v2.1", at: fixture.c3, message: "Release 2.1")
        #expect(try git("cat-file", "-p", defaultTagger.hex, in: work).contains("tagger GitKit Tester <tester@example.com>"))

        try git("tag", "light", fixture.c1.hex, in: work)
        #expect(try repo.tagNames() == ["light", "v1.0", "v2.0", "v2.1"])
        #expect(try repo.tagNames(matching: "v2*") == ["v2.0", "v2.1"])

        let info = try #require(try repo.tag("v2.0"))
        #expect(info.name == "v2.0")
        #expect(info.commit == fixture.c3)
        #expect(info.tagObject == tagOID)
        #expect(info.message == "Release 2.0\n")

        let light = try #require(try repo.tag("light"))
        #expect(light.commit == fixture.c1)
        #expect(light.tagObject == nil)
        #expect(light.message == nil)
        #expect(try repo.tag("v1.0")?.commit == fixture.c2)
        #expect(try repo.tag("missing") == nil)

        let duplicate = expectGitError(.exists) { try repo.createAnnotatedTag("v2.0", at: fixture.c1, message: "again") }
        #expect(duplicate?.function == "git_tag_create")
        #expect(try repo.tag("v2.0")?.commit == fixture.c3)
        let forced = try repo.createAnnotatedTag("v2.0", at: fixture.c1, message: "moved", force: true)
        #expect(try repo.tag("v2.0") == TagInfo(name: "v2.0", commit: fixture.c1, tagObject: forced, message: "moved\n"))

        try repo.deleteTag("v2.0")
        #expect(try repo.tag("v2.0") == nil)
        #expect(try repo.tagNames() == ["light", "v1.0", "v2.1"])
        #expect(throws: CommandFailed.self) { try git("rev-parse", "--verify", "-q", "refs/tags/v2.0", in: work) }
        expectGitError(.notFound) { try repo.deleteTag("v2.0") }
    }
}
