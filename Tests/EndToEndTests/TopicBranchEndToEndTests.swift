import Foundation
import Testing

/// `modkit branches`, `push`, `abandon` and `prune` across three repositories with bare remotes.
@Suite struct TopicBranchEndToEndTests {
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        for name in ["Alpha", "Beta", "Gamma"] { try sandbox.makeRemote(name) }
        try sandbox.write("""
        version: 1
        workspace: Topics
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
          revision: main
        modules:
          - { name: Alpha, url: Alpha.git, path: Alpha }
          - { name: Beta, url: Beta.git, path: Beta }
          - { name: Gamma, url: Gamma.git, path: Gamma }
        """, to: "ws/modkit.yml")
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.status == 0, "\(sync.err)")
        return sandbox
    }

    private struct Listing: Decodable {
        struct Branch: Decodable, Equatable { var branch: String; var current: Bool; var ahead: Int; var unpushed: Int; var merged: Bool; var upstream: String? }
        var module: String?
        var branches: [Branch]
    }

    private func listing(_ sandbox: Sandbox) throws -> [String: [Listing.Branch]] {
        let result = try sandbox.modkit("branches", "--json", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let entries = try JSONDecoder().decode([Listing].self, from: Data(result.out.utf8))
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.module ?? ".", $0.branches) })
    }

    private func commit(_ sandbox: Sandbox, in module: String, file: String) throws -> String {
        try sandbox.write("\(file)\n", to: "ws/\(module)/\(file)")
        try sandbox.git("add", "-A", in: "ws/\(module)")
        try sandbox.git("commit", "-qm", "feat: \(file)", in: "ws/\(module)")
        return try sandbox.git("rev-parse", "HEAD", in: "ws/\(module)")
    }

    @Test func branchesPushAbandonAndPruneAcrossRepositories() throws {
        let sandbox = try workspace()
        #expect(try sandbox.modkit("start", "topic", "Alpha", "Beta", in: "ws").status == 0)
        let first = try commit(sandbox, in: "Alpha", file: "one.txt")

        var branches = try listing(sandbox)
        #expect(branches["Alpha"]?.map(\.branch) == ["topic"])
        #expect(branches["Alpha"]?.first?.current == true && branches["Alpha"]?.first?.ahead == 1 && branches["Alpha"]?.first?.unpushed == 1)
        #expect(branches["Beta"]?.first?.ahead == 0 && branches["Beta"]?.first?.merged == true)
        #expect(branches["Gamma"] == [])

        let push = try sandbox.modkit("push", in: "ws")
        #expect(push.status == 0, "\(push.err)")
        #expect(push.out.contains("pushed 1 commit to origin/topic"), "\(push.out)")
        #expect(push.out.contains("no commits on topic") && push.out.contains("not on a topic branch"), "\(push.out)")
        #expect(try sandbox.git("rev-parse", "refs/heads/topic", in: "remotes/Alpha.git") == first)
        #expect(try sandbox.git("rev-parse", "--abbrev-ref", "topic@{upstream}", in: "ws/Alpha") == "origin/topic")
        #expect((try? sandbox.git("rev-parse", "--verify", "-q", "refs/heads/topic", in: "remotes/Beta.git")) == nil)
        #expect(try sandbox.modkit("push", "topic", in: "ws").out.contains("topic is pushed"))

        // Abandon: Alpha has a commit pushed nowhere and keeps the branch; Beta's has none and goes.
        let second = try commit(sandbox, in: "Alpha", file: "two.txt")
        let abandon = try sandbox.modkit("abandon", "topic", in: "ws")
        #expect(abandon.status == 1)
        #expect(abandon.out.contains("1 commit on topic pushed nowhere"), "\(abandon.out)")
        #expect(try sandbox.git("rev-parse", "topic", in: "ws/Alpha") == second)
        #expect(try sandbox.git("symbolic-ref", "--short", "HEAD", in: "ws/Beta") == "main")
        #expect((try? sandbox.git("rev-parse", "--verify", "-q", "refs/heads/topic", in: "ws/Beta")) == nil)
        #expect(try sandbox.read("ws/Alpha/two.txt") == "two.txt\n")

        // Prune: Gamma's branch merged upstream goes; Alpha's unmerged topic stays.
        try sandbox.git("checkout", "-q", "-b", "done", in: "ws/Gamma")
        let merged = try commit(sandbox, in: "Gamma", file: "done.txt")
        try sandbox.git("push", "-q", "origin", "done:main", in: "ws/Gamma")
        try sandbox.git("checkout", "-q", "main", in: "ws/Gamma")
        #expect(try sandbox.modkit("sync", "Gamma", in: "ws").status == 0)
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Gamma") == merged)
        branches = try listing(sandbox)
        #expect(branches["Gamma"]?.first?.merged == true)
        let prune = try sandbox.modkit("prune", in: "ws")
        #expect(prune.status == 0, "\(prune.out)\(prune.err)")
        #expect(prune.out.contains("deleted done (merged into main)"), "\(prune.out)")
        #expect((try? sandbox.git("rev-parse", "--verify", "-q", "refs/heads/done", in: "ws/Gamma")) == nil)
        #expect(try sandbox.git("rev-parse", "topic", in: "ws/Alpha") == second)
        #expect(try listing(sandbox)["Alpha"]?.map(\.branch) == ["topic"])
    }
}
