import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The three commits of one case's origin, made once per test run in a source repository that every test of the case
/// pushes from: `commits[0]` is cloned, `commits[1]` is the small update, `commits[2]` the large one.
struct GitExactOrigin: Sendable {
    let source: URL
    let commits: [String]
}

/// Builds each case's source repository once (the two fast-path modes share it) under one directory removed at exit.
final class GitExactOrigins: @unchecked Sendable {
    static let shared = GitExactOrigins()
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-gitexact-\(getpid())")
        .resolvingSymlinksInPath()
    private let lock = NSLock()
    private var built: [GitExactCase: GitExactOrigin] = [:]

    private init() {
        atexit { try? FileManager.default.removeItem(at: GitExactOrigins.root) }
    }

    func origin(for feature: GitExactCase) throws -> GitExactOrigin {
        lock.lock()
        defer { lock.unlock() }
        if let origin = built[feature] { return origin }
        let directory = GitExactOrigins.root.appendingPathComponent(feature.rawValue)
        try? FileManager.default.removeItem(at: directory)
        let home = directory.appendingPathComponent("home")
        let environment = GitExactEnvironment.make(home: home)
        try feature.prepareHome(home, environment: environment)
        let builder = OriginBuilder(root: directory, environment: environment)
        try Exec.git(["init", "-q", "-b", "main", builder.work.path], in: directory, environment: environment)
        var commits: [String] = []
        for stage in 0..<3 {
            try feature.build(stage: stage, builder)
            if stage == 2 { try builder.bulk() }
            commits.append(try builder.commit("stage \(stage + 1) of \(feature.rawValue)"))
        }
        let origin = GitExactOrigin(source: builder.work, commits: commits)
        built[feature] = origin
        return origin
    }
}

enum GitExactEnvironment {
    /// The environment `Sandbox` gives every child process, for another HOME (and git config) than a sandbox's.
    static func make(home: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") && !$0.key.hasPrefix("MODKIT_") }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["GIT_CONFIG_GLOBAL"] = home.appendingPathComponent(".gitconfig").path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["NO_COLOR"] = "1"
        environment["LC_ALL"] = "C"
        return environment
    }

    /// What `Sandbox` writes to its global config.
    static let baseConfig = "[user]\n\tname = modkit test\n\temail = test@modkit.invalid\n[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"
}

/// Writes a case's source repository: files by raw byte paths, index entries git cannot take from a work tree
/// (a blob with CRLF under `text=auto`, a gitlink without a cloned submodule), and commits.
final class OriginBuilder {
    let root: URL
    let work: URL
    let environment: [String: String]
    /// Index entries (`mode,blob`) set after every `git add -A`, until unpinned.
    private var pinned: [String: String] = [:]

    init(root: URL, environment: [String: String]) {
        self.root = root
        work = root.appendingPathComponent("src")
        self.environment = environment
    }

    func path(_ relative: [UInt8]) -> [UInt8] { RawFS.join(Array(work.path.utf8), relative) }

    func text(_ relative: String, _ text: String, executable: Bool = false) throws {
        try RawFS.writeFile(Array(text.utf8), to: path(Array(relative.utf8)), executable: executable)
    }

    func bytes(_ relative: [UInt8], _ bytes: [UInt8], executable: Bool = false) throws {
        try RawFS.writeFile(bytes, to: path(relative), executable: executable)
    }

    func link(_ relative: String, to target: String) throws {
        try RawFS.makeSymlink(Array(target.utf8), at: path(Array(relative.utf8)))
    }

    func remove(_ relative: String) { RawFS.remove(path(Array(relative.utf8))) }

    func remove(bytes relative: [UInt8]) { RawFS.remove(path(relative)) }

    func executable(_ relative: String, _ executable: Bool) throws {
        try RawFS.setExecutable(path(Array(relative.utf8)), executable)
    }

    @discardableResult
    func git(_ arguments: String..., in directory: URL? = nil) throws -> String {
        try Exec.git(arguments, in: directory ?? work, environment: environment).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stores `bytes` as a blob exactly, without filters, and keeps `relative` at it in every later commit.
    func pinBlob(_ relative: String, _ bytes: [UInt8]) throws {
        let file = root.appendingPathComponent("raw-blob")
        try Data(bytes).write(to: file)
        pin(relative, "100644,\(try git("hash-object", "-w", "--no-filters", file.path))")
    }

    /// Keeps `relative` at `entry` (`mode,object`) in every later commit; nil drops it again.
    func pin(_ relative: String, _ entry: String?) { pinned[relative] = entry }

    func commit(_ message: String) throws -> String {
        try git("add", "-A")
        for (path, entry) in pinned.sorted(by: { $0.key < $1.key }) {
            try git("update-index", "--add", "--cacheinfo", "\(entry),\(path)")
        }
        try git("commit", "-q", "--allow-empty", "-m", message)
        return try git("rev-parse", "HEAD")
    }

    /// 150 new small files (over `fetch.unpackLimit` objects), so the update takes the large-fetch path.
    func bulk() throws {
        for number in 0..<150 { try text(String(format: "bulk/f%03d.dat", number), "bulk file \(number)\n") }
    }
}
