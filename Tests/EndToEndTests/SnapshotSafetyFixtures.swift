import Foundation
import Testing

extension Sandbox {
    /// A workspace of `count` module repositories, each with two commits that differ in `files` + 41 paths: the
    /// first has `Old/` (20 files) and a file `New`; the second rewrites every `Sources/` file, deletes `Old/` and
    /// makes `New` a folder of 20 files. Snapshot `v1` is tagged with every module at its first commit (tag `first`);
    /// then the manifest follows main, every module is synced to its second commit and the manifest repository
    /// commits that, so `checkout v1` moves every repository. Remotes are written by `git fast-import`, two git
    /// processes a module.
    @discardableResult
    func makeTwoSnapshotProduct(_ count: Int, files: Int) throws -> [String] {
        let names = Sandbox.moduleNames(count)
        try FileManager.default.createDirectory(at: url("remotes"), withIntermediateDirectories: true)
        for name in names {
            let remote = "remotes/\(name).git"
            try git("init", "-q", "--bare", "-b", "main", remote)
            let stream = url("\(name).fast-import")
            try Data(Self.twoCommitStream(name, files: files).utf8).write(to: stream)
            let result = try run("/bin/sh", ["-c", "git fast-import --quiet < '\(stream.path)'"], in: url(remote))
            guard result.status == 0 else { throw SandboxError("fast-import: \(result.err)") }
            try FileManager.default.removeItem(at: stream)
        }
        try writeManifest(names.map { ($0, "first") })
        try git("init", "-q", "-b", "main", in: "ws")
        var sync = try modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("sync failed: \(sync.err)") }
        try git("add", "-A", in: "ws")
        try git("commit", "-qm", "Product at first", in: "ws")
        let tag = try modkit("tag", "v1", in: "ws")
        guard tag.status == 0 else { throw SandboxError("tag failed: \(tag.err)") }
        try writeManifest(names.map { ($0, nil) })
        sync = try modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("second sync failed: \(sync.err)") }
        try git("commit", "-qam", "Product follows main", in: "ws")
        return names
    }

    /// A `git fast-import` stream of the two commits `makeTwoSnapshotProduct` describes, main at the second and tag `first`.
    private static func twoCommitStream(_ name: String, files: Int) -> String {
        func file(_ path: String, _ text: String) -> String { "M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n" }
        func commit(_ message: String, time: Int) -> String {
            "commit refs/heads/main\ncommitter modkit test <test@modkit.invalid> \(time) +0000\ndata \(message.utf8.count)\n\(message)\n"
        }
        var stream = commit("\(name) first", time: 1_700_000_000)
        stream += file("\(name).podspec", "Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '1.0.0'\nend\n")
        for index in 0..<files { stream += file("Sources/F\(index).swift", "// \(name) \(index) first\n") }
        for index in 0..<20 { stream += file("Old/O\(index).txt", "old \(index)\n") }
        stream += file("New", "a file that becomes a folder\n")
        stream += "\nreset refs/tags/first\nfrom refs/heads/main\n\n"
        stream += commit("\(name) second", time: 1_700_000_100)
        for index in 0..<files { stream += file("Sources/F\(index).swift", "// \(name) \(index) second\n") }
        stream += "D Old\nD New\n"
        for index in 0..<20 { stream += file("New/N\(index).txt", "new \(index)\n") }
        return stream + "\n"
    }

    /// An untracked and an ignored file (via `.git/info/exclude`) in module `name`, neither touched by the snapshots.
    func addUserFiles(to name: String) throws -> [String: Data] {
        let base = "ws/Libs/\(name)"
        try write("my notes for \(name)\n", to: "\(base)/Notes/mine.txt")
        try write("SECRET_\(name) = 1\n", to: "\(base)/Config.local.xcconfig")
        try write("Config.local.xcconfig\n", to: "\(base)/.git/info/exclude")
        return try userFileContents([name])
    }

    /// The bytes of the user files `addUserFiles` wrote, by path.
    func userFileContents(_ names: [String]) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in names {
            for file in ["Notes/mine.txt", "Config.local.xcconfig"] {
                let path = "ws/Libs/\(name)/\(file)"
                contents[path] = FileManager.default.contents(atPath: url(path).path)
            }
        }
        return contents
    }

    /// Every ref with its target, and every reachable commit, of the repository at `directory`.
    func reachable(in directory: String) throws -> String {
        try git("for-each-ref", "--format=%(refname) %(objectname)", in: directory) + "\n"
            + git("rev-list", "--all", in: directory)
    }

    /// HEAD, `git status --porcelain --ignored` and the refs of every module and the manifest repository.
    func workspaceState(_ names: [String]) throws -> [String: String] {
        var state: [String: String] = [:]
        for directory in ["ws"] + names.map({ "ws/Libs/\($0)" }) {
            state[directory] = try git("rev-parse", "HEAD", in: directory) + "\n"
                + git("status", "--porcelain", "--ignored", in: directory) + "\n" + reachable(in: directory)
        }
        return state
    }
}
