import Foundation
import GitKit
import Testing

@Suite struct CloneTests {
    @Test func cloneByPathChecksOutTheDefaultBranch() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.bare, to: sandbox.at("clone"))
        #expect(repo.workdir == sandbox.at("clone"))
        #expect(try read(sandbox.at("clone/README.md")) == "hello\nworld\n")
        #expect(!exists(sandbox.at("clone/notes.txt")))
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))
        #expect(try repo.remoteURL("origin") == fixture.bare)
        #expect(try repo.remoteDefaultBranch(remote: "origin") == "main")
        #expect(try repo.remoteBranchTarget(remote: "origin", branch: "develop") == fixture.d1)
        #expect(try repo.upstream(ofBranch: "main") == "origin/main")
        #expect(try repo.status().isClean)
        #expect(try git("status", "--porcelain", in: sandbox.at("clone")) == "")
    }

    @Test func cloneByFileURLReportsProgress() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let recorder = ProgressRecorder()
        let options = CloneOptions(progress: { recorder.record($0) })
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"), options: options)
        #expect(recorder.calls > 0)
        let last = try #require(recorder.last)
        #expect(last.totalObjects > 0)
        #expect(last.receivedObjects == last.totalObjects)
        #expect(last.indexedObjects == last.totalObjects)
        #expect(try repo.remoteURL("origin") == fixture.fileURL)
        #expect(try read(sandbox.at("clone/README.md")) == "hello\nworld\n")
        #expect(try repo.resolveCommit("v1.0") == fixture.c2)
    }

    @Test func cloneCheckingOutAnotherBranch() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"),
                                        options: CloneOptions(branch: "develop"))
        #expect(try repo.head() == .branch(name: "develop", commit: fixture.d1))
        #expect(try read(sandbox.at("clone/dev.txt")) == "dev\n")
        #expect(try read(sandbox.at("clone/notes.txt")) == "note\n")
        #expect(try repo.upstream(ofBranch: "develop") == "origin/develop")
        #expect(try repo.localBranches() == ["develop"])
    }

    @Test func bareAndNoCheckoutClones() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let bare = try Repository.clone(url: fixture.bare, to: sandbox.at("bare.git"), options: CloneOptions(bare: true))
        #expect(bare.isBare)
        #expect(try bare.branchTarget("main") == fixture.c3)

        let unchecked = try Repository.clone(url: fixture.fileURL, to: sandbox.at("nocheckout"),
                                             options: CloneOptions(checkout: false))
        #expect(!exists(sandbox.at("nocheckout/README.md")))
        #expect(try unchecked.head() == .branch(name: "main", commit: fixture.c3))
    }

    @Test func cancellingThroughProgressAbortsWithUserCode() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let recorder = ProgressRecorder()
        let destination = sandbox.at("cancelled")
        let options = CloneOptions(progress: { _ = recorder.record($0); return false })
        let error = expectGitError(.user) {
            try Repository.clone(url: fixture.fileURL, to: destination, options: options)
        }
        #expect(recorder.calls == 1)
        #expect(error?.function == "git_clone")
        // What libgit2 leaves behind; GitKit itself removes nothing.
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
        print("clone cancelled: \(error.map(String.init(describing:)) ?? "-"); left on disk at destination: \(exists(destination) ? "\(leftovers.sorted())" : "nothing (directory removed)")")
        #expect(!Repository.isRepository(destination))
    }

    /// Repositories are per-thread handles; separate ones may be used on separate threads at once.
    @Test func concurrentClonesOnSeparateTasks() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        let url = fixture.fileURL
        let base = sandbox.path
        let heads = try await withThrowingTaskGroup(of: OID.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let repo = try Repository.clone(url: url, to: base + "/parallel-\(index)")
                    _ = try repo.status()
                    return try repo.resolveCommit("HEAD")
                }
            }
            return try await group.reduce(into: [OID]()) { $0.append($1) }
        }
        #expect(heads == Array(repeating: fixture.c3, count: 4))
    }

    @Test func cloneOfAMissingSourceThrowsNamingThePath() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let missing = sandbox.at("nothing-here.git")
        do {
            _ = try Repository.clone(url: "file://" + missing, to: sandbox.at("clone"))
            Issue.record("clone of a missing source succeeded")
        } catch let error as GitError {
            // libgit2 reports this as a generic error (-1) of class "os", not as .notFound.
            #expect(error.function == "git_clone")
            #expect(error.message.contains(missing), "\(error)")
        }
        #expect(!Repository.isRepository(sandbox.at("clone")))
    }
}

/// Collects progress callbacks (called on the cloning thread only).
final class ProgressRecorder {
    private(set) var calls = 0
    private(set) var last: TransferProgress?

    func record(_ progress: TransferProgress) -> Bool {
        calls += 1
        last = progress
        return true
    }
}
