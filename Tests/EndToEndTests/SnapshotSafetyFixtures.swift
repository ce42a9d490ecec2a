import Foundation
import Testing

extension Sandbox {
    /// A workspace of `count` module repositories, each with two commits that differ in `files` + 40 paths: v1 has
    /// `Old/` (20 files) and a file `New`; v2 rewrites every `Sources/` file, deletes `Old/` and makes `New` a folder
    /// of 20 files. Snapshot `v1` is tagged at the first commits; then every module is back on main (v2) and the
    /// manifest repository has one more commit, so `checkout v1` moves every repository.
    @discardableResult
    func makeTwoSnapshotProduct(_ count: Int, files: Int) throws -> [String] {
        let names = Sandbox.moduleNames(count)
        try FileManager.default.createDirectory(at: url("remotes"), withIntermediateDirectories: true)
        for name in names {
            let work = "src/\(name)"
            try write("Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '1.0.0'\nend\n", to: "\(work)/\(name).podspec")
            for index in 0..<files { try write("// \(name) \(index) first\n", to: "\(work)/Sources/F\(index).swift") }
            for index in 0..<20 { try write("old \(index)\n", to: "\(work)/Old/O\(index).txt") }
            try write("a file that becomes a folder\n", to: "\(work)/New")
            try git("init", "-q", "-b", "main", in: work)
            try git("add", "-A", in: work)
            try git("commit", "-qm", "\(name) first", in: work)
            for index in 0..<files { try write("// \(name) \(index) second\n", to: "\(work)/Sources/F\(index).swift") }
            try FileManager.default.removeItem(at: url("\(work)/Old"))
            try FileManager.default.removeItem(at: url("\(work)/New"))
            for index in 0..<20 { try write("new \(index)\n", to: "\(work)/New/N\(index).txt") }
            try git("add", "-A", in: work)
            try git("commit", "-qm", "\(name) second", in: work)
            try git("clone", "-q", "--bare", work, "remotes/\(name).git")
        }
        try writeManifest(names.map { ($0, nil) })
        try git("init", "-q", "-b", "main", in: "ws")
        let sync = try modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("sync failed: \(sync.err)") }
        try git("add", "-A", in: "ws")
        try git("commit", "-qm", "Product", in: "ws")
        for name in names { try git("checkout", "-q", "--detach", "HEAD~1", in: "ws/Libs/\(name)") }
        let tag = try modkit("tag", "v1", in: "ws")
        guard tag.status == 0 else { throw SandboxError("tag failed: \(tag.err)") }
        for name in names { try git("checkout", "-q", "main", in: "ws/Libs/\(name)") }
        try write("after v1\n", to: "ws/NOTES.md")
        try git("add", "NOTES.md", in: "ws")
        try git("commit", "-qm", "After v1", in: "ws")
        return names
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
