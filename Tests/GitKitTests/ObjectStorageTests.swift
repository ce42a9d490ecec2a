import Foundation
import GitKit
import Testing

/// How fetched objects are stored, and the read-only shortcuts a status scan takes.
@Suite struct ObjectStorageTests {
    /// The pack files of a repository, by name.
    private func packs(_ work: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: work + "/.git/objects/pack").filter { $0.hasSuffix(".pack") }.sorted()
    }

    /// Loose object files (objects/xx/…), as paths relative to objects/.
    private func looseObjects(_ work: String) throws -> Set<String> {
        let objects = work + "/.git/objects"
        var found: Set<String> = []
        for directory in try FileManager.default.contentsOfDirectory(atPath: objects) where directory.count == 2 {
            for file in try FileManager.default.contentsOfDirectory(atPath: objects + "/" + directory) {
                found.insert(directory + file)
            }
        }
        return found
    }

    @Test func aSmallFetchIsStoredAsLooseObjectsLikeGitDoes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        let packsAfterClone = try packs(work)
        #expect(packsAfterClone.count == 1)

        var fetched: [OID] = []
        for round in 1...3 {
            fetched.append(try fixture.pushNewCommit(in: sandbox, file: "round\(round).txt", content: "\(round)\n",
                                                     message: "Round \(round)"))
            try repo.fetch(remote: "origin")
            #expect(try repo.remoteBranchTarget(remote: "origin", branch: "main") == fetched.last)
        }
        #expect(try packs(work) == packsAfterClone, "three small fetches add no pack")
        let loose = try looseObjects(work)
        for (round, commit) in fetched.enumerated() {
            // Each round brought a commit, its tree and the new file (plus delta bases libgit2 completed the thin pack with).
            let tree = try git("rev-parse", "\(commit.hex)^{tree}", in: work)
            let blob = try git("rev-parse", "\(commit.hex):round\(round + 1).txt", in: work)
            for id in [commit.hex, tree, blob] {
                #expect(loose.contains(id), "\(id) of round \(round + 1) is a loose object")
            }
        }
        #expect(try git("fsck", "--strict", in: work).isEmpty)
        // The same handle still reads every object after its pack went away.
        #expect(try repo.commitInfo(fetched[0]).summary == "Round 1")
        #expect(try repo.resolveCommit("origin/main") == fetched[2])
    }

    @Test func fetchUnpackLimitKeepsPacksAsGitWould() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        try git("config", "fetch.unpackLimit", "3", in: work)
        let newer = try fixture.pushNewCommit(in: sandbox, file: "kept.txt", content: "kept\n", message: "Kept in a pack")
        try repo.fetch(remote: "origin")
        #expect(try packs(work).count == 2, "3 objects are not fewer than fetch.unpackLimit = 3")
        #expect(try looseObjects(work).isEmpty)
        #expect(repo.hasCommit(newer))

        try git("config", "--unset", "fetch.unpackLimit", in: work)
        try git("config", "transfer.unpackLimit", "1", in: work)
        try fixture.pushNewCommit(in: sandbox, file: "again.txt", content: "again\n", message: "Again")
        try repo.fetch(remote: "origin")
        #expect(try packs(work).count == 3, "transfer.unpackLimit applies when fetch.unpackLimit is unset")
        #expect(try git("fsck", "--strict", in: work).isEmpty)
    }

    @Test func aPackWithAKeepFileIsLeftAlone() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        // Another git, mid-fetch, marks its new pack with .keep until its refs are updated.
        try fixture.pushNewCommit(in: sandbox, file: "other.txt", content: "other\n", message: "Fetched by someone else")
        let pack = try run("/bin/sh", ["-c", "printf 'main\\n^\(fixture.c3.hex)\\n' | git -C '\(fixture.bare)' pack-objects -q --revs '\(work)/.git/objects/pack/pack'"])
        try write("", to: work + "/.git/objects/pack/pack-\(pack).keep")
        let before = try packs(work)
        #expect(before.count == 2)
        try fixture.pushNewCommit(in: sandbox, file: "mine.txt", content: "mine\n", message: "Fetched by us")
        try repo.fetch(remote: "origin")
        #expect(try packs(work) == before, "the kept pack stays; our own small fetch went loose")
    }

    /// Status is a question: stale stat data (a file touched, same bytes) is hashed and not written back, by libgit2's
    /// status and by the `git status` it falls back to, which without `--no-optional-locks` would rewrite the index.
    @Test func statusNeverWritesTheIndex() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        let index = work + "/.git/index"
        let later = Date().addingTimeInterval(120)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: work + "/README.md")
        let stale = try Data(contentsOf: URL(fileURLWithPath: index))
        let written = { try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date }
        #expect(try git("diff-files", "--name-only", in: work) == "README.md", "the index's stat data is stale")

        #expect(try repo.status() == StatusSummary())
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == stale)

        // With the fast paths off, git answers once libgit2 sees a change.
        try git("config", "modkit.fastPaths", "false", in: work)
        try write("new\n", to: work + "/new.txt")
        try git("add", "new.txt", in: work)
        #expect(try git("diff-files", "--name-only", in: work) == "README.md", "git add refreshed only what it added")
        let staged = try Data(contentsOf: URL(fileURLWithPath: index))
        let stagedTime = try written()
        #expect(try Repository.open(work).status() == StatusSummary(staged: 1))
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == staged)
        #expect(try written() == stagedTime, "not even rewritten with the same bytes")
        #expect(try git("diff-files", "--name-only", in: work) == "README.md", "still stale")
        #expect(!FileManager.default.fileExists(atPath: index + ".lock"))
    }

    @Test func aFrozenConfigurationStillAnswersReads() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let work = sandbox.at("clone")
        let repo = try Repository.clone(url: fixture.fileURL, to: work)
        try repo.freezeConfiguration()
        #expect(try repo.configString("remote.origin.url") == fixture.fileURL)
        #expect(try repo.tracking(ofBranch: "main")?.upstream == "origin/main")
        try write("changed\n", to: work + "/README.md")
        #expect(try repo.status() == StatusSummary(modified: 1))
    }
}
