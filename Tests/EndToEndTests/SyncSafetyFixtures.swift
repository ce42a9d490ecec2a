import Foundation
import Testing

/// A workspace with one module `Mod` cloned by `modkit sync`, whose source repository (`src/Mod`) the test changes
/// and pushes; plus the checks every sync-safety test makes: user files byte for byte, every ref and reachable commit.
struct SafetyWorkspace {
    let sandbox: Sandbox
    let module = "ws/Libs/Mod"
    let source = "src/Mod"

    /// `prepare` runs before the first sync, e.g. to mount a small file system where the module goes.
    init(files: [String: String] = [:], prepare: (Sandbox) throws -> Void = { _ in }) throws {
        sandbox = try Sandbox()
        try prepare(sandbox)
        try sandbox.makeRemote("Mod")
        for (path, text) in files { try sandbox.write(text, to: "\(source)/\(path)") }
        if !files.isEmpty { try commitAndPush("Add fixture files") }
        try sandbox.writeManifest([("Mod", nil)])
        let clone = try sandbox.modkit("sync", in: "ws")
        guard clone.status == 0 else { throw SandboxError("first sync failed: \(clone.err)") }
    }

    /// Commits everything in the source repository and pushes it; returns the new commit.
    @discardableResult
    func commitAndPush(_ message: String) throws -> String {
        try sandbox.git("add", "-A", in: source)
        try sandbox.git("commit", "-qm", message, in: source)
        try sandbox.git("push", "-q", sandbox.url("remotes/Mod.git").path, "HEAD:main", in: source)
        return try sandbox.git("rev-parse", "HEAD", in: source)
    }

    func head() throws -> String { try sandbox.git("rev-parse", "HEAD", in: module) }

    func sync() throws -> ProcessResult { try sandbox.modkit("sync", in: "ws") }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: sandbox.url("\(module)/\(path)").path) }

    /// Every ref with its target, and every commit reachable from any ref.
    func history() throws -> (refs: Set<String>, commits: Set<String>) {
        let refs = try sandbox.git("for-each-ref", "--format=%(refname) %(objectname)", in: module)
        let commits = try sandbox.git("rev-list", "--all", in: module)
        return (Set(refs.split(separator: "\n").map(String.init)), Set(commits.split(separator: "\n").map(String.init)))
    }

    /// `git status` as porcelain lines, untracked and ignored files included.
    func status() throws -> [String] {
        // Not `Sandbox.git`, which trims the leading space of " M file".
        try sandbox.run("/usr/bin/env", ["git", "status", "--porcelain", "--untracked-files=all", "--ignored"], in: sandbox.url(module))
            .out.split(separator: "\n").map(String.init).sorted()
    }

    /// Asserts a refused move: exit 1, `kept:` with the reason, and nothing written — same HEAD, refs, status and files.
    func expectKept(_ result: ProcessResult, mentioning texts: [String], headBefore: String, statusBefore: [String],
                    historyBefore: (refs: Set<String>, commits: Set<String>), files: [String: Data?],
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.status == 1, "\(result.out)\n\(result.err)", sourceLocation: sourceLocation)
        let output = result.out + result.err
        #expect(output.contains("kept:"), "\(output)", sourceLocation: sourceLocation)
        for text in texts { #expect(output.contains(text), "expected '\(text)' in: \(output)", sourceLocation: sourceLocation) }
        #expect(try head() == headBefore, sourceLocation: sourceLocation)
        #expect(try status() == statusBefore, sourceLocation: sourceLocation)
        let after = try history()
        #expect(after.refs.subtracting(historyBefore.refs).allSatisfy { $0.hasPrefix("refs/remotes/") }, sourceLocation: sourceLocation)
        #expect(historyBefore.commits.isSubset(of: after.commits), sourceLocation: sourceLocation)
        for (path, data) in files { #expect(bytes(path) == data, "\(path) changed", sourceLocation: sourceLocation) }
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("\(module)/.git/modkit/move").path), sourceLocation: sourceLocation)
    }

    /// Asserts a completed move: HEAD at `commit`, nothing but the expected status lines, `git fsck` clean, no journal.
    func expectAt(_ commit: String, status expected: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try head() == commit, sourceLocation: sourceLocation)
        let actual = try status()
        #expect(actual == expected.sorted(), "status: \(actual)", sourceLocation: sourceLocation)
        let fsck = try sandbox.run("/usr/bin/env", ["git", "fsck", "--no-progress"], in: sandbox.url(module))
        #expect(fsck.status == 0 && fsck.err.isEmpty, "\(fsck.err)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("\(module)/.git/modkit/move").path), sourceLocation: sourceLocation)
    }
}
