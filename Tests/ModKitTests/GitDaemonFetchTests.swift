import Foundation
import GitKit
@testable import ModKit
import Testing

/// modkit's own fetch from a git daemon (`GitDaemonFetch`), against the real `git daemon`, compared with `git fetch`
/// into a second clone of the same remote. The server's own packet trace (`GIT_TRACE_PACKET`, inherited by the
/// `upload-pack` it starts) shows what the client said, and over how many connections.
@Suite struct GitDaemonFetchTests {
    private static let refspecs = ["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/modkit/remote-tags/origin/*"]

    /// The sandbox's remote served by git daemon with a packet trace, a clone by modkit and one by git, both fetched once.
    private struct Served {
        let sandbox: TransferSandbox
        let daemon: LoopbackGitDaemon
        let repository: Repository
        let engine = GitCLIEngine(downloadsOverListing: true)
        var trace: String { sandbox.path("server-packets.log") }

        init() throws {
            sandbox = try TransferSandbox()
            // history enough that offering everything here would cost round trips: 40 commits and a big text file
            let lines = (1...3_000).map { "line \($0) of a file long enough that a change to it travels as a delta" }
            try sandbox.commit("big.txt", lines.joined(separator: "\n") + "\n")
            for index in 4...40 { try sandbox.commit("history\(index).txt", "history \(index)\n") }
            try sandbox.git("-C", "work", "push", "-q", "origin", "main")
            daemon = try LoopbackGitDaemon(serving: sandbox.root, environment: ["GIT_TRACE_PACKET": sandbox.path("server-packets.log")])
            repository = try engine.clone(url: daemon.url("remote.git"), to: sandbox.path("modkit"), remote: "origin", options: TransferOptions())
            _ = try engine.fetch(repository, remote: "origin", refspecs: [], options: Self.options(likelyMoved: false))
            try sandbox.git("clone", "-q", daemon.url("remote.git"), "git")
            try gitFetch()
        }

        static func options(likelyMoved: Bool) -> FetchOptions {
            var options = FetchOptions(prune: true, downloadTags: .all)
            options.likelyMoved = likelyMoved
            return options
        }

        func gitFetch() throws {
            try sandbox.git("-C", "git", "fetch", "-q", "--prune", "--no-tags", "origin", GitDaemonFetchTests.refspecs[0],
                            GitDaemonFetchTests.refspecs[1])
        }

        func references(_ clone: String) throws -> String {
            try sandbox.git("-C", clone, "for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes", "refs/modkit")
        }

        /// What upload-pack read and wrote, one packet a line ("upload-pack< want …"), from now on.
        func serverPackets(after offset: Int) throws -> [String] {
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            return text.utf8.dropFirst(offset).split(separator: UInt8(ascii: "\n")).compactMap { line in
                let text = String(decoding: line, as: UTF8.self)
                guard let range = text.range(of: "packet: ") else { return nil }
                return String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
        }

        var traceSize: Int { ((try? FileManager.default.attributesOfItem(atPath: trace)[.size]) as? Int) ?? 0 }
    }

