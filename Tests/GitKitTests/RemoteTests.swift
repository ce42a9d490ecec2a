import Foundation
import GitKit
import Testing

@Suite struct RemoteTests {
    @Test func fetchBringsNewCommitsAndPrunes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))

        let newMain = try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New on main")
        let newDevelop = try fixture.pushNewCommit(in: sandbox, branch: "develop", file: "d2.txt", content: "d2\n",
                                                   message: "More develop")
        #expect(!repo.hasCommit(newMain))

        let recorder = ProgressRecorder()
        try repo.fetch(remote: "origin", options: FetchOptions(progress: { recorder.record($0) }))
        #expect(recorder.calls > 0)
        #expect(repo.hasCommit(newMain))
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == newMain)
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "develop") == newDevelop)
        #expect(try repo.branchTarget("main") == fixture.c3, "fetch must not move local branches")
        #expect(try repo.resolveCommit("origin/main") == newMain)

        try git("branch", "-D", "develop", in: fixture.bare)
        try repo.fetch(remote: "origin")
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "develop") == newDevelop, "no prune by default")
        try repo.fetch(remote: "origin", options: FetchOptions(prune: true))
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "develop") == nil)
    }

    @Test func fetchWithExplicitRefspecAndTags() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.create(at: sandbox.at("repo"))
        try repo.addRemote("origin", url: fixture.fileURL)

        try repo.fetch(remote: "origin", refspecs: ["+refs/heads/develop:refs/remotes/origin/develop"],
                       options: FetchOptions(downloadTags: .none))
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "develop") == fixture.d1)
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == nil)
        #expect(try repo.tagNames() == [])

        try repo.fetch(remote: "origin", options: FetchOptions(downloadTags: .all))
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == fixture.c3)
        #expect(try repo.tagNames() == ["v1.0"])
        #expect(try repo.tag("v1.0")?.commit == fixture.c2)
    }

    @Test func fetchCancelledThroughProgressIsUser() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let newer = try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        let error = expectGitError(.user) {
            try repo.fetch(remote: "origin", options: FetchOptions(progress: { _ in false }))
        }
        #expect(error?.function == "git_remote_fetch")
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == fixture.c3)
        try repo.fetch(remote: "origin")
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == newer)
    }

    @Test func fetchFromAMissingRemoteNameIsNotFound() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let repo = try Repository.create(at: sandbox.at("repo"))
        expectGitError(.notFound) { try repo.fetch(remote: "nope") }
    }

    @Test func remoteConfiguration() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.bare, to: sandbox.at("clone"))
        #expect(try repo.remoteNames() == ["origin"])
        try repo.addRemote("upstream", url: "https://example.invalid/upstream.git")
        #expect(try repo.remoteNames() == ["origin", "upstream"])
        #expect(try repo.remoteURL("upstream") == "https://example.invalid/upstream.git")
        #expect(try git("config", "remote.upstream.fetch", in: sandbox.at("clone")) == "+refs/heads/*:refs/remotes/upstream/*")
        expectGitError(.exists) { try repo.addRemote("upstream", url: "https://example.invalid/other.git") }

        try repo.setRemoteURL("origin", url: fixture.fileURL)
        #expect(try repo.remoteURL("origin") == fixture.fileURL)
        #expect(try git("remote", "get-url", "origin", in: sandbox.at("clone")) == fixture.fileURL)
        #expect(try repo.remoteURL("missing") == nil)
        expectGitError(.notFound) { try repo.setRemoteURL("missing", url: "x") }
    }

    /// remoteURL is read once per remote (each libgit2 1.5 lookup leaks memory), and read again after GitKit writes
    /// the config: a new url, a new remote, an insteadOf rule; the answer is always git's own.
    @Test func remoteURLIsReadAgainAfterEveryConfigWrite() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let clone = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.bare, to: clone)
        #expect(try repo.remoteURL("origin") == fixture.bare)
        #expect(try repo.remoteURL("mirror") == nil)
        try repo.addRemote("mirror", url: "https://example.invalid/mirror.git")
        #expect(try repo.remoteURL("mirror") == "https://example.invalid/mirror.git")
        try repo.setRemoteURL("origin", url: fixture.fileURL)
        #expect(try repo.remoteURL("origin") == fixture.fileURL)
        try repo.setConfigString("url.https://rewritten.invalid/.insteadOf", "https://example.invalid/")
        #expect(try repo.remoteURL("mirror") == "https://rewritten.invalid/mirror.git")
        #expect(try repo.remoteURL("mirror") == git("remote", "get-url", "mirror", in: clone))
        #expect(try repo.remoteURL("origin") == git("remote", "get-url", "origin", in: clone))
    }

    /// The url read from the config is git's `remote get-url` for every insteadOf arrangement: the longest prefix wins,
    /// a base holding dots and colons, a rule that matches nothing, a remote without a url.
    @Test func remoteURLAppliesInsteadOfAsGitDoes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let clone = sandbox.at("clone")
        _ = try Repository.clone(url: fixture.bare, to: clone)
        let remotes = [
            "short": "https://example.invalid/ios/Net.git",
            "long": "https://example.invalid/ios/private/Core.git",
            "scp": "gh:acme/Payments.git",
            "plain": "https://other.invalid/UI.git",
            "unicode": "https://example.invalid/ios/Zürich.git",
        ]
        for (name, url) in remotes { _ = try git("remote", "add", name, url, in: clone) }
        _ = try git("config", "url.https://mirror.invalid/all/.insteadOf", "https://example.invalid/", in: clone)
        _ = try git("config", "url.ssh://git@private.invalid:2222/ios/.insteadOf", "https://example.invalid/ios/private/", in: clone)
        _ = try git("config", "url.git@github.com:.insteadOf", "gh:", in: clone)
        _ = try git("config", "url.https://never.invalid/.insteadOf", "https://nothing-starts-so/", in: clone)
        _ = try git("config", "remote.pushonly.pushurl", "https://example.invalid/push.git", in: clone)
        let repo = try Repository.open(clone)
        for name in remotes.keys.sorted() {
            #expect(try repo.remoteURL(name) == git("remote", "get-url", name, in: clone), "\(name)")
        }
        #expect(try repo.remoteURL("long") == "ssh://git@private.invalid:2222/ios/Core.git")
        #expect(try repo.remoteURL("pushonly") == nil)
        #expect(try repo.remoteURL("missing") == nil)
    }

    @Test func pushBranchAndTagToABareRemote() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let local = try commitFile(sandbox.at("clone"), "pushed.txt", "pushed\n", "To be pushed")
        try repo.createBranch("feature", at: local)
        let tagOID = try repo.createAnnotatedTag("v2.0", at: local, message: "Version 2.0")

        var progressCalls = 0
        let results = try repo.push(remote: "origin",
                                    refspecs: ["refs/heads/main:refs/heads/main", "refs/heads/feature:refs/heads/feature",
                                               "refs/tags/v2.0:refs/tags/v2.0"],
                                    options: PushOptions(progress: { _, _, _ in progressCalls += 1; return true }))
        #expect(results.sorted { $0.ref < $1.ref } == [
            PushResult(ref: "refs/heads/feature", error: nil),
            PushResult(ref: "refs/heads/main", error: nil),
            PushResult(ref: "refs/tags/v2.0", error: nil),
        ])
        #expect(progressCalls > 0)
        #expect(try fixture.remoteRevParse("main") == local.hex)
        #expect(try fixture.remoteRevParse("feature") == local.hex)
        #expect(try fixture.remoteRevParse("refs/tags/v2.0") == tagOID.hex)
        #expect(try fixture.remoteRevParse("v2.0^{commit}") == local.hex)
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == local, "push updates the tracking ref")
    }

    /// A non-fast-forward push is refused by libgit2 before anything is sent, so it is thrown, not returned.
    @Test func nonFastForwardPushThrows() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let theirs = try fixture.pushNewCommit(in: sandbox, file: "theirs.txt", content: "theirs\n", message: "Theirs")
        try commitFile(sandbox.at("clone"), "mine.txt", "mine\n", "Mine")

        // Without fetching: the remote tip is unknown locally.
        let unknown = expectGitError(.nonFastForward) {
            try repo.push(remote: "origin", refspecs: ["refs/heads/main:refs/heads/main"])
        }
        #expect(unknown?.function == "git_remote_push")
        // After fetching: the histories have diverged.
        try repo.fetch(remote: "origin")
        expectGitError(.nonFastForward) {
            try repo.push(remote: "origin", refspecs: ["refs/heads/main:refs/heads/main"])
        }
        #expect(try fixture.remoteRevParse("main") == theirs.hex)
    }

    /// A rejection by the remote side (here: its ref is locked) comes back as a PushResult with an error.
    @Test func remoteRejectionIsReturnedPerReference() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        let local = try commitFile(sandbox.at("clone"), "mine.txt", "mine\n", "Mine")
        try repo.createBranch("other", at: local)
        try write("locked by a test\n", to: fixture.bare + "/refs/heads/main.lock")

        let results = try repo.push(remote: "origin",
                                    refspecs: ["refs/heads/main:refs/heads/main", "refs/heads/other:refs/heads/other"])
        let main = try #require(results.first { $0.ref == "refs/heads/main" })
        let other = try #require(results.first { $0.ref == "refs/heads/other" })
        #expect(main.error?.isEmpty == false, "\(results)")
        #expect(other.error == nil)
        #expect(try fixture.remoteRevParse("main") == fixture.c3.hex)
        #expect(try fixture.remoteRevParse("other") == local.hex)
    }
}
