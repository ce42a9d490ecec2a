import Foundation
import Testing

/// `modkit status` is not clean while work is unpushed: topic commits, a snapshot commit, a detached HEAD.
@Suite struct StatusTruthEndToEndTests {
    /// Alpha and Beta from bare remotes; the manifest repository pushed to its own bare remote.
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.writeFlatWorkspace(["Alpha", "Beta"], workspace: "Truth")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "manifest", in: "ws")
        try sandbox.git("init", "-q", "--bare", "remotes/manifest.git")
        try sandbox.git("remote", "add", "origin", sandbox.url("remotes/manifest.git").path, in: "ws")
        try sandbox.git("push", "-q", "-u", "origin", "main", in: "ws")
        return sandbox
    }

    private func report(_ sandbox: Sandbox) throws -> (manifest: [String: Any], modules: [String: [String: Any]]) {
        let result = try sandbox.modkit("status", "--json", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["schema"] as? Int == 1)
        let modules = try #require(object["modules"] as? [[String: Any]])
        return (try #require(object["manifest"] as? [String: Any]),
                Dictionary(uniqueKeysWithValues: modules.map { ($0["name"] as? String ?? "", $0) }))
    }

    @Test func unpushedTopicCommitsAndSnapshotCommitAreNotClean() throws {
        let sandbox = try workspace()
        let clean = try sandbox.modkit("status", in: "ws")
        #expect(clean.out.contains("all 2 modules are clean"), "\(clean.out)")
        #expect(!clean.out.contains("(manifest)"))

        // A topic branch with a commit and no upstream.
        #expect(try sandbox.modkit("start", "topic", "Alpha", in: "ws").status == 0)
        try sandbox.write("work\n", to: "ws/Alpha/work.txt")
        try sandbox.git("add", "-A", in: "ws/Alpha")
        try sandbox.git("commit", "-qm", "work", in: "ws/Alpha")
        var (manifest, modules) = try report(sandbox)
        #expect(modules["Alpha"]?["unpushed"] as? Int == 1)
        #expect(modules["Alpha"]?["branch"] as? String == "topic")
        let text = try sandbox.modkit("status", in: "ws").out
        #expect(text.contains("1 commit not pushed") && !text.contains("all 2 modules are clean"), "\(text)")
        #expect(try sandbox.modkit("status", "--short", in: "ws").out.contains("⇡1"))

        // modkit push publishes it: clean again.
        #expect(try sandbox.modkit("push", in: "ws").status == 0)
        (manifest, modules) = try report(sandbox)
        #expect((modules["Alpha"]?["unpushed"] as? Int ?? 0) == 0 && modules["Alpha"]?["ahead"] as? Int == 0)

        // A snapshot without --push: the manifest repository is one commit ahead.
        #expect(try sandbox.modkit("tag", "v1", in: "ws").status == 0)
        (manifest, modules) = try report(sandbox)
        #expect(manifest["ahead"] as? Int == 1, "\(manifest)")
        #expect(manifest["path"] as? String == ".")
        let tagged = try sandbox.modkit("status", in: "ws").out
        #expect(tagged.contains("(manifest)") && tagged.contains("ahead 1"), "\(tagged)")
    }

    @Test func detachedAwayFromTheManifestRevisionAndTopicBehindItsBaseShow() throws {
        let sandbox = try workspace()
        try sandbox.git("checkout", "-q", "--detach", "HEAD", in: "ws/Beta")
        var (_, modules) = try report(sandbox)
        #expect(modules["Beta"]?["detached"] as? Bool == true)
        #expect(modules["Beta"]?["atRevision"] as? Bool == false)
        #expect(try sandbox.modkit("status", in: "ws").out.contains("not at the manifest revision"))
        try sandbox.git("checkout", "-q", "main", in: "ws/Beta")

        // Beta on a topic branch while main moves on upstream.
        #expect(try sandbox.modkit("start", "topic", "Beta", in: "ws").status == 0)
        try sandbox.git("clone", "-q", sandbox.url("remotes/Beta.git").path, "other")
        try sandbox.write("upstream\n", to: "other/upstream.txt")
        try sandbox.git("add", "-A", in: "other")
        try sandbox.git("commit", "-qm", "upstream", in: "other")
        try sandbox.git("push", "-q", "origin", "main", in: "other")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        (_, modules) = try report(sandbox)
        #expect(modules["Beta"]?["behindBase"] as? Int == 1, "\(modules["Beta"] ?? [:])")
        #expect(try sandbox.modkit("status", in: "ws").out.contains("1 behind the manifest branch"))
    }
}
