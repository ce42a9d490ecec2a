import Foundation
@testable import GitKit
import Testing

/// The in-process fetch from a repository on this machine: it copies what git's own fetch would receive, in an order
/// that never leaves an object naming a missing one, moves the references only after, and leaves to the transfer
/// whatever it cannot do exactly.
@Suite struct LocalFetchTests {
    static let refspecs = ["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/modkit/remote-tags/origin/*"]

    /// A git clone of the fixture's remote, with the fixture.
    private func cloned(_ sandbox: Sandbox) throws -> (RemoteFixture, String) {
        let fixture = try RemoteFixture(in: sandbox)
        let clone = sandbox.at("clone")
        try run("/usr/bin/git", ["clone", "-q", fixture.fileURL, clone])
        return (fixture, clone)
    }

    /// What git itself would send: the objects the remote's refs reach and the clone's refs do not.
    private func objectsGitWouldSend(remote: String, clone: String) throws -> Set<String> {
        let known = try git("for-each-ref", "--format=%(objectname)", in: clone).split(separator: "\n").map(String.init)
        let wanted = try run("/usr/bin/git", ["--git-dir=" + remote, "for-each-ref", "--format=%(objectname)"])
            .split(separator: "\n").map(String.init)
        let listed = try run("/usr/bin/git", ["--git-dir=" + remote, "rev-list", "--objects"] + wanted + ["--not"] + known)
        return Set(listed.split(separator: "\n").map { String($0.prefix(40)) })
    }

