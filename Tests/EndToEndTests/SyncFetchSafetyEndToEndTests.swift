import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `modkit sync` fetching from real remotes in awkward states: clashing tags, deleted and rewritten upstream
/// branches, changed urls, removed modules. Every ref, commit and user file is compared before and after.
@Suite struct SyncFetchSafetyEndToEndTests {
    @Test func aLocalTagIsNeverMovedToTheRemotesTagOfTheSameName() throws {
        let sandbox = try Sandbox()
        for name in ["Tagged", "Other"] { try sandbox.makeRemote(name) }
        try sandbox.writeManifest([("Tagged", nil), ("Other", nil)])
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)

        // A local, unpushed annotated tag on a local commit, and the remote later tags another commit v2.0.
        let local = try sandbox.commitInModule("Tagged")
        try sandbox.git("tag", "-a", "v2.0", "-m", "my release", in: "ws/Libs/Tagged")
        let localTag = try sandbox.git("rev-parse", "refs/tags/v2.0", in: "ws/Libs/Tagged")
        try sandbox.git("reset", "-q", "--hard", "HEAD~1", in: "ws/Libs/Tagged")
        let remoteTip = try sandbox.pushNewCommit("Tagged")
        try sandbox.git("tag", "v2.0", in: "src/Tagged")
        try sandbox.git("tag", "v2.1", in: "src/Tagged")
        try sandbox.git("push", "-q", sandbox.url("remotes/Tagged.git").path, "v2.0", "v2.1", in: "src/Tagged")
        let otherTip = try sandbox.pushNewCommit("Other")
        let before = try sandbox.refsAndCommits("ws/Libs/Tagged")

        let result = try sandbox.modkit("sync", "--json", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let modules = try sandbox.syncJSON(result).modules
        let tagged = try #require(modules.first { $0["name"] as? String == "Tagged" })
        #expect((tagged["detail"] as? String)?.contains("kept local tag v2.0 (would clobber existing tag") == true, "\(tagged)")
        #expect(tagged["keptLocalTags"] as? [String] == ["v2.0"])
        #expect(tagged["outcome"] as? String == "updated")
        #expect(try sandbox.git("rev-parse", "refs/tags/v2.0", in: "ws/Libs/Tagged") == localTag)
        #expect(try sandbox.git("rev-parse", "v2.0^{commit}", in: "ws/Libs/Tagged") == local)
        #expect(try sandbox.git("rev-parse", "refs/tags/v2.1", in: "ws/Libs/Tagged") == remoteTip)
        #expect(try sandbox.head(of: "Tagged") == remoteTip)
        #expect(try sandbox.head(of: "Other") == otherTip)
        // Nothing reachable before is lost; every ref that existed still points where it did, except the fast-forwarded ones.
        let after = try sandbox.refsAndCommits("ws/Libs/Tagged")
        #expect(before.commits.isSubset(of: after.commits))
        for (ref, target) in before.refs where !["refs/heads/main", "refs/remotes/origin/main", "refs/remotes/origin/HEAD"].contains(ref) {
            #expect(after.refs[ref] == target, "\(ref)")
        }
        #expect(try sandbox.git("fsck", "--no-progress", in: "ws/Libs/Tagged").isEmpty)

        // The human output warns too, and a second sync still keeps the tag.
        let again = try sandbox.modkit("sync", in: "ws")
        #expect(again.err.contains("Tagged: kept your local tag v2.0 (would clobber existing tag)"), "\(again.err)")
        #expect(try sandbox.git("rev-parse", "refs/tags/v2.0", in: "ws/Libs/Tagged") == localTag)
    }

