import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 37: a read-only command writes nothing, in the workspace or in any module's `.git`, even when a commit it needs
/// is only on a remote; it names the missing commit and the command that fetches it instead.
@Suite struct ReadOnlyCommandsEndToEndTests {
    /// Every entry below a directory, `.git` included, as bytes, mode and link target, with its modification time and
    /// inode: a file rewritten with the same bytes, or a lock file created and removed again (which touches its directory),
    /// counts as a write.
    struct Digest: Equatable {
        struct Stamp: Equatable {
            var entry: TreeEntry
            var modified: [Int]
            var inode: UInt64
        }
        var stamps: [[UInt8]: Stamp] = [:]

        init(_ directories: [URL]) throws {
            for directory in directories {
                let root = Array(directory.path.utf8)
                stamps[root] = try Self.stamp(.directory(mode: 0), RawFS.lstatInfo(root).orThrow(root))
                try RawFS.walk(root, skippingTopLevelGit: false) { path, entry, info in
                    stamps[RawFS.join(root, path)] = Self.stamp(entry, info)
                }
            }
        }

        private static func stamp(_ entry: TreeEntry, _ info: stat) -> Stamp {
            #if canImport(Darwin)
            let modified = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
            #else
            let modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
            #endif
            return Stamp(entry: entry, modified: modified, inode: UInt64(info.st_ino))
        }

