import Foundation
import Testing

/// `sync --depth N` through the git engine, and a later `checkout` of a snapshot older than the shallow history.
@Suite struct SyncDepthEndToEndTests {
    @Test func shallowSyncThenCheckoutOfAnOlderSnapshotFetchesTheHistory() throws {
        let sandbox = try Sandbox()
        let names = try sandbox.makeProduct(2)
        try sandbox.spawnGit("config", "--global", "modkit.fetchEngine", "git")
        let tagged = try sandbox.modkit("tag", "v1.0.0", in: "ws")
        #expect(tagged.status == 0, "\(tagged.err)")
        try sandbox.git("push", "-q", "origin", "main", "--tags", in: "ws")
        var recorded: [String: String] = [:]
        for name in names {
            recorded[name] = try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/\(name)")
            for _ in 0..<3 { _ = try sandbox.spawnPushNewCommit(name) }
        }

        try sandbox.git("clone", "-q", sandbox.url("remotes/Product.git").path, "ci")
        let shallow = try sandbox.modkit("sync", "--depth", "1", in: "ci")
        #expect(shallow.status == 0, "\(shallow.err)")
        #expect(!shallow.err.contains("the full history is fetched"), "\(shallow.err)")
        for name in names {
            #expect(try sandbox.git("rev-list", "--count", "HEAD", in: "ci/Libs/\(name)") == "1")
            #expect(try sandbox.git("rev-parse", "--is-shallow-repository", in: "ci/Libs/\(name)") == "true")
        }

        let status = try sandbox.modkit("status", in: "ci")
        #expect(status.status == 0, "\(status.out)\n\(status.err)")

        let checkout = try sandbox.modkit("checkout", "v1.0.0", in: "ci")
        #expect(checkout.status == 0, "\(checkout.out)\n\(checkout.err)")
        for name in names {
            #expect(try sandbox.git("rev-parse", "HEAD", in: "ci/Libs/\(name)") == recorded[name])
            #expect(try sandbox.git("rev-parse", "--is-shallow-repository", in: "ci/Libs/\(name)") == "false")
            #expect(try sandbox.git("fsck", "--no-progress", in: "ci/Libs/\(name)").isEmpty)
        }
    }
}

extension SyncDepthEndToEndTests {
    /// A module with `depth: 1` is cloned shallow; the next sync after new commits fast-forwards it (on libgit2 before
    /// 1.7, which cannot walk a cut-off history, after fetching the rest of it, and says so).
    @Test func aShallowModuleFollowsNewCommits() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.spawnGit("config", "--global", "modkit.fetchEngine", "git")
        _ = try sandbox.spawnPushNewCommit("Core")
        try sandbox.writeRemoteManifest([("Core", "file://" + sandbox.url("remotes/Core.git").path)])
        try sandbox.write(try sandbox.read("ws/modkit.yml") + "    depth: 1\n", to: "ws/modkit.yml")
        let fresh = try sandbox.modkitRemote("sync")
        #expect(fresh.status == 0, "\(fresh.err)")
        #expect(try sandbox.spawnGit("rev-list", "--count", "HEAD", in: "ws/Libs/Core") == "1")

        let pushed = try sandbox.spawnPushNewCommit("Core")
        let update = try sandbox.modkitRemote("sync")
        #expect(update.status == 0, "\(update.err)")
        #expect(try sandbox.spawnHead("Core") == pushed)
        #expect(try sandbox.spawnGit("fsck", "--no-progress", in: "ws/Libs/Core").isEmpty)
    }

    /// `--depth 1` clones the manifest revision's branch alone (another branch's tip never arrives); when the manifest
    /// later names another branch, the next sync fetches it and switches to it.
    @Test func aShallowCloneHoldsTheRevisionsBranchAloneUntilTheManifestNamesAnother() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.spawnGit("config", "--global", "modkit.fetchEngine", "git")
        try sandbox.write("topic work\n", to: "src/Core/TOPIC.md")
        try sandbox.spawnGit("checkout", "-q", "-b", "topic", in: "src/Core")
        try sandbox.spawnGit("add", "TOPIC.md", in: "src/Core")
        try sandbox.spawnGit("commit", "-qm", "Topic", in: "src/Core")
        let topic = try sandbox.spawnGit("rev-parse", "HEAD", in: "src/Core")
        try sandbox.spawnGit("push", "-q", sandbox.url("remotes/Core.git").path, "topic", in: "src/Core")
        try sandbox.spawnGit("checkout", "-q", "main", in: "src/Core")
        try sandbox.writeRemoteManifest([("Core", "file://" + sandbox.url("remotes/Core.git").path)])
        let fresh = try sandbox.modkitRemote("sync", "--depth", "1")
        #expect(fresh.status == 0, "\(fresh.err)")
        #expect(try sandbox.spawnGit("for-each-ref", "--format=%(refname)", "refs/remotes/origin/", in: "ws/Libs/Core")
                == "refs/remotes/origin/HEAD\nrefs/remotes/origin/main")
        #expect(throws: (any Error).self) { try sandbox.spawnGit("cat-file", "-e", topic, in: "ws/Libs/Core") }

        try sandbox.write(try sandbox.read("ws/modkit.yml") + "    revision: topic\n", to: "ws/modkit.yml")
        let switched = try sandbox.modkitRemote("sync")
        #expect(switched.status == 0, "\(switched.err)")
        #expect(try sandbox.spawnHead("Core") == topic)
        #expect(try sandbox.spawnGit("rev-parse", "--abbrev-ref", "HEAD", in: "ws/Libs/Core") == "topic")
        #expect(try sandbox.read("ws/Libs/Core/TOPIC.md") == "topic work\n")
        #expect(try sandbox.spawnGit("fsck", "--no-progress", in: "ws/Libs/Core").isEmpty)
    }
}