    private func plan(_ clone: String) throws -> (LocalFetch, [OID]) {
        let repository = try Repository.open(clone)
        let fetch = try #require(LocalFetch(into: repository, remote: "origin", refspecs: Self.refspecs, prune: true))
        return (fetch, try #require(fetch.missingObjects(limit: 100)))
    }

    @Test func copiesWhatGitWouldSendEachAfterWhatItNames() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        // Two commits on main (a deep file changed, then another added), a merge from a new branch, a new annotated tag.
        let scratch = sandbox.at("scratch")
        try run("/usr/bin/git", ["clone", "-q", fixture.bare, scratch])
        try commitFile(scratch, "Sources/Core/Deep/A.swift", "a\n", "A")
        try commitFile(scratch, "Sources/Core/Deep/B.swift", "b\n", "B")
        try git("checkout", "-q", "-b", "side", "HEAD~1", in: scratch)
        try commitFile(scratch, "Sources/Side/C.swift", "c\n", "C")
        try git("checkout", "-q", "main", in: scratch)
        try git("merge", "-q", "--no-edit", "side", in: scratch)
        try git("tag", "-a", "v2.0", "-m", "Version 2.0", in: scratch)
        try git("push", "-q", "origin", "main", "side", "v2.0", in: scratch)

        let expected = try objectsGitWouldSend(remote: fixture.bare, clone: clone)
        let (fetch, objects) = try plan(clone)
        #expect(Set(objects.map(\.hex)) == expected)
        #expect(objects.count == Set(objects).count, "each object once")
        #expect(fetch.updates.map(\.name).sorted() == ["refs/modkit/remote-tags/origin/v1.0", "refs/modkit/remote-tags/origin/v2.0",
                                                       "refs/remotes/origin/main", "refs/remotes/origin/side"])

        // Each object comes after every object of the list it names.
        let position = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($1.hex, $0) })
        for (index, id) in objects.enumerated() {
            let text = try run("/usr/bin/git", ["--git-dir=" + fixture.bare, "cat-file", "-p", id.hex])
            let named = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
                .filter { $0.count == 40 && OID(hex: $0) != nil }
            for other in named {
                if let earlier = position[other] { #expect(earlier < index, "\(id.hex) is written before \(other)") }
            }
        }
    }

    @Test func aFetchWritesLooseObjectsThenMovesAndPrunesTheReferences() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        let repository = try Repository.open(clone)
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        let packs = try FileManager.default.contentsOfDirectory(atPath: clone + "/.git/objects/pack").sorted()
        let newMain = try fixture.pushNewCommit(in: sandbox, file: "deep/er/new.txt", content: "new\n", message: "New")
        try git("branch", "-D", "develop", in: fixture.bare)

        let recorder = ProgressRecorder()
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all, progress: { recorder.record($0) }))
        #expect(recorder.calls == 1)
        #expect(try repository.remoteBranchTarget(remote: "origin", branch: "main") == newMain)
        #expect(try repository.remoteBranchTarget(remote: "origin", branch: "develop") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: clone + "/.git/objects/pack").sorted() == packs)
        #expect(try git("cat-file", "-p", "origin/main:deep/er/new.txt", in: clone) == "new")
        #expect(try git("fsck", "--strict", "--no-dangling", "--no-progress", in: clone).isEmpty)
        #expect(try git("reflog", "-1", "--format=%gs", "refs/remotes/origin/main", in: clone) == "fetch origin: fast-forward")
    }

    @Test func whatItCannotDoExactlyIsLeftToTheTransfer() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        let repository = try Repository.open(clone)
        #expect(LocalFetch(into: repository, remote: "origin", refspecs: Self.refspecs, prune: true) != nil)

        // A refspec without `+` that would move a reference: git decides whether that is a fast-forward.
        #expect(LocalFetch(into: repository, remote: "origin", refspecs: ["refs/heads/*:refs/remotes/origin/*"], prune: true) == nil)
        // A refspec that writes local branches: git refuses to move a checked-out one.
        #expect(LocalFetch(into: repository, remote: "origin", refspecs: ["+refs/heads/*:refs/heads/*"], prune: true) == nil)
        // A remote that hides references from fetches.
        try run("/usr/bin/git", ["--git-dir=" + fixture.bare, "config", "uploadpack.hideRefs", "refs/heads/develop"])
        #expect(LocalFetch(into: repository, remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
        try run("/usr/bin/git", ["--git-dir=" + fixture.bare, "config", "--unset", "uploadpack.hideRefs"])
        // Refspecs of other forms.
        #expect(LocalFetch(into: repository, remote: "origin", refspecs: ["refs/heads/main"], prune: true) == nil)
        // A repository that has git check what it receives, or that has a reference-transaction hook.
        try git("config", "transfer.fsckObjects", "true", in: clone)
        #expect(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
        try git("config", "fetch.fsckObjects", "false", in: clone)
        #expect(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true) != nil)
        try write("#!/bin/sh\n", to: clone + "/.git/hooks/reference-transaction")
        try run("/bin/chmod", ["+x", clone + "/.git/hooks/reference-transaction"])
        #expect(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
        try FileManager.default.removeItem(atPath: clone + "/.git/hooks/reference-transaction")
        // More objects than the limit.
        #expect(try #require(LocalFetch(into: repository, remote: "origin", refspecs: Self.refspecs, prune: true)).missingObjects(limit: 2) == nil)

        // A shallow clone, a partial clone, a relative path.
        let shallow = sandbox.at("shallow")
        try run("/usr/bin/git", ["clone", "-q", "--depth", "1", fixture.fileURL, shallow])
        #expect(LocalFetch(into: try Repository.open(shallow), remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
        try run("/usr/bin/git", ["-C", fixture.bare, "config", "uploadpack.allowFilter", "true"])
        let partial = sandbox.at("partial")
        try run("/usr/bin/git", ["clone", "-q", "--filter=blob:none", fixture.fileURL, partial])
        #expect(LocalFetch(into: try Repository.open(partial), remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
        try git("remote", "set-url", "origin", "../remote.git", in: clone)
        #expect(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
    }

    @Test func prunesBeforeUpdatingSoABranchMayBecomeADirectoryAndBack() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        let repository = try Repository.open(clone)
        let options = FetchOptions(prune: true, downloadTags: .all)
        try git("branch", "release", "main", in: fixture.bare)
        try repository.fetch(remote: "origin", options: options)
        try git("branch", "-D", "release", in: fixture.bare)
        try git("branch", "release/1.0", "main", in: fixture.bare)
        try repository.fetch(remote: "origin", options: options)
        #expect(try repository.reference("refs/remotes/origin/release/1.0") == fixture.c3)
        #expect(try repository.reference("refs/remotes/origin/release") == nil)
        try git("branch", "-D", "release/1.0", in: fixture.bare)
        try git("branch", "release", "develop", in: fixture.bare)
        try repository.fetch(remote: "origin", options: options)
        #expect(try repository.reference("refs/remotes/origin/release") == fixture.d1)
    }

    @Test func aRemoteReferenceWithAnInvalidNameIsIgnoredAsGitIgnoresIt() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        let newMain = try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        try write(newMain.hex + "\n", to: fixture.bare + "/refs/heads/bad..name")
        let repository = try Repository.open(clone)
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        #expect(try repository.reference("refs/remotes/origin/main") == newMain)
        #expect(try git("for-each-ref", "--format=%(refname)", "refs/remotes/origin", in: clone).split(separator: "\n").sorted()
                == ["refs/remotes/origin/HEAD", "refs/remotes/origin/develop", "refs/remotes/origin/main"])
    }

    @Test func symbolicReferencesAreNeitherPrunedNorOverwritten() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        try git("symbolic-ref", "refs/remotes/origin/mine", "refs/remotes/origin/develop", in: clone)
        let newMain = try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        let repository = try Repository.open(clone)
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        #expect(try repository.reference("refs/remotes/origin/main") == newMain)
        #expect(try git("symbolic-ref", "refs/remotes/origin/mine", in: clone) == "refs/remotes/origin/develop")
        // A remote branch named like the symbolic ref: git decides what happens to it.
        try git("branch", "mine", "main", in: fixture.bare)
        #expect(LocalFetch(into: repository, remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
    }

    @Test func aFileWhoseIdASubmoduleEntryOnceNamedIsCopied() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let fixture = try RemoteFixture(in: sandbox)
        // A commit records a submodule entry whose id is that of a blob nobody has yet; the next commit makes the blob.
        let scratch = sandbox.at("scratch")
        try run("/usr/bin/git", ["clone", "-q", fixture.bare, scratch])
        try write("payload\n", to: sandbox.at("payload"))
        let blob = try git("hash-object", sandbox.at("payload"), in: scratch)
        try git("update-index", "--add", "--cacheinfo", "160000,\(blob),vendor", in: scratch)
        try git("commit", "-q", "-m", "Submodule", in: scratch)
        try git("push", "-q", "origin", "main", in: scratch)
        let clone = sandbox.at("clone")
        try run("/usr/bin/git", ["clone", "-q", "--no-checkout", fixture.fileURL, clone])
        try git("rm", "-q", "--cached", "vendor", in: scratch)
        try commitFile(scratch, "vendor", "payload\n", "File")
        try git("push", "-q", "origin", "main", in: scratch)

        let (_, objects) = try plan(clone)
        #expect(objects.map(\.hex).contains(blob))
        let repository = try Repository.open(clone)
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        #expect(try git("cat-file", "-p", "origin/main:vendor", in: clone) == "payload")
        #expect(try git("fsck", "--strict", "--no-dangling", "--no-progress", in: clone).isEmpty)
    }

    @Test func namesAreComparedByTheirBytes() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        // "café" composed and decomposed: the same text, two branches to git. A name with DEL is a "funny ref" git ignores.
        try git("branch", "caf\u{E9}", "main", in: fixture.bare)
        try git("branch", "cafe\u{301}", "develop", in: fixture.bare)
        let newMain = try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        try write(fixture.c3.hex + "\n", to: fixture.bare + "/refs/heads/del\u{7F}x")
        let repository = try Repository.open(clone)
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        // Compared as bytes: Swift compares strings by canonical equivalence, which would hide the very fault.
        func lines(_ text: String) -> Set<[UInt8]> { Set(text.split(separator: "\n").map { Array($0.utf8) }) }
        let listed = try git("for-each-ref", "--format=%(objectname) %(refname)", "refs/remotes/origin", in: clone)
        #expect(lines(listed) == lines("""
            \(newMain.hex) refs/remotes/origin/HEAD
            \(fixture.c3.hex) refs/remotes/origin/caf\u{E9}
            \(fixture.d1.hex) refs/remotes/origin/cafe\u{301}
            \(fixture.d1.hex) refs/remotes/origin/develop
            \(newMain.hex) refs/remotes/origin/main
            """), "\(listed)")
        // Renamed from one form to the other: the old one is pruned.
        try git("branch", "-D", "cafe\u{301}", in: fixture.bare)
        try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        #expect(lines(try git("for-each-ref", "--format=%(refname)", "refs/remotes/origin/caf*", in: clone))
                == lines("refs/remotes/origin/caf\u{E9}"))
    }

    @Test func oneReferenceThatCannotBeWrittenDoesNotStopTheOthers() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        let newMain = try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        // A branch whose name is too long for a file here, written before `main` (names go in byte order); the remote
        // keeps it in packed-refs, unsorted.
        try git("pack-refs", "--all", in: fixture.bare)
        let long = "refs/heads/a" + String(repeating: "x", count: 300)
        let packed = try read(fixture.bare + "/packed-refs").replacingOccurrences(of: " sorted", with: "")
        try write(packed + "\(fixture.c3.hex) \(long)\n", to: fixture.bare + "/packed-refs")
        let repository = try Repository.open(clone)
        #expect(throws: GitError.self) {
            try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        }
        #expect(try repository.reference("refs/remotes/origin/main") == newMain)
    }

    @Test func fsckSettingsAreReadAsGitReadsThem() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        try fixture.pushNewCommit(in: sandbox, file: "new.txt", content: "new\n", message: "New")
        for value in ["2", "yes", "On"] {
            try git("config", "fetch.fsckObjects", value, in: clone)
            #expect(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true) == nil, "\(value)")
        }
        try git("config", "--unset", "fetch.fsckObjects", in: clone)
        try write((try read(clone + "/.git/config")) + "[transfer]\n\tfsckObjects\n", to: clone + "/.git/config")
        #expect(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true) == nil)
    }

    @Test func aRemoteTagThatCollidesWithALocalTagIsKept() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        let repository = try Repository.open(clone)
        try git("tag", "v2", "main", in: clone)
        try git("tag", "v2/rc1", "main", in: fixture.bare)
        let report = try repository.fetch(remote: "origin", options: FetchOptions(prune: true, downloadTags: .all))
        #expect(report.keptLocalTags == ["v2/rc1"])
        #expect(try repository.reference("refs/modkit/remote-tags/origin/v2/rc1") == fixture.c3)
        #expect(try repository.reference("refs/tags/v2") == fixture.c3)
    }

    @Test func aTagOfATreeIsLeftToTheTransfer() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let (fixture, clone) = try cloned(sandbox)
        let tree = try run("/usr/bin/git", ["--git-dir=" + fixture.bare, "rev-parse", "main^{tree}"])
        try run("/usr/bin/git", ["--git-dir=" + fixture.bare, "tag", "tree-tag", tree])
        let fetch = try #require(LocalFetch(into: try Repository.open(clone), remote: "origin", refspecs: Self.refspecs, prune: true))
        #expect(fetch.missingObjects(limit: 100) == nil)
    }
}

extension LocalFetch: CustomTestStringConvertible {
    public var testDescription: String { "LocalFetch(\(updates.map(\.name)), deleting \(plan.deletions))" }
}
