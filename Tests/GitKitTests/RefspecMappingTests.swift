import Foundation
@testable import GitKit
import Testing

/// The refspecs the in-process "nothing to fetch" check understands, and those it leaves to the transfer.
struct RefspecMappingTests {
    @Test func globRefspecsMapEveryNameUnderTheSource() throws {
        let heads = try #require(RefspecMapping("+refs/heads/*:refs/remotes/origin/*"))
        #expect(heads.destination(for: "refs/heads/main") == "refs/remotes/origin/main")
        #expect(heads.destination(for: "refs/heads/feature/x") == "refs/remotes/origin/feature/x")
        #expect(heads.destination(for: "refs/tags/v1") == nil)
        #expect(heads.destination(for: "refs/heads/") == nil)
        #expect(heads.destinationGlob == "refs/remotes/origin/*")
        let tags = try #require(RefspecMapping("+refs/tags/*:refs/modkit/remote-tags/origin/*"))
        #expect(tags.destination(for: "refs/tags/v1.0") == "refs/modkit/remote-tags/origin/v1.0")
    }

    @Test func exactRefspecsMapOneName() throws {
        let one = try #require(RefspecMapping("refs/heads/main:refs/remotes/origin/main"))
        #expect(one.destination(for: "refs/heads/main") == "refs/remotes/origin/main")
        #expect(one.destination(for: "refs/heads/mainline") == nil)
        #expect(one.destinationGlob == "refs/remotes/origin/main")
    }

    @Test func otherFormsAreLeftToTheTransfer() {
        for refspec in ["^refs/heads/wip/*", "refs/heads/*", "refs/heads/*:refs/remotes/origin/x", "main:refs/remotes/origin/main",
                        "refs/heads/a*b:refs/remotes/origin/a*b", "refs/heads/*/*:refs/remotes/origin/*/*", "", ":refs/x"] {
            #expect(RefspecMapping(refspec) == nil, "\(refspec)")
        }
    }

    @Test func onlyPathsAndFileURLsAreLocal() {
        #expect(GitKit.localPath(of: "file:///srv/git/Core.git") == "/srv/git/Core.git")
        #expect(GitKit.localPath(of: "/srv/git/Core.git") == "/srv/git/Core.git")
        for url in ["git://127.0.0.1/Core.git", "https://example.com/Core.git", "ssh://git@host/Core.git", "git@host:org/Core.git"] {
            #expect(GitKit.localPath(of: url) == nil, "\(url)")
        }
    }
}

/// The move journal's start time, formatted without a date formatter.
struct MoveTimestampTests {
    @Test func timestampsAreUTCInISO8601() {
        #expect(WorkTreeMove.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(WorkTreeMove.timestamp(Date(timeIntervalSince1970: 1_796_367_789.9)) == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_796_367_789)))
    }
}
