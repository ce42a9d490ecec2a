import Foundation
import GitKit
import Testing

@Suite struct RepositoryTests {
    @Test func openWorkTreeAndGitDir() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)

        let repo = try Repository.open(fixture.seed)
        #expect(repo.workdir == fixture.seed)
        #expect(repo.gitDir == fixture.seed + "/.git")
        #expect(!repo.isBare)
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))

        let viaGitDir = try Repository.open(fixture.seed + "/.git")
        #expect(viaGitDir.workdir == fixture.seed)

        let bare = try Repository.open(fixture.bare)
        #expect(bare.isBare)
        #expect(bare.workdir == nil)
        #expect(bare.gitDir == fixture.bare)
    }

    @Test func openDoesNotSearchUpwards() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        try FileManager.default.createDirectory(atPath: fixture.seed + "/sub/dir", withIntermediateDirectories: true)
        expectGitError(.notFound) { try Repository.open(fixture.seed + "/sub/dir") }
    }

    @Test func openingANonRepositoryIsNotFoundWithAMessage() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let error = expectGitError(.notFound) { try Repository.open(sandbox.path) }
        #expect(error?.function == "git_repository_open_ext")
        #expect(error?.message.contains(sandbox.path) == true, "message: \(error?.message ?? "-")")
        #expect(error?.errorClass == "repository")
    }

    @Test func discoverWalksUpAndReturnsNilOutside() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let deep = fixture.seed + "/a/b/c"
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let found = try #require(try Repository.discover(from: deep))
        #expect(found.workdir == fixture.seed)

        let outside = sandbox.at("plain")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        #expect(try Repository.discover(from: outside) == nil)
    }

    @Test func createWorkTreeBareAndInitialBranch() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }

        let repo = try Repository.create(at: sandbox.at("new/deep/repo"))
        #expect(repo.workdir == sandbox.at("new/deep/repo"))
        #expect(exists(sandbox.at("new/deep/repo/.git/HEAD")))
        #expect(try repo.head() == .unborn(branch: "main"))  // init.defaultBranch from the test gitconfig

        let bare = try Repository.create(at: sandbox.at("bare.git"), bare: true)
        #expect(bare.isBare)
        #expect(exists(sandbox.at("bare.git/HEAD")))

        let trunk = try Repository.create(at: sandbox.at("trunk"), initialBranch: "trunk")
        #expect(try trunk.head() == .unborn(branch: "trunk"))
        #expect(try git("symbolic-ref", "HEAD", in: sandbox.at("trunk")) == "refs/heads/trunk")

        expectGitError(.exists) { try Repository.create(at: sandbox.at("trunk")) }
    }

    @Test func isRepositoryRecognisesWorkTreesGitDirsAndGitfiles() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        #expect(Repository.isRepository(fixture.seed))
        #expect(Repository.isRepository(fixture.seed + "/.git"))
        #expect(Repository.isRepository(fixture.bare))

        try run("/usr/bin/git", ["init", "-q", "--separate-git-dir", sandbox.at("separate.git"), sandbox.at("gitfile")])
        #expect(try read(sandbox.at("gitfile/.git")).hasPrefix("gitdir:"))
        #expect(Repository.isRepository(sandbox.at("gitfile")))

        try FileManager.default.createDirectory(atPath: sandbox.at("plain"), withIntermediateDirectories: true)
        #expect(!Repository.isRepository(sandbox.at("plain")))
        #expect(!Repository.isRepository(fixture.seed + "/README.md"))
        #expect(!Repository.isRepository(sandbox.at("missing")))
    }

    @Test func headInAllThreeStates() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let repo = try Repository.create(at: sandbox.at("repo"))
        #expect(try repo.head() == .unborn(branch: "main"))

        let first = try commitFile(sandbox.at("repo"), "a.txt", "a\n", "first")
        #expect(try repo.head() == .branch(name: "main", commit: first))

        let second = try commitFile(sandbox.at("repo"), "a.txt", "b\n", "second")
        try git("checkout", "-q", "--detach", first.hex, in: sandbox.at("repo"))
        #expect(try repo.head() == .detached(first))
        #expect(try repo.head() != .detached(second))
    }

    @Test func configStringAndDefaultSignatureComeFromTheTestConfig() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let repo = try Repository.create(at: sandbox.at("repo"))
        #expect(try repo.configString("user.email") == "tester@example.com")
        #expect(try repo.configString("no.such.key") == nil)
        let signature = try repo.defaultSignature()
        #expect(signature.name == "GitKit Tester")
        #expect(signature.email == "tester@example.com")

        try git("config", "user.name", "Local Name", in: sandbox.at("repo"))
        #expect(try repo.defaultSignature().name == "Local Name")
        #expect(try repo.configString("user.name") == "Local Name")
    }

    @Test func libgit2VersionIsReported() {
        #expect(GitKit.libgit2Version.hasPrefix("1."))
        #expect(GitKit.libgit2Version.split(separator: ".").count == 3)
    }
}

