import Foundation
@testable import GitKit
import Testing

@Suite struct ReferenceTests {
    @Test func upstreamAndAheadBehind() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        try fixture.pushNewCommit(in: sandbox, file: "r1.txt", content: "1\n", message: "Remote 1")
        let remoteTip = try fixture.pushNewCommit(in: sandbox, file: "r2.txt", content: "2\n", message: "Remote 2")
        let localTip = try commitFile(work, "local.txt", "local\n", "Local 1")
        try repo.fetch(remote: "origin")

        #expect(try repo.upstream(ofBranch: "main") == "origin/main")
        let upstreamTip = try #require(try repo.remoteBranchTarget(remote: "origin", branch: "main"))
        #expect(upstreamTip == remoteTip)
        let counts = try repo.aheadBehind(local: localTip, upstream: upstreamTip)
        #expect(counts.ahead == 1)
        #expect(counts.behind == 2)
        #expect(try repo.mergeBase(localTip, upstreamTip) == fixture.c3)
        #expect(try repo.isDescendant(upstreamTip, of: fixture.c3))
        #expect(try !repo.isDescendant(upstreamTip, of: localTip))
        #expect(try !repo.isDescendant(fixture.c3, of: fixture.c3))

        try repo.createBranch("feature", at: fixture.c2)
        #expect(try repo.upstream(ofBranch: "feature") == nil)
        try repo.setUpstream(branch: "feature", to: "origin/develop")
        #expect(try repo.upstream(ofBranch: "feature") == "origin/develop")
        #expect(try git("config", "branch.feature.merge", in: work) == "refs/heads/develop")
        #expect(try git("rev-parse", "--abbrev-ref", "feature@{upstream}", in: work) == "origin/develop")
        try repo.setUpstream(branch: "feature", to: nil)
        #expect(try repo.upstream(ofBranch: "feature") == nil)
        try repo.setUpstream(branch: "feature", to: nil)  // unsetting twice is fine
        expectGitError(.notFound) { try repo.setUpstream(branch: "no-such-branch", to: "origin/main") }
    }

    /// `upstream(ofBranch:)` reads the config itself where it can; each way a branch can track must give git's answer.
    @Test func upstreamIsGitsAnswerForEveryWayOfTracking() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        // A second remote with a refspec that renames, and two fetch refspecs on it.
        _ = try git("remote", "add", "mirror", fixture.fileURL, in: work)
        _ = try git("config", "--replace-all", "remote.mirror.fetch", "+refs/heads/*:refs/remotes/copy/*", in: work)
        _ = try git("config", "--add", "remote.mirror.fetch", "+refs/tags/*:refs/remotes/copy-tags/*", in: work)
        _ = try git("fetch", "-q", "mirror", in: work)
        #expect(try repo.configuredFetchRefspecs("mirror") == ["+refs/heads/*:refs/remotes/copy/*", "+refs/tags/*:refs/remotes/copy-tags/*"])
        #expect(try repo.configuredFetchRefspecs("none") == [])
        let setups: [(branch: String, remote: String, merge: String)] = [
            ("standard", "origin", "refs/heads/main"),
            ("renamed", "mirror", "refs/heads/main"),
            ("local", ".", "refs/heads/main"),
        ]
        for setup in setups {
            try repo.createBranch(setup.branch, at: fixture.c2)
            _ = try git("config", "branch.\(setup.branch).remote", setup.remote, in: work)
            _ = try git("config", "branch.\(setup.branch).merge", setup.merge, in: work)
            let gitSays = try git("rev-parse", "--abbrev-ref", "\(setup.branch)@{upstream}", in: work)
            #expect(try repo.upstream(ofBranch: setup.branch) == gitSays, "\(setup)")
        }
        // A remote but no merge: no upstream, for git as for GitKit.
        try repo.createBranch("half", at: fixture.c2)
        _ = try git("config", "branch.half.remote", "origin", in: work)
        #expect(try repo.upstream(ofBranch: "half") == nil)
    }

    @Test func unrelatedHistoriesHaveNoMergeBase() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("repo")
        let repo = try Repository.create(at: work)
        let a = try commitFile(work, "a.txt", "a\n", "A")
        try git("checkout", "-q", "--orphan", "other", in: work)
        let b = try commitFile(work, "b.txt", "b\n", "B")
        #expect(try repo.mergeBase(a, b) == nil)
        #expect(try repo.head() == .branch(name: "other", commit: b))
    }

    @Test func branchesAndResolvingRevisions() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))

        #expect(try repo.localBranches() == ["main"])
        try repo.createBranch("topic", at: fixture.c1)
        try repo.createBranch("a-first", at: fixture.c2)
        #expect(try repo.localBranches() == ["a-first", "main", "topic"])
        #expect(try repo.branchTarget("topic") == fixture.c1)
        #expect(try repo.branchTarget("nope") == nil)
        expectGitError(.exists) { try repo.createBranch("topic", at: fixture.c2) }
        try repo.createBranch("topic", at: fixture.c2, force: true)
        #expect(try repo.branchTarget("topic") == fixture.c2)

        #expect(try repo.resolveCommit("main") == fixture.c3)
        #expect(try repo.resolveCommit("HEAD~1") == fixture.c2)
        #expect(try repo.resolveCommit("v1.0") == fixture.c2)
        #expect(try repo.resolveCommit("origin/develop") == fixture.d1)
        #expect(try repo.resolveCommit(fixture.c1.short) == fixture.c1)
        #expect(try repo.resolveCommit(fixture.c1.hex) == fixture.c1)
        let missing = expectGitError(.notFound) { try repo.resolveCommit("no-such-thing") }
        #expect(missing?.function == "git_revparse_single")
        expectGitError(.notFound) { try repo.resolveCommit(String(repeating: "0", count: 40)) }

        #expect(repo.hasCommit(fixture.d1))
        #expect(!repo.hasCommit(try #require(OID(hex: String(repeating: "ab", count: 20)))))
        #expect(try repo.remoteDefaultBranch(remote: "origin") == "main")
        #expect(try repo.remoteDefaultBranch(remote: "nope") == nil)
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "nope") == nil)
    }

    @Test func rawReferences() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        let tagObject = try #require(OID(hex: try git("rev-parse", "v1.0", in: work)))

        #expect(try repo.reference("refs/heads/main") == fixture.c3)
        #expect(try repo.reference("HEAD") == fixture.c3)
        #expect(try repo.reference("refs/tags/v1.0") == tagObject, "tags are not peeled")
        #expect(try repo.reference("refs/heads/missing") == nil)

        try repo.setReference("refs/modkit/snapshots/one", to: fixture.c1, force: false, logMessage: "snapshot one")
        try repo.setReference("refs/modkit/snapshots/two", to: fixture.c2, force: false, logMessage: "snapshot two")
        #expect(try git("rev-parse", "refs/modkit/snapshots/one", in: work) == fixture.c1.hex)
        expectGitError(.exists) {
            try repo.setReference("refs/modkit/snapshots/one", to: fixture.c3, force: false, logMessage: "x")
        }
        try repo.setReference("refs/modkit/snapshots/one", to: fixture.c3, force: true, logMessage: "moved")
        let snapshots = try repo.references(withPrefix: "refs/modkit/")
        #expect(snapshots.map(\.name) == ["refs/modkit/snapshots/one", "refs/modkit/snapshots/two"])
        #expect(snapshots.map(\.target) == [fixture.c3, fixture.c2])

        let remotes = try repo.references(withPrefix: "refs/remotes/origin/")
        #expect(remotes.map(\.name) == ["refs/remotes/origin/HEAD", "refs/remotes/origin/develop", "refs/remotes/origin/main"])
        #expect(remotes.map(\.target) == [fixture.c3, fixture.d1, fixture.c3])
        #expect(try repo.references(withPrefix: "refs/tags/").map(\.target) == [tagObject])

        try repo.deleteReference("refs/modkit/snapshots/one")
        #expect(try repo.reference("refs/modkit/snapshots/one") == nil)
        #expect(try repo.references(withPrefix: "refs/modkit/").count == 1)
        expectGitError(.notFound) { try repo.deleteReference("refs/modkit/snapshots/one") }
        expectGitError(.invalidSpec) {
            try repo.setReference("refs/bad..name", to: fixture.c1, force: false, logMessage: "x")
        }
    }
}
