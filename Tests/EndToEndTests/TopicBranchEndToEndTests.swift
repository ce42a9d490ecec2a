import Foundation
import Testing

/// `modkit branches`, `push`, `abandon` and `prune` across three repositories with bare remotes.
@Suite struct TopicBranchEndToEndTests {
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.writeFlatWorkspace(["Alpha", "Beta", "Gamma"], workspace: "Topics")
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.status == 0, "\(sync.err)")
        return sandbox
    }

    private struct Listing: Decodable {
        struct Branch: Decodable, Equatable { var branch: String; var current: Bool; var ahead: Int; var unpushed: Int; var merged: Bool; var upstream: String? }
        var name: String?
        var branches: [Branch]
    }

    private struct Report: Decodable {
        var manifest: Listing?
        var modules: [Listing]
    }

    private func listing(_ sandbox: Sandbox) throws -> [String: [Listing.Branch]] {
        let result = try sandbox.modkit("branches", "--json", in: "ws")
        #expect(result.status == 0, "\(result.err)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.out.utf8))
        return Dictionary(uniqueKeysWithValues: ((report.manifest.map { [$0] } ?? []) + report.modules).map { ($0.name ?? ".", $0.branches) })
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

    /// Commits `file` with `text` to the remote's main through a separate clone.
    private func pushUpstream(_ sandbox: Sandbox, _ module: String, file: String, text: String) throws {
        let clone = "upstream-\(module)"
        if !FileManager.default.fileExists(atPath: sandbox.url(clone).path) {
            try sandbox.git("clone", "-q", sandbox.url("remotes/\(module).git").path, clone)
        }
        try sandbox.write(text, to: "\(clone)/\(file)")
        try sandbox.git("add", "-A", in: clone)
        try sandbox.git("commit", "-qm", "upstream \(file)", in: clone)
        try sandbox.git("push", "-q", "origin", "main", in: clone)
    }

    @Test func syncRebaseReplaysTopicsWhereConflictFreeAndKeepsTheRest() throws {
        let sandbox = try workspace()
        #expect(try sandbox.modkit("start", "topic", in: "ws").status == 0)
        _ = try commit(sandbox, in: "Alpha", file: "mine.txt")
        try sandbox.write("public enum Beta { static let mine = 1 }\n", to: "ws/Beta/Sources/Beta/Beta.swift")
        try sandbox.git("commit", "-qam", "feat: mine", in: "ws/Beta")
        let betaTip = try sandbox.git("rev-parse", "HEAD", in: "ws/Beta")
        _ = try commit(sandbox, in: "Gamma", file: "pushed.txt")
        #expect(try sandbox.modkit("push", "Gamma", in: "ws").status == 0)
        let gammaTip = try sandbox.git("rev-parse", "HEAD", in: "ws/Gamma")

        try pushUpstream(sandbox, "Alpha", file: "theirs.txt", text: "theirs\n")
        try pushUpstream(sandbox, "Beta", file: "Sources/Beta/Beta.swift", text: "public enum Beta { static let theirs = 2 }\n")
        try pushUpstream(sandbox, "Gamma", file: "theirs.txt", text: "theirs\n")

        let sync = try sandbox.modkit("sync", "--rebase", in: "ws")
        #expect(sync.status == 1, "\(sync.out)\(sync.err)")
        #expect(sync.out.contains("Alpha: rebased topic onto origin/main: 1 commit"), "\(sync.out)")
        #expect(sync.err.contains("Beta: rebasing topic onto origin/main conflicts"), "\(sync.err)")
        #expect(sync.err.contains("Gamma: topic is pushed"), "\(sync.err)")

        // Alpha: topic now sits on the new main, both files in the work tree, still checked out, nothing dirty.
        let main = try sandbox.git("rev-parse", "origin/main", in: "ws/Alpha")
        #expect(try sandbox.git("rev-parse", "topic^", in: "ws/Alpha") == main)
        #expect(try sandbox.git("log", "-1", "--format=%s", "topic", in: "ws/Alpha") == "feat: mine.txt")
        #expect(try sandbox.git("symbolic-ref", "--short", "HEAD", in: "ws/Alpha") == "topic")
        #expect(try sandbox.read("ws/Alpha/mine.txt") == "mine.txt\n" && sandbox.read("ws/Alpha/theirs.txt") == "theirs\n")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/Alpha") == "")
        // Beta and Gamma: untouched.
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Beta") == betaTip)
        #expect(try sandbox.read("ws/Beta/Sources/Beta/Beta.swift") == "public enum Beta { static let mine = 1 }\n")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/Beta") == "")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/Gamma") == gammaTip)
    }
}