        /// One line per path that was added, removed or changed, and how.
        func differences(to after: Digest) -> [String] {
            var lines: [String] = []
            for path in Set(stamps.keys).union(after.stamps.keys).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let name = RawFS.show(path)
                switch (stamps[path], after.stamps[path]) {
                case (nil, _?): lines.append("created \(name)")
                case (_?, nil): lines.append("removed \(name)")
                case let (a?, b?) where a.entry != b.entry: lines.append("content or mode changed: \(name)")
                case let (a?, b?) where a != b: lines.append("rewritten (time or inode changed): \(name)")
                default: break
                }
            }
            return lines
        }
    }

    /// The workspace `ws` (Mod01…Mod05, Mod02 depending on Mod01, two directory modules) with snapshot v1, and snapshots
    /// v2 and v3 recorded by a teammate's workspace `other`: v2's tag is fetched into `ws`'s manifest repository but its
    /// Mod01 commit is not in `ws/Libs/Mod01`; v3 is only on the manifest remote. Returns v2's Mod01 commit.
    private func workspace(_ sandbox: Sandbox) throws -> String {
        try sandbox.makeProduct(5)
        try sandbox.write("Pod::Spec.new do |s|\n  s.name = 'Mod02'\n  s.version = '1.0.0'\n  s.dependency 'Mod01', '~> 1.0'\nend\n",
                          to: "ws/Libs/Mod02/Mod02.podspec")
        try sandbox.git("commit", "-qam", "Depend on Mod01", in: "ws/Libs/Mod02")
        try sandbox.git("push", "-q", "origin", "HEAD:main", in: "ws/Libs/Mod02")
        let v1 = try sandbox.modkit("tag", "v1", "--push", in: "ws")
        #expect(v1.status == 0, "\(v1.out)\n\(v1.err)")

        try sandbox.git("clone", "-q", sandbox.url("remotes/Product.git").path, "other")
        let sync = try sandbox.modkit("sync", in: "other")
        #expect(sync.status == 0, "\(sync.out)\n\(sync.err)")
        try sandbox.write("// only on the remote\n", to: "other/Libs/Mod01/Remote.swift")
        try sandbox.git("add", "-A", in: "other/Libs/Mod01")
        try sandbox.git("commit", "-qm", "feat: pushed from another workspace", in: "other/Libs/Mod01")
        try sandbox.git("push", "-q", "origin", "HEAD:main", in: "other/Libs/Mod01")
        let remoteOnly = try sandbox.git("rev-parse", "HEAD", in: "other/Libs/Mod01")
        let v2 = try sandbox.modkit("tag", "v2", "--push", in: "other")
        #expect(v2.status == 0, "\(v2.out)\n\(v2.err)")
        try sandbox.git("fetch", "-q", "origin", "refs/tags/v2:refs/tags/v2", in: "ws")
        try sandbox.write("// later\n", to: "other/Libs/Mod03/Later.swift")
        try sandbox.git("add", "-A", in: "other/Libs/Mod03")
        try sandbox.git("commit", "-qm", "fix: later", in: "other/Libs/Mod03")
        try sandbox.git("push", "-q", "origin", "HEAD:main", in: "other/Libs/Mod03")
        let v3 = try sandbox.modkit("tag", "v3", "--push", in: "other")
        #expect(v3.status == 0, "\(v3.out)\n\(v3.err)")

        // Not cloned, uncommitted and staged changes, an untracked file.
        try FileManager.default.removeItem(at: sandbox.url("ws/Libs/Mod04"))
        try sandbox.write("Pod::Spec.new do |s|\n  s.name = 'Mod02'\n  s.version = '1.0.0'\n  s.dependency 'Mod01', '~> 1.0'\n  # edited\nend\n",
                          to: "ws/Libs/Mod02/Mod02.podspec")
        try sandbox.write("scratch\n", to: "ws/Libs/Mod02/Untracked.txt")
        try sandbox.write("staged\n", to: "ws/Libs/Mod05/Staged.txt")
        try sandbox.git("add", "Staged.txt", in: "ws/Libs/Mod05")
        // Stale stat data: same bytes, another modification time, in a module and in the manifest repository.
        let past = Date().addingTimeInterval(-3600)
        for file in ["ws/Libs/Mod03/Mod03.podspec", "ws/modkit.yml", "ws/Libs/Mod01/Mod01.podspec"] {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: sandbox.url(file).path)
        }
        return remoteOnly
    }

    @Test func readOnlyCommandsLeaveEveryFileAsItWas() throws {
        let sandbox = try Sandbox()
        let missing = try workspace(sandbox)
        let short = String(missing.prefix(7))
        // Stale stat data that `git status` (without --no-optional-locks) would write back to the index.
        #expect(try sandbox.git("diff-files", "--name-only", in: "ws/Libs/Mod03") == "Mod03.podspec")
        let watched = [sandbox.url("ws"), sandbox.url("remotes")]

        // (arguments, expected exit status, texts the output must contain)
        let runs: [([String], Int32, [String])] = [
            (["diff", "v1", "v2"], 1, ["Mod01: commit \(short) (snapshot v2) is not in its local repository", "run 'modkit sync Mod01'"]),
            (["diff", "v1", "v2", "--json"], 1, ["Mod01", short, "modkit sync Mod01"]),
            (["diff", "v1", "v2", "--markdown"], 1, [short, "modkit sync Mod01"]),
            (["diff", "v2"], 1, ["Mod01: commit \(short)", "'modkit sync Mod01'", "Mod04: not cloned here", "'modkit sync Mod04'"]),
            (["diff", "v1"], 1, ["Mod04: not cloned here"]),
            (["diff", "v3"], 2, ["no snapshot named 'v3'", "modkit sync"]),
            (["diff", "v3", "--json"], 2, ["no snapshot named 'v3'", "modkit sync"]),
            (["status"], 0, ["not cloned", "modkit sync"]),
            (["status", "-v"], 0, ["Mod03"]),
            (["status", "--short"], 0, []),
            (["status", "--json"], 0, ["notCloned"]),
            (["snapshots"], 0, ["v1", "v2"]),
            (["snapshots", "--json"], 0, ["v2"]),
            (["graph"], 0, ["Mod02"]),
            (["graph", "--format", "json"], 0, ["Mod01"]),
            (["graph", "--format", "dot"], 0, ["Mod01"]),
            (["list"], 0, ["Mod04"]),
            (["list", "--json"], 0, ["Mod04"]),
            (["affected"], 0, []),
            (["affected", "--since", "v2", "--json"], 0, [short, "modkit sync Mod01"]),
            (["affected", "--since", "v3"], 0, []),
            (["affected", "--since", "origin/main"], 0, []),
            (["pin", "--check"], 1, ["Mod01"]),
            (["pin", "--dry-run"], 0, ["Mod01"]),
            (["guard", "--check"], 1, []),
            (["guard", "--dry-run"], 1, ["Mod01Version.h"]),
            (["api"], 0, []),
            (["branches"], 0, []),
            (["export", "--format", "repo"], 0, ["Mod01"]),
            (["doctor"], 0, []),
            (["develop"], 0, ["No module is overridden"]),
            (["develop", "--json"], 0, ["overrides"]),
        ]
        for (arguments, status, texts) in runs {
            let before = try Digest(watched)
            let result = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
            let after = try Digest(watched)
            let command = "modkit " + arguments.joined(separator: " ")
            #expect(before.differences(to: after) == [], "\(command) wrote")
            #expect(result.status == status, "\(command) exit status\n\(result.out)\n\(result.err)")
            for text in texts {
                #expect((result.out + result.err).contains(text), "\(command) does not say '\(text)':\n\(result.out)\n\(result.err)")
            }
        }
        #expect(try sandbox.git("diff-files", "--name-only", in: "ws/Libs/Mod03") == "Mod03.podspec", "still stale")

        // The other modules are still compared; only the one that lacks the commit has an error.
        let report = try #require(try sandbox.json(try sandbox.modkit("diff", "v1", "v2", "--json", in: "ws")) as? [String: Any])
        let modules = try #require(report["modules"] as? [[String: Any]])
        let errors = modules.filter { $0["error"] != nil }.compactMap { $0["name"] as? String }
        #expect(errors == ["Mod01"])
        let mod01 = try #require(modules.first { $0["name"] as? String == "Mod01" })
        #expect(mod01["newCommit"] as? String == missing)
        #expect(((mod01["error"] as? [String: Any])?["message"] as? String)?.contains("modkit sync Mod01") == true)
        #expect(modules.filter { $0["change"] as? String == "unchanged" }.count == modules.count - 1)

        // The commands named do fetch what was missing.
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.status == 0, "\(sync.out)\n\(sync.err)")
        let diff = try sandbox.modkit("diff", "v1", "v3", in: "ws")
        #expect(diff.status == 0, "\(diff.out)\n\(diff.err)")
        #expect(diff.out.contains("\(short) feat: pushed from another workspace"), "\(diff.out)")
        #expect(diff.out.contains("fix: later"), "\(diff.out)")
    }
}

private extension Optional {
    func orThrow(_ path: [UInt8]) throws -> Wrapped {
        guard let value = self else { throw RawFS.failure("lstat", path) }
        return value
    }
}
