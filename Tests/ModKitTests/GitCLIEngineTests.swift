import Foundation
import GitKit
@testable import ModKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Collects progress reports from the engine's worker.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [TransferProgress] = []
    func record(_ progress: TransferProgress) { lock.withLock { reports.append(progress) } }
    var all: [TransferProgress] { lock.withLock { reports } }
}

@Suite struct GitCLIEngineTests {
    let engine = GitCLIEngine()

    /// `fetch.engine: auto` looks git up on PATH without running it; `--no-write-fetch-head` is used from git 2.29.
    @Test func gitIsFoundOnPathWithoutRunningIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tool = folder.appendingPathComponent("mygit").path
        #expect(FileManager.default.createFile(atPath: tool, contents: Data("#!/bin/sh\nexit 1\n".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(!GitCLIEngine.isAvailable(git: "mygit", environment: ["PATH": "/nonexistent:\(folder.path)"]))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        #expect(GitCLIEngine.isAvailable(git: "mygit", environment: ["PATH": "/nonexistent:\(folder.path)"]))
        #expect(!GitCLIEngine.isAvailable(git: "mygit", environment: ["PATH": "/nonexistent"]))
        #expect(GitCLIEngine.isAvailable(git: tool))
        #expect(GitCLIEngine.isAvailable(git: "git"))
        let version = try #require(GitCLIEngine.version(of: "git"))
        #expect(GitCLIEngine.writesFetchHeadOnRequest(git: "git") == (version >= (2, 29)))
        #expect(GitCLIEngine.version(of: tool) == nil)
    }

    /// `auto`: libgit2 for ssh and for a small repository on this machine (full history), git for the rest.
    @Test func autoSendsSmallLocalRepositoriesInProcessAndBigOnesToGit() throws {
        let sandbox = try TransferSandbox()
        let auto = AutoEngine()
        try sandbox.git("-C", "remote.git", "repack", "-adq")
        #expect(auto.engine(for: sandbox.remoteURL).name == "libgit2")
        #expect(auto.engine(for: sandbox.remote).name == "libgit2")
        #expect(auto.engine(for: sandbox.remoteURL, shallowOrPartial: true).name == "git")
        #expect(auto.engine(for: "ssh://git@127.0.0.1/x.git").name == "libgit2")
        #expect(auto.engine(for: "git://127.0.0.1/x.git").name == "git")
        #expect(auto.engine(for: "file://" + sandbox.path("missing.git")).name == "git")

        // 2 MiB that do not compress: past the limit, the same repository goes to git.
        let noise = Data((0..<(2 << 20)).map { _ in UInt8.random(in: 0...255) })
        try noise.write(to: URL(fileURLWithPath: sandbox.path("work/noise.bin")))
        try sandbox.git("-C", "work", "add", "noise.bin")
        try sandbox.git("-C", "work", "commit", "-qm", "noise")
        try sandbox.git("-C", "work", "push", "-q", "origin", "main")
        try sandbox.git("-C", "remote.git", "repack", "-adq")
        #expect(auto.engine(for: sandbox.remoteURL).name == "git")
    }

    /// A file:// remote is cloned by its path: the clone's object files are hard links to the remote's (no re-pack
    /// through the transport), origin keeps the url as written, and the clone is a complete, independent repository.
    @Test func clonesOverFileByHardLinksWithoutWorkTree() throws {
        let sandbox = try TransferSandbox()
        try sandbox.git("-C", "remote.git", "repack", "-adq")
        _ = try engine.clone(url: sandbox.remoteURL, to: sandbox.path("clone"), remote: "origin", options: TransferOptions())
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == sandbox.git("-C", "work", "rev-parse", "main"))
        #expect(try sandbox.git("-C", "clone", "tag", "--list") == "v1")
        #expect(try sandbox.git("-C", "clone", "remote", "get-url", "origin") == sandbox.remoteURL)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("clone")) == [".git"])
        let packs = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("remote.git/objects/pack")).filter { $0.hasSuffix(".pack") }
        let pack = try #require(packs.first)
        #expect(packs.count == 1)
        #expect(try inode(sandbox.path("clone/.git/objects/pack/" + pack)) == inode(sandbox.path("remote.git/objects/pack/" + pack)))
        // a later commit on the remote reaches the clone through the file:// transport as usual
        let newer = try sandbox.commit("later.txt", "after the clone\n", push: true)
        try sandbox.git("-C", "clone", "fetch", "-q", "origin")
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == newer)
        #expect(try sandbox.git("-C", "clone", "fsck", "--no-progress").isEmpty)
    }

    /// Each engine writes a new clone's first work tree: on a branch, or detached at a tag's commit, with the files
    /// of that commit (the `eol=crlf` attribute applied, as git applies it), a clean status, and a second checkout
    /// into the same repository refused without writing anything.
    @Test(arguments: ["git", "libgit2"])
    func firstCheckoutOfANewCloneWritesTheTargetsFiles(engineName: String) throws {
        let engine = try FetchEngineSetting.engine(environment: ["MODKIT_FETCH_ENGINE": engineName])
        let sandbox = try TransferSandbox()
        try sandbox.commit(".gitattributes", "*.bat eol=crlf\n")
        let tagged = try sandbox.commit("run.bat", "echo one\necho two\n")
        try sandbox.git("-C", "work", "tag", "v2")
        let newest = try sandbox.commit("file1.txt", "changed after v2\n", push: true)
        try sandbox.git("-C", "work", "push", "-q", "origin", "v2")

        let onBranch = try engine.clone(url: sandbox.remoteURL, to: sandbox.path("branch"), remote: "origin", options: TransferOptions())
        try engine.checkOutNewClone(onBranch, branch: "main", commit: try #require(OID(hex: newest)))
        #expect(try sandbox.git("-C", "branch", "symbolic-ref", "HEAD") == "refs/heads/main")
        #expect(try String(contentsOfFile: sandbox.path("branch/file1.txt"), encoding: .utf8) == "changed after v2\n")
        #expect(try String(contentsOfFile: sandbox.path("branch/run.bat"), encoding: .utf8) == "echo one\r\necho two\r\n")
        #expect(try sandbox.git("-C", "branch", "status", "--porcelain", "--untracked-files=all").isEmpty)

        let detached = try engine.clone(url: sandbox.remoteURL, to: sandbox.path("detached"), remote: "origin", options: TransferOptions())
        try engine.checkOutNewClone(detached, branch: nil, commit: try #require(OID(hex: tagged)))
        #expect(try sandbox.git("-C", "detached", "rev-parse", "HEAD") == tagged)
        #expect(throws: (any Error).self) { try sandbox.git("-C", "detached", "symbolic-ref", "-q", "HEAD") }
        #expect(try String(contentsOfFile: sandbox.path("detached/file1.txt"), encoding: .utf8) == "content 1\n")
        #expect(try sandbox.git("-C", "detached", "status", "--porcelain", "--untracked-files=all").isEmpty)

        // the index is no longer empty: refused, and the work tree and HEAD stay as they are
        try "mine\n".write(toFile: sandbox.path("detached/file1.txt"), atomically: true, encoding: .utf8)
        let newestID = try #require(OID(hex: newest))
        #expect(throws: GitError.self) { try engine.checkOutNewClone(detached, branch: "main", commit: newestID) }
        #expect(try String(contentsOfFile: sandbox.path("detached/file1.txt"), encoding: .utf8) == "mine\n")
        #expect(try sandbox.git("-C", "detached", "rev-parse", "HEAD") == tagged)
    }

    private func inode(_ path: String) throws -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return UInt64(info.st_ino)
    }

    /// Both engines: new tags come, a tag the remote moved stays as the user has it and is reported, the remote's
    /// version is staged under refs/modkit/remote-tags/, and a tag deleted on the remote leaves the mirror.
    @Test(arguments: ["git", "libgit2"])
    func fetchUpdatesBranchesAndNewTagsButKeepsAMovedLocalTag(engineName: String) throws {
        let engine = try FetchEngineSetting.engine(environment: ["MODKIT_FETCH_ENGINE": engineName])
        #expect(engine.name == engineName)
        let sandbox = try TransferSandbox()
        try sandbox.git("-C", "work", "tag", "doomed")
        try sandbox.git("-C", "work", "push", "-q", "origin", "doomed")
        let repository = try engine.clone(url: sandbox.remoteURL, to: sandbox.path("clone"), remote: "origin", options: TransferOptions())
        let oldV1 = try sandbox.git("-C", "clone", "rev-parse", "v1")
        let newer = try sandbox.commit("new.txt", "new\n", push: true)
        try sandbox.git("-C", "work", "tag", "-f", "-a", "v1", "-m", "moved")
        try sandbox.git("-C", "work", "tag", "v2")
        try sandbox.git("-C", "work", "push", "-q", "-f", "origin", "--tags")
        try sandbox.git("-C", "work", "push", "-q", "origin", ":refs/tags/doomed")

        let report = try engine.fetch(repository, remote: "origin", refspecs: [],
                                      options: FetchOptions(prune: true, downloadTags: .all))
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == newer)
        #expect(try sandbox.git("-C", "clone", "rev-parse", "v2^{commit}") == newer)
        #expect(try sandbox.git("-C", "clone", "rev-parse", "v1") == oldV1)
        #expect(try sandbox.git("-C", "clone", "rev-parse", "refs/modkit/remote-tags/origin/v1") == sandbox.git("-C", "work", "rev-parse", "v1"))
        #expect(try sandbox.git("-C", "clone", "for-each-ref", "--format=%(refname)", "refs/modkit/remote-tags/origin/doomed").isEmpty)
        #expect(report.keptLocalTags == ["v1"])
        #expect(report.previousTips["main"]?.hex == oldMain(sandbox))
    }

    private func oldMain(_ sandbox: TransferSandbox) -> String? {
        try? sandbox.git("-C", "work", "rev-parse", "HEAD~1")
    }

    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func clonesAndFetchesOverGitDaemon() throws {
        let sandbox = try TransferSandbox()
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        let cloneLog = ProgressLog()
        let repository = try engine.clone(url: daemon.url("remote.git"), to: sandbox.path("clone"), remote: "origin",
                                          options: TransferOptions(progress: { cloneLog.record($0); return true }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("clone")) == [".git"])
        // 3 commits, 3 trees, 3 blobs, 1 tag. Bytes are not asserted: git prints its throughput only when a transfer
        // lasts long enough; progressParserReadsGitsWording checks how bytes are read.
        #expect(cloneLog.all.last?.totalObjects == 10)
        #expect(cloneLog.all.last?.receivedObjects == 10)
        let newer = try sandbox.commit("daemon.txt", "over git://\n", push: true)
        let log = ProgressLog()
        _ = try engine.fetch(repository, remote: "origin", refspecs: [],
                             options: FetchOptions(prune: true, downloadTags: .all, progress: { log.record($0); return true }))
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == newer)
        // one commit, one tree, one blob: what git's own negotiation asks for
        #expect(log.all.last?.totalObjects == 3)
        #expect(try sandbox.git("-C", "clone", "fsck", "--no-progress").isEmpty)
    }

    /// Over git:// the remote is listed in-process first. With nothing new no git runs at all. With a new commit the
    /// download runs over the listing's own connection, again without git. With fast paths off (`modkit.fastPaths`)
    /// one `git fetch` runs, and it speaks protocol v0 (the listing just proved the server speaks it, and v2 would ask
    /// for the reference list a second time), as git's own packet trace shows.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func aListedRemoteIsFetchedOnlyWhenItMovedOverTheSameConnectionOrByGitOverProtocolV0() throws {
        let sandbox = try TransferSandbox()
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        // A git that records each command line and its packet trace, then runs the real git.
        let wrapper = sandbox.path("recording-git")
        let script = "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(sandbox.path("commands")).log'\n"
            + "GIT_TRACE_PACKET='\(sandbox.path("packets.log"))' exec git \"$@\"\n"
        #expect(FileManager.default.createFile(atPath: wrapper, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        let engine = GitCLIEngine(git: wrapper, downloadsOverListing: true)
        let repository = try engine.clone(url: daemon.url("remote.git"), to: sandbox.path("clone"), remote: "origin", options: TransferOptions())
        func fetches() -> [String] {
            ((try? String(contentsOfFile: sandbox.path("commands.log"), encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init).filter { $0.contains(" fetch ") }
        }
        let options = FetchOptions(prune: true, downloadTags: .all)
        // The first fetch after a clone writes the tag mirror, which the clone has not.
        #expect(try !engine.fetch(repository, remote: "origin", refspecs: [], options: options).remoteUnchanged)
        try FileManager.default.removeItem(atPath: sandbox.path("commands.log"))

        let unchanged = try engine.fetch(repository, remote: "origin", refspecs: [], options: options)
        #expect(unchanged.remoteUnchanged)
        #expect(fetches().isEmpty, "\(fetches())")

        let newer = try sandbox.commit("moved.txt", "moved\n", push: true)
        let overListing = try engine.fetch(repository, remote: "origin", refspecs: [], options: options)
        #expect(overListing.fetchedOverListing && !overListing.remoteUnchanged)
        #expect(fetches().isEmpty, "\(fetches())")
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == newer)
        #expect(try sandbox.git("-C", "clone", "cat-file", "-p", "origin/main:moved.txt") == "moved")
        #expect(try sandbox.git("-C", "clone", "reflog", "-1", "--format=%gs", "refs/remotes/origin/main") == "fetch origin: fast-forward")
        #expect(try sandbox.git("-C", "clone", "fsck", "--no-progress", "--strict").isEmpty)

        try sandbox.git("-C", "clone", "config", "modkit.fastPaths", "false")
        let newest = try sandbox.commit("moved.txt", "moved again\n", push: true)
        try? FileManager.default.removeItem(atPath: sandbox.path("packets.log"))
        let moved = try engine.fetch(repository, remote: "origin", refspecs: [], options: options)
        #expect(!moved.remoteUnchanged && !moved.fetchedOverListing)
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == newest)
        #expect(try sandbox.git("-C", "clone", "fsck", "--no-progress", "--strict").isEmpty)
        let ran = fetches()
        #expect(ran.count == 1 && ran[0].hasPrefix("-c protocol.version=0 "), "\(ran)")
        let packets = try String(contentsOfFile: sandbox.path("packets.log"), encoding: .utf8)
        // Over v0 the server's first line names a reference and its capabilities; over v2 it says "version 2".
        #expect(packets.contains("multi_ack"), "\(packets.prefix(2_000))")
        #expect(!packets.contains("version 2"), "\(packets.prefix(2_000))")

        // `fetch.engine: git` (an engine without the download over the listing): git fetches what moved.
        try sandbox.git("-C", "clone", "config", "--unset", "modkit.fastPaths")
        let last = try sandbox.commit("moved.txt", "moved a third time\n", push: true)
        let byGit = try GitCLIEngine(git: wrapper).fetch(repository, remote: "origin", refspecs: [], options: options)
        #expect(!byGit.remoteUnchanged && !byGit.fetchedOverListing)
        #expect(fetches().count == 2, "\(fetches())")
        #expect(try sandbox.git("-C", "clone", "rev-parse", "origin/main") == last)
    }

    /// A setting that tells git how to reach git:// servers, or not to, is git's to honour: no listing runs, and git
    /// fetches (and here refuses) as configured, even when nothing moved.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func aGitProtocolPolicyIsLeftToGit() throws {
        let sandbox = try TransferSandbox()
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        let engine = GitCLIEngine(downloadsOverListing: true)
        let repository = try engine.clone(url: daemon.url("remote.git"), to: sandbox.path("clone"), remote: "origin", options: TransferOptions())
        let options = FetchOptions(prune: true, downloadTags: .all)
        _ = try engine.fetch(repository, remote: "origin", refspecs: [], options: options)
        #expect(try engine.fetch(repository, remote: "origin", refspecs: [], options: options).remoteUnchanged)
        try sandbox.git("-C", "clone", "config", "protocol.git.allow", "never")
        #expect {
            try engine.fetch(Repository.open(sandbox.path("clone")), remote: "origin", refspecs: [], options: options)
        } throws: { error in
            "\(error)".contains("transport 'git' not allowed")
        }
    }

    /// The fetch over the listing's connection leaves what `git fetch` leaves: the same references, the same loose
    /// objects (one new commit on main, a new branch, a new annotated tag, a deleted stale branch), and no more. The
    /// remote has 25 stale feature branches, where libgit2 1.5 offering every reference here would have downloaded
    /// whole branches again (docs/transfers.md); the fetch offers where the moved references were.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func aFetchOverTheListingsConnectionLeavesWhatGitsFetchLeaves() throws {
        let sandbox = try TransferSandbox()
        for index in 4...40 { try sandbox.commit("history\(index).txt", String(repeating: "line \(index)\n", count: index)) }
        for branch in 1...25 {
            try sandbox.git("-C", "work", "checkout", "-q", "-b", "feature/\(branch)", "main~\(10 + branch)")
            try sandbox.commit("feature\(branch).txt", "feature \(branch)\n")
        }
        try sandbox.git("-C", "work", "checkout", "-q", "main")
        try sandbox.git("-C", "work", "push", "-q", "origin", "--all")
        let daemon = try LoopbackGitDaemon(serving: sandbox.root)
        defer { daemon.stop() }
        let refspecs = ["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/modkit/remote-tags/origin/*"]
        let options = FetchOptions(prune: true, downloadTags: .all)
        let engine = GitCLIEngine(downloadsOverListing: true)
        let repository = try engine.clone(url: daemon.url("remote.git"), to: sandbox.path("modkit"), remote: "origin", options: TransferOptions())
        _ = try engine.fetch(repository, remote: "origin", refspecs: [], options: options)
        try sandbox.git("clone", "-q", daemon.url("remote.git"), "git")
        try sandbox.git("-C", "git", "fetch", "-q", "--prune", "--no-tags", "origin", refspecs[0], refspecs[1])

        try sandbox.commit("new.txt", "new on main\n")
        try sandbox.git("-C", "work", "tag", "-a", "v2", "-m", "Version 2")
        try sandbox.git("-C", "work", "checkout", "-q", "-b", "topic")
        try sandbox.commit("topic.txt", "topic\n")
        try sandbox.git("-C", "work", "checkout", "-q", "main")
        try sandbox.git("-C", "work", "push", "-q", "origin", "main", "topic", "v2", ":feature/3")

        let report = try engine.fetch(repository, remote: "origin", refspecs: [], options: options)
        #expect(report.downloadedOverListingBy == .modkit)
        try sandbox.git("-C", "git", "fetch", "-q", "--prune", "--no-tags", "origin", refspecs[0], refspecs[1])
        func references(_ clone: String) throws -> String {
            try sandbox.git("-C", clone, "for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes", "refs/modkit")
        }
        #expect(try references("modkit") == references("git"))
        #expect(try !references("modkit").contains("feature/3 "))
        func looseObjects(_ clone: String) throws -> [String] {
            let objects = sandbox.path(clone + "/.git/objects")
            return try FileManager.default.contentsOfDirectory(atPath: objects).filter { $0.count == 2 }.flatMap { directory in
                try FileManager.default.contentsOfDirectory(atPath: objects + "/" + directory).map { directory + $0 }
            }.sorted()
        }
        // new.txt's commit, tree and blob; topic's commit, tree and blob; the tag: seven, each as git keeps it.
        let (ours, gits) = (try looseObjects("modkit"), try looseObjects("git"))
        #expect(ours == gits, "\(ours) against \(gits)")
        #expect(ours.count == 7)
        // The deleted branch's commit is dangling in both.
        #expect(try sandbox.git("-C", "modkit", "fsck", "--no-progress", "--strict") == sandbox.git("-C", "git", "fsck", "--no-progress", "--strict"))
        #expect(try sandbox.git("-C", "modkit", "reflog", "-1", "--format=%gs", "refs/remotes/origin/topic") == "fetch origin: storing head")
    }

    @Test func shallowAndPartialClones() throws {
        let sandbox = try TransferSandbox()
        _ = try engine.clone(url: sandbox.remote, to: sandbox.path("shallow"), remote: "origin", options: TransferOptions(depth: 1))
        #expect(try sandbox.git("-C", "shallow", "rev-list", "--count", "origin/main") == "1")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("shallow/.git/shallow")))
        // a plain path is cloned through file:// (git ignores --depth otherwise) and keeps the manifest's spelling
        #expect(try sandbox.git("-C", "shallow", "remote", "get-url", "origin") == sandbox.remote)

        _ = try engine.clone(url: sandbox.remoteURL, to: sandbox.path("partial"), remote: "origin", options: TransferOptions(filter: "blob:none"))
        #expect(try sandbox.git("-C", "partial", "config", "remote.origin.promisor") == "true")
        #expect(try sandbox.git("-C", "partial", "rev-list", "--count", "origin/main") == "3")
    }

    /// A shallow clone for one revision fetches that branch (or tag) alone, with the tags on its tip, as
    /// `git clone --depth` does: a stale branch's big file never arrives. Later fetches use the all-branches refspec.
    @Test func aShallowCloneForOneRevisionFetchesThatBranchAlone() throws {
        let sandbox = try TransferSandbox()
        try sandbox.git("-C", "work", "checkout", "-q", "-b", "stale", "main~1")
        let stale = try sandbox.commit("big.bin", String(repeating: "stale asset\n", count: 20_000))
        try sandbox.git("-C", "work", "push", "-q", "origin", "stale")
        try sandbox.git("-C", "work", "checkout", "-q", "main")
        let main = try sandbox.git("-C", "work", "rev-parse", "main")
        try sandbox.git("-C", "work", "tag", "on-main")
        try sandbox.git("-C", "work", "push", "-q", "origin", "on-main")

        for (label, revision) in [("default", ShallowRevision.remoteDefault), ("named", .named("main"))] {
            _ = try engine.clone(url: sandbox.remoteURL, to: sandbox.path(label), remote: "origin",
                                 options: TransferOptions(depth: 1, shallowRevision: revision))
            #expect(try sandbox.git("-C", label, "for-each-ref", "--format=%(refname)", "refs/remotes/") == "refs/remotes/origin/HEAD\nrefs/remotes/origin/main")
            #expect(try sandbox.git("-C", label, "rev-parse", "origin/main") == main)
            #expect(try sandbox.git("-C", label, "tag", "--list") == "on-main\nv1")  // the tags on the tip
            #expect(throws: (any Error).self) { try sandbox.git("-C", label, "cat-file", "-e", stale) }
            #expect(try sandbox.git("-C", label, "config", "--get-all", "remote.origin.fetch") == "+refs/heads/*:refs/remotes/origin/*")
        }
        // the next fetch brings the other branches, as in any clone
        try sandbox.git("-C", "named", "fetch", "-q", "origin")
        #expect(try sandbox.git("-C", "named", "rev-parse", "origin/stale") == stale)

        _ = try engine.clone(url: sandbox.remoteURL, to: sandbox.path("tag"), remote: "origin",
                             options: TransferOptions(depth: 1, shallowRevision: .named("v1")))
        #expect(try sandbox.git("-C", "tag", "rev-parse", "v1^{commit}") == sandbox.git("-C", "work", "rev-parse", "v1^{commit}"))

        let missing = #expect(throws: ModKitError.self) {
            try engine.clone(url: sandbox.remoteURL, to: sandbox.path("missing"), remote: "origin",
                             options: TransferOptions(depth: 1, shallowRevision: .named("nosuch")))
        }
        #expect(missing?.message == "revision 'nosuch' is not a branch or tag of \(sandbox.remoteURL)", "\(String(describing: missing))")
    }

    /// Which revisions a shallow clone can be limited to: branches and tags by name; not commit ids or review refs.
    @Test func shallowRevisionOfAManifestRevision() {
        #expect(ShallowRevision(manifestRevision: nil) == .remoteDefault)
        #expect(ShallowRevision(manifestRevision: "main") == .named("main"))
        #expect(ShallowRevision(manifestRevision: "release/2.x") == .named("release/2.x"))
        #expect(ShallowRevision(manifestRevision: "refs/heads/main") == .named("main"))
        #expect(ShallowRevision(manifestRevision: "refs/tags/v1") == nil)
        #expect(ShallowRevision(manifestRevision: String(repeating: "a", count: 40)) == nil)
        #expect(ShallowRevision(manifestRevision: "refs/pull/12/head") == nil)
        #expect(ShallowRevision(manifestRevision: "pull/12/head") == nil)
    }

    @Test func failureNamesTheCommandWithoutTheCredential() throws {
        let sandbox = try TransferSandbox()
        let error = #expect(throws: ModKitError.self) {
            try engine.clone(url: "http://ada:s3cret@127.0.0.1:9/x.git", to: sandbox.path("clone"), remote: "origin", options: TransferOptions())
        }
        let text = (error?.message ?? "") + (error?.hint ?? "")
        #expect(text.contains("ada@127.0.0.1:9/x.git"))
        #expect(!text.contains("s3cret"))
        #expect(error?.hint?.contains("reachable") == true)
    }

    @Test func aStalledServerIsStoppedAfterTheTimeout() throws {
        let sandbox = try TransferSandbox()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(fd, 4) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)
        // accepts the connection (the kernel's backlog) and never answers
        let start = Date()
        let error = #expect(throws: ModKitError.self) {
            try GitCLIEngine(stallTimeout: 1).clone(url: "git://127.0.0.1:\(port)/silent.git", to: sandbox.path("clone"),
                                                    remote: "origin", options: TransferOptions())
        }
        #expect(error?.message.contains("timed out after 1 s without data from the server") == true)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func progressParserReadsGitsWording() {
        var parser = GitProgressParser()
        let enumerating = parser.consume("remote: Enumerating objects: 12, done.")
        #expect(!enumerating)
        let receiving = parser.consume("Receiving objects:  45% (1234/2742), 12.50 MiB | 5.00 MiB/s")
        #expect(receiving)
        #expect(parser.progress.receivedObjects == 1234)
        #expect(parser.progress.totalObjects == 2742)
        #expect(parser.progress.receivedBytes == 13_107_200)
        let resolving = parser.consume("Resolving deltas: 100% (10/10), done.")
        #expect(resolving)
        #expect(parser.progress.indexedDeltas == 10)
    }
}