@Suite struct OIDTests {
    @Test func parsesAndPrintsHex() throws {
        let hex = "0123456789abcdef0123456789abcdef01234567"
        let oid = try #require(OID(hex: hex))
        #expect(oid.hex == hex)
        #expect(oid.description == hex)
        #expect(oid.short == "0123456")
        #expect(OID(hex: hex.uppercased()) == oid)
        #expect(OID(hex: String(hex.dropLast())) == nil)
        #expect(OID(hex: hex + "0") == nil)
        #expect(OID(hex: "g123456789abcdef0123456789abcdef01234567") == nil)
    }

    @Test func ordersLikeItsHex() throws {
        let hexes = ["ff00000000000000000000000000000000000000", "0000000000000000000000000000000000000001",
                     "00000000000000000000000000000000000000ff", "0000000000000000100000000000000000000000"]
        let oids = hexes.compactMap(OID.init(hex:))
        #expect(oids.sorted().map(\.hex) == hexes.sorted())
        #expect(Set(oids + oids).count == 4)
    }
}

/// `trackedPaths` answers what `git ls-files` answers: staged and committed files, each once (a conflict too), never an untracked one.
@Suite struct TrackedPathsTests {
    @Test func trackedPathsAreGitLsFiles() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let repo = sandbox.at("repo")
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        _ = try git("init", "-q", "-b", "main", in: repo)
        for file in ["Podfile", "ios/App/Podfile", "ios/Pods/Local/Podfile", "a b/é.txt", "conflict.txt"] { try write("base\n", to: repo + "/" + file) }
        _ = try git("add", "-A", in: repo)
        _ = try git("commit", "-qm", "base", in: repo)
        // A conflicted path has three stage entries in the index.
        _ = try git("checkout", "-qb", "other", in: repo)
        try write("other\n", to: repo + "/conflict.txt")
        _ = try git("commit", "-qam", "other", in: repo)
        _ = try git("checkout", "-q", "main", in: repo)
        try write("main\n", to: repo + "/conflict.txt")
        _ = try git("commit", "-qam", "main", in: repo)
        _ = try? git("merge", "-q", "other", in: repo)
        try write("staged\n", to: repo + "/staged/Podfile")
        _ = try git("add", "staged/Podfile", in: repo)
        try write("untracked\n", to: repo + "/untracked/Podfile")

        let expected = try run("/usr/bin/env", ["git", "-c", "core.quotePath=false", "ls-files"], in: repo)
            .split(separator: "\n").map(String.init).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        let tracked = try Repository.open(repo).trackedPaths { _ in true }
        #expect(tracked == expected)
        #expect(tracked.contains("staged/Podfile") && !tracked.contains("untracked/Podfile") && tracked.filter { $0 == "conflict.txt" }.count == 1)
        #expect(try Repository.open(repo).trackedPaths { $0.hasSuffix("Podfile") } == ["Podfile", "ios/App/Podfile", "ios/Pods/Local/Podfile", "staged/Podfile"])
    }
}