    @Test func staleRemoteBranchesArePrunedAndAVanishedUpstreamIsReported() throws {
        let sandbox = try Sandbox()
        for name in ["Feature", "Main"] { try sandbox.makeRemote(name) }
        for name in ["Feature", "Main"] {
            try sandbox.git("branch", "topic", in: "src/\(name)")
            try sandbox.git("push", "-q", sandbox.url("remotes/\(name).git").path, "topic", in: "src/\(name)")
        }
        try sandbox.writeManifest([("Feature", "topic"), ("Main", nil)])
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        let localWork = try sandbox.commitInModule("Feature")
        try sandbox.git("tag", "keep-me", in: "ws/Libs/Main")
        try sandbox.git("branch", "topic", "origin/topic", in: "ws/Libs/Main")
        #expect(try sandbox.git("rev-parse", "--verify", "refs/remotes/origin/topic", in: "ws/Libs/Main").count == 40)

        for name in ["Feature", "Main"] {
            try sandbox.git("push", "-q", sandbox.url("remotes/\(name).git").path, ":topic", in: "src/\(name)")
        }
        let before = try sandbox.refsAndCommits("ws/Libs/Feature")
        let result = try sandbox.modkit("sync", "--json", in: "ws")
        #expect(result.status == 1)
        let modules = try sandbox.syncJSON(result).modules
        let feature = try #require(modules.first { $0["name"] as? String == "Feature" })
        #expect(feature["outcome"] as? String == "kept")
        #expect((feature["detail"] as? String)?.contains("upstream gone: origin/topic was deleted on the remote") == true, "\(feature)")
        let main = try #require(modules.first { $0["name"] as? String == "Main" })
        #expect(main["outcome"] as? String == "upToDate")

        // Pruned: only refs/remotes/origin/topic; local branches, tags and commits stay.
        #expect(try sandbox.git("for-each-ref", "refs/remotes/origin/topic", in: "ws/Libs/Main").isEmpty)
        #expect(try sandbox.git("for-each-ref", "refs/remotes/origin/topic", in: "ws/Libs/Feature").isEmpty)
        #expect(try sandbox.git("rev-parse", "--verify", "refs/heads/topic", in: "ws/Libs/Main").count == 40)
        #expect(try sandbox.git("rev-parse", "--verify", "refs/tags/keep-me", in: "ws/Libs/Main").count == 40)
        #expect(try sandbox.head(of: "Feature") == localWork)
        let after = try sandbox.refsAndCommits("ws/Libs/Feature")
        #expect(before.commits == after.commits)
        var expected = before.refs
        expected.removeValue(forKey: "refs/remotes/origin/topic")
        #expect(after.refs.filter { !$0.key.hasPrefix("refs/modkit/") } == expected.filter { !$0.key.hasPrefix("refs/modkit/") })
        #expect(try sandbox.read("ws/Libs/Feature/LOCAL.md") == "mine\n")
    }