    /// A remote that moved (a one-line change to a 3,000-line file, 120 new files: more objects than git unpacks, so
    /// the thin pack the server sends must be completed here) comes over one connection, on which the client said its
    /// wants, its haves and "done" without waiting for an acknowledgement; the clone then holds what git's fetch leaves.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"), arguments: [false, true])
    func aMovedRemoteComesOverOneConnectionWithWantsHavesAndDoneInOneWrite(likelyMoved: Bool) throws {
        let served = try Served()
        let sandbox = served.sandbox
        let before = try sandbox.git("-C", "modkit", "rev-parse", "origin/main")
        var big = try String(contentsOfFile: sandbox.path("work/big.txt"), encoding: .utf8)
        big = big.replacingOccurrences(of: "line 1500 of", with: "line 1500, changed, of")
        try big.write(toFile: sandbox.path("work/big.txt"), atomically: true, encoding: .utf8)
        for index in 1...120 { try "new file \(index)\n".write(toFile: sandbox.path("work/new\(index).txt"), atomically: true, encoding: .utf8) }
        try sandbox.git("-C", "work", "add", "-A")
        try sandbox.git("-C", "work", "commit", "-q", "-m", "Change big.txt, add 120 files")
        try sandbox.git("-C", "work", "tag", "-a", "v2", "-m", "Version 2")
        try sandbox.git("-C", "work", "push", "-q", "origin", "main", "v2")
        let packsBefore = try sandbox.git("-C", "modkit", "count-objects", "-v")
        let offset = served.traceSize

        let report = try served.engine.fetch(served.repository, remote: "origin", refspecs: [],
                                             options: Served.options(likelyMoved: likelyMoved))
        #expect(report.downloadedOverListingBy == .modkit)
        let packets = try served.serverPackets(after: offset)
        try served.gitFetch()
        #expect(try served.references("modkit") == served.references("git"))
        #expect(try sandbox.git("-C", "modkit", "show", "origin/main:big.txt") == sandbox.git("-C", "work", "show", "main:big.txt"))
        #expect(try sandbox.git("-C", "modkit", "fsck", "--no-progress", "--strict", "--no-dangling").isEmpty)
        #expect(try sandbox.git("-C", "modkit", "reflog", "-1", "--format=%gs", "refs/remotes/origin/main") == "fetch origin: fast-forward")
        // 120 new blobs, their tree, the commit and the tag: kept as a pack, as git keeps them
        #expect(packsBefore.contains("packs: 1"), "\(packsBefore)")
        #expect(try sandbox.git("-C", "modkit", "count-objects", "-v").contains("packs: 2"))

        // Listed by a listing of its own first unless it was likely to have moved: one advertisement more.
        let advertisements = packets.filter { $0.hasPrefix("upload-pack> ") && $0.contains("multi_ack") }
        #expect(advertisements.count == (likelyMoved ? 1 : 2), "\(advertisements)")
        let said = packets.filter { $0.hasPrefix("upload-pack< ") }.map { String($0.dropFirst("upload-pack< ".count)) }
        let wants = said.filter { $0.hasPrefix("want ") }
        #expect(wants.count == 2, "\(said)")  // main and v2
        #expect(wants.first?.contains("side-band-64k") == true && wants.first?.contains("thin-pack") == true, "\(wants)")
        #expect(!(wants.first?.contains("multi_ack") ?? true), "\(wants)")
        // the old main, the one have, right before "done": no flush between, which would ask for acknowledgements
        let haves = said.filter { $0.hasPrefix("have ") }
        #expect(haves == ["have \(before)"], "\(said)")
        #expect(Array(said.drop(while: { !$0.hasPrefix("have ") })) == ["have \(before)", "done"], "\(said)")
        #expect(packets.contains("upload-pack> ACK \(before)"), "\(packets.filter { $0.contains("ACK") || $0.contains("NAK") })")
    }