    @Test func aForcePushedUpstreamIsFollowedWithABackupUnlessTheBranchHasItsOwnCommits() throws {
        let sandbox = try Sandbox()
        let names = ["Clean", "Own", "Dirty", "Rewound"]
        for name in names {
            try sandbox.makeRemote(name)
            try sandbox.pushNewCommit(name)
        }
        try sandbox.writeManifest(names.map { ($0, nil) })
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        var oldTips: [String: String] = [:]
        for name in names { oldTips[name] = try sandbox.head(of: name) }
        let own = try sandbox.commitInModule("Own")
        try sandbox.write("unsaved\n", to: "ws/Libs/Dirty/CHANGES.md")
        var newTips: [String: String] = [:]
        for name in ["Clean", "Own", "Dirty"] { newTips[name] = try sandbox.forcePushAmended(name) }
        try sandbox.git("reset", "-q", "--hard", "HEAD~1", in: "src/Rewound")
        try sandbox.git("push", "-q", "--force", sandbox.url("remotes/Rewound.git").path, "HEAD:main", in: "src/Rewound")
        newTips["Rewound"] = try sandbox.git("rev-parse", "HEAD", in: "src/Rewound")
        var before: [String: Set<String>] = [:]
        for name in names { before[name] = try sandbox.refsAndCommits("ws/Libs/\(name)").commits }

        let result = try sandbox.modkit("sync", "--json", in: "ws")
        #expect(result.status == 1)
        let modules = try sandbox.syncJSON(result).modules
        func module(_ name: String) throws -> [String: Any] { try #require(modules.first { $0["name"] as? String == name }) }
        for name in ["Clean", "Rewound"] {
            let entry = try module(name)
            #expect(entry["outcome"] as? String == "updated", "\(entry)")
            #expect((entry["detail"] as? String)?.contains("followed origin/main, which was rewritten (force-pushed)") == true)
            let backup = try #require(entry["backup"] as? String)
            #expect(backup.hasPrefix("refs/modkit/backup/") && backup.hasSuffix("/main"))
            #expect(try sandbox.git("rev-parse", backup, in: "ws/Libs/\(name)") == oldTips[name])
            #expect(try sandbox.head(of: name) == newTips[name])
            #expect(try sandbox.git("status", "--porcelain", in: "ws/Libs/\(name)").isEmpty)
        }
        let kept = try module("Own")
        #expect(kept["outcome"] as? String == "kept")
        let reason = try #require(kept["detail"] as? String)
        #expect(reason.contains("upstream was rewritten: origin/main was force-pushed, and main has 1 commit of its own"), "\(reason)")
        #expect(!reason.contains("diverge"))
        #expect(try sandbox.head(of: "Own") == own)
        let dirty = try module("Dirty")
        #expect((dirty["detail"] as? String)?.contains("kept: local changes; upstream was rewritten") == true, "\(dirty)")
        #expect(try sandbox.read("ws/Libs/Dirty/CHANGES.md") == "unsaved\n")
        for name in names {
            #expect(try before[name]!.isSubset(of: sandbox.refsAndCommits("ws/Libs/\(name)").commits), "\(name)")
        }
        #expect(result.err.isEmpty || !result.err.contains("push it"))

        // Once the change is put away, the next sync (which fetches nothing new) still knows the old tip from the reflog.
        try sandbox.git("checkout", "-q", "--", "CHANGES.md", in: "ws/Libs/Dirty")
        let next = try sandbox.modkit("sync", "--json", in: "ws")
        let followed = try #require(try sandbox.syncJSON(next).modules.first { $0["name"] as? String == "Dirty" })
        #expect((followed["detail"] as? String)?.contains("followed origin/main, which was rewritten") == true, "\(followed)")
        let backup = try #require(followed["backup"] as? String)
        #expect(try sandbox.git("rev-parse", backup, in: "ws/Libs/Dirty") == oldTips["Dirty"])
        #expect(try sandbox.head(of: "Dirty") == newTips["Dirty"])
    }

    @Test func aURLToAnUnrelatedRepositoryIsRefusedAndAMirrorIsAccepted() throws {
        let sandbox = try Sandbox()
        for name in ["Moved", "Mirrored", "Unrelated"] { try sandbox.makeRemote(name) }
        try sandbox.writeManifest([("Moved", nil), ("Mirrored", nil)])
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        let movedOrigin = try sandbox.git("remote", "get-url", "origin", in: "ws/Libs/Moved")
        try sandbox.git("clone", "-q", "--mirror", sandbox.url("remotes/Mirrored.git").path, sandbox.url("mirrors/Mirrored.git").path)
        let mirroredTip = try sandbox.pushNewCommit("Mirrored")
        try sandbox.git("--git-dir", sandbox.url("remotes/Mirrored.git").path, "push", "-q", "--mirror", sandbox.url("mirrors/Mirrored.git").path)
        let base = "file://\(sandbox.url("remotes").path)"
        try sandbox.write("""
            version: 1
            workspace: Fixture
            defaults:
              revision: main
            modules:
              - name: Moved
                url: \(base)/Unrelated.git
                path: Libs/Moved
              - name: Mirrored
                url: file://\(sandbox.url("mirrors/Mirrored.git").path)
                path: Libs/Mirrored

            """, to: "ws/modkit.yml")
        let before = try sandbox.refsAndCommits("ws/Libs/Moved")

        for round in 1...2 {
            let result = try sandbox.modkit("sync", "--json", in: "ws")
            #expect(result.status == 1)
            let modules = try sandbox.syncJSON(result).modules
            let moved = try #require(modules.first { $0["name"] as? String == "Moved" })
            #expect(moved["outcome"] as? String == "failed")
            #expect((moved["detail"] as? String)?.contains("has no history in common with Libs/Moved; remote 'origin' still points at") == true, "\(moved)")
            #expect(try sandbox.git("remote", "get-url", "origin", in: "ws/Libs/Moved") == movedOrigin)
            let after = try sandbox.refsAndCommits("ws/Libs/Moved")
            #expect(after.refs == before.refs, "round \(round)")
            #expect(after.commits == before.commits)
            let mirrored = try #require(modules.first { $0["name"] as? String == "Mirrored" })
            if round == 1 {
                #expect(mirrored["outcome"] as? String == "updated", "\(mirrored)")
                #expect((mirrored["detail"] as? String)?.contains("which shares its history") == true)
            }
            #expect(try sandbox.git("remote", "get-url", "origin", in: "ws/Libs/Mirrored") == "file://\(sandbox.url("mirrors/Mirrored.git").path)")
            #expect(try sandbox.head(of: "Mirrored") == mirroredTip)
        }
    }

    @Test func removedAndRenamedModulesWithWorkAreReportedAndNeverDeleted() throws {
        let sandbox = try Sandbox()
        let names = ["Stays", "Removed", "Renamed", "Gone"]
        for name in names { try sandbox.makeRemote(name) }
        try sandbox.writeManifest(names.map { ($0, nil) })
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        #expect(try sandbox.read("ws/.modkit/placed") == "Libs/Stays\nLibs/Removed\nLibs/Renamed\nLibs/Gone\n")
        #expect(try sandbox.read("ws/.modkit/.gitignore").contains("/placed\n"))

        let unpushed = try sandbox.commitInModule("Removed")
        try sandbox.write("stash me\n", to: "ws/Libs/Renamed/Renamed.podspec")
        try sandbox.git("stash", "-q", in: "ws/Libs/Renamed")
        try sandbox.write("half-done\n", to: "ws/Libs/Renamed/Sources/Renamed/Renamed.swift")
        let renamedBytes = try Data(contentsOf: sandbox.url("ws/Libs/Renamed/Sources/Renamed/Renamed.swift"))
        let base = "file://\(sandbox.url("remotes").path)"
        try sandbox.write("""
            version: 1
            workspace: Fixture
            defaults:
              url-base: \(base)
              revision: main
            modules:
              - name: Stays
                url: Stays.git
                path: Libs/Stays
              - name: Renamed
                url: Renamed.git
                path: Modules/Renamed

            """, to: "ws/modkit.yml")

        let result = try sandbox.modkit("sync", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("Libs/Removed is no longer a module in modkit.yml but still holds work (unpushed commits on main)"), "\(result.err)")
        #expect(result.err.contains("Libs/Renamed is no longer a module in modkit.yml but still holds work (1 uncommitted change, 1 stash)"), "\(result.err)")
        #expect(result.err.contains("Libs/Gone is no longer a module in modkit.yml and holds no unpushed work"), "\(result.err)")
        #expect(try sandbox.head(of: "Removed") == unpushed)
        #expect(try Data(contentsOf: sandbox.url("ws/Libs/Renamed/Sources/Renamed/Renamed.swift")) == renamedBytes)
        #expect(try sandbox.git("stash", "list", in: "ws/Libs/Renamed").split(separator: "\n").count == 1)
        #expect(FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Gone/Gone.podspec").path))
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Modules/Renamed") == sandbox.remoteHead("Renamed"))

        let status = try sandbox.modkit("status", in: "ws")
        #expect(status.err.contains("Libs/Removed is no longer a module in modkit.yml but still holds work"), "\(status.err)")
        #expect(status.err.contains("Libs/Renamed is no longer a module"))
        #expect(!status.err.contains("Libs/Gone"))

        // Once the directory is gone it is no longer mentioned or recorded.
        try FileManager.default.removeItem(at: sandbox.url("ws/Libs/Gone"))
        let later = try sandbox.modkit("sync", in: "ws")
        #expect(!later.err.contains("Libs/Gone"))
        #expect(try !sandbox.read("ws/.modkit/placed").contains("Libs/Gone"))
    }

    @Test func aStalledServerFailsThatModuleAfterTheTimeoutAndTheOthersGoOn() throws {
        let sandbox = try Sandbox()
        for name in ["Fast", "Slow"] { try sandbox.makeRemote(name) }
        let server = try SilentServer(sandbox: sandbox)
        defer { server.stop() }
        try sandbox.writeRemoteManifest([
            ("Fast", "file://\(sandbox.url("remotes/Fast.git").path)"),
            ("Slow", "file://\(sandbox.url("remotes/Slow.git").path)"),
            ("Stalled", "git://127.0.0.1:\(server.port)/Stalled.git"),
        ])
        let started = Date()
        let clone = try sandbox.runRemote(Sandbox.modkitBinary.path, ["sync"], extra: ["MODKIT_TIMEOUT": "2"], in: "ws")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(clone.status == 1)
        #expect(clone.err.contains("Stalled") && clone.err.contains("timed out after 2 s without data from the server"), "\(clone.err)")
        #expect(try sandbox.spawnHead("Fast") == sandbox.spawnRemoteHead("Fast"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Libs/Stalled").path))

        // A module that is already cloned and whose server stalls during fetch, timeout from git config.
        try sandbox.spawnGit("config", "--global", "modkit.timeout", "2")
        try sandbox.spawnGit("remote", "set-url", "origin", "git://127.0.0.1:\(server.port)/Slow.git", in: "ws/Libs/Slow")
        try sandbox.writeRemoteManifest([
            ("Fast", "file://\(sandbox.url("remotes/Fast.git").path)"),
            ("Slow", "git://127.0.0.1:\(server.port)/Slow.git"),
        ])
        let fastTip = try sandbox.spawnPushNewCommit("Fast")
        let begin = Date()
        let fetch = try sandbox.modkitRemote("sync")
        #expect(Date().timeIntervalSince(begin) < 30)
        #expect(fetch.status == 1)
        #expect(fetch.err.contains("Slow") && fetch.err.contains("timed out after 2 s"), "\(fetch.err)")
        #expect(try sandbox.spawnHead("Fast") == fastTip)

        let bad = try sandbox.runRemote(Sandbox.modkitBinary.path, ["sync"], extra: ["MODKIT_TIMEOUT": "soon"], in: "ws")
        #expect(bad.status == 2)
        #expect(bad.err.contains("network timeout 'soon' is not a number of seconds"), "\(bad.err)")
    }
}