    /// A remote whose history was rewritten and collected, so that nothing offered here is there any more, answers NAK
    /// and sends everything the moved references need; a remote that did not move is told the client wants nothing.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func aRewrittenRemoteIsFetchedWholeAndAnUnmovedOneIsToldNothingIsWanted() throws {
        let served = try Served()
        let sandbox = served.sandbox
        var offset = served.traceSize
        let unchanged = try served.engine.fetch(served.repository, remote: "origin", refspecs: [],
                                                options: Served.options(likelyMoved: true))
        #expect(unchanged.remoteUnchanged && !unchanged.fetchedOverListing)
        // the server's process reads the flush after the client has gone on: wait for it to say so (or give up)
        let deadline = Date().addingTimeInterval(30)
        var quiet: [String] = []
        while quiet.isEmpty, Date() < deadline {
            quiet = try served.serverPackets(after: offset).filter { $0.hasPrefix("upload-pack< ") }
            if quiet.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(quiet == ["upload-pack< 0000"], "\(quiet)")

        try sandbox.git("-C", "work", "checkout", "-q", "--orphan", "rewritten")
        try sandbox.git("-C", "work", "rm", "-q", "-r", "--cached", ".")
        try sandbox.commit("fresh.txt", "a history of its own\n")
        try sandbox.git("-C", "work", "push", "-q", "-f", "origin", "rewritten:main", ":refs/tags/v1")
        try sandbox.git("-C", "remote.git", "reflog", "expire", "--expire=now", "--all")
        try sandbox.git("-C", "remote.git", "gc", "-q", "--prune=now")
        offset = served.traceSize
        let report = try served.engine.fetch(served.repository, remote: "origin", refspecs: [],
                                             options: Served.options(likelyMoved: true))
        #expect(report.downloadedOverListingBy == .modkit)
        #expect(try served.serverPackets(after: offset).contains("upload-pack> NAK"))
        try served.gitFetch()
        #expect(try served.references("modkit") == served.references("git"))
        #expect(try sandbox.git("-C", "modkit", "show", "origin/main:fresh.txt") == "a history of its own")
        #expect(try sandbox.git("-C", "modkit", "reflog", "-1", "--format=%gs", "refs/remotes/origin/main") == "fetch origin: forced-update")
        #expect(try sandbox.git("-C", "modkit", "fsck", "--no-progress", "--strict", "--no-dangling").isEmpty)
    }

    /// A server whose own history is shallow names its shallow commits after its references: the listing reads them, so
    /// a remote that did not move costs no git, and one that moved is fetched by git, which handles such a server.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func aShallowServerIsListedAndWhatMovedOnItIsFetchedByGit() throws {
        let served = try Served()
        let sandbox = served.sandbox
        try sandbox.git("clone", "-q", "--bare", "--depth", "2", "file://" + sandbox.remote, "shallow.git")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("shallow.git/shallow")))
        try sandbox.git("-C", "shallow.git", "config", "daemon.uploadpack", "true")
        try sandbox.git("-C", "modkit", "remote", "set-url", "origin", served.daemon.url("shallow.git"))
        let repository = try Repository.open(sandbox.path("modkit"))
        // its references are main alone (a shallow clone's): the first fetch prunes the others
        _ = try served.engine.fetch(repository, remote: "origin", refspecs: [], options: Served.options(likelyMoved: false))
        let offset = served.traceSize
        let unchanged = try served.engine.fetch(repository, remote: "origin", refspecs: [], options: Served.options(likelyMoved: false))
        #expect(unchanged.remoteUnchanged)
        #expect(try served.serverPackets(after: offset).contains { $0.hasPrefix("upload-pack> shallow ") })

        try sandbox.git("-C", "work", "remote", "add", "shallow", sandbox.path("shallow.git"))
        for likelyMoved in [false, true] {
            let newer = try sandbox.commit("moved.txt", "moved \(likelyMoved)\n")
            try sandbox.git("-C", "work", "push", "-q", "shallow", "main")
            let moved = try served.engine.fetch(repository, remote: "origin", refspecs: [], options: Served.options(likelyMoved: likelyMoved))
            #expect(!moved.remoteUnchanged && !moved.fetchedOverListing)
            #expect(try sandbox.git("-C", "modkit", "rev-parse", "origin/main") == newer)
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("modkit/.git/shallow")))
        #expect(try sandbox.git("-C", "modkit", "fsck", "--no-progress", "--strict", "--no-dangling").isEmpty)
    }

    /// With the fast paths off, git fetches what moved, as before.
    @Test(.enabled(if: LoopbackGitDaemon.isInstalled, "git daemon is not installed"))
    func withTheFastPathsOffGitFetches() throws {
        let served = try Served()
        try served.sandbox.git("-C", "modkit", "config", "modkit.fastPaths", "false")
        let newer = try served.sandbox.commit("moved.txt", "moved\n", push: true)
        let report = try served.engine.fetch(served.repository, remote: "origin", refspecs: [],
                                             options: Served.options(likelyMoved: true))
        #expect(!report.fetchedOverListing && !report.remoteUnchanged)
        #expect(try served.sandbox.git("-C", "modkit", "rev-parse", "origin/main") == newer)
    }
}
