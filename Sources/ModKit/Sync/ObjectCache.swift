import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A shared object cache: one bare mirror per remote url, updated by each fetch, from which workspaces'
/// clones borrow objects through `objects/info/alternates`. Safe under concurrent syncs: each mirror has
/// its own lock, and the mirrors never prune objects a borrowing clone may need.
public struct ObjectCache: Sendable {
    /// The cache directory (`--cache DIR`, `MODKIT_CACHE`, the manifest's `cache:`, in that order).
    public let directory: String
    let engine: GitCLIEngine

    public init(directory: String, engine: GitCLIEngine = GitCLIEngine()) {
        self.directory = directory
        self.engine = engine
    }

    /// The cache directory a sync uses, nil when caching is off: the flag, then MODKIT_CACHE, then the manifest.
    public static func directory(flag: String?, environment: [String: String], manifest: String?) -> String? {
        let chosen = flag ?? environment["MODKIT_CACHE"].flatMap { $0.isEmpty ? nil : $0 } ?? manifest
        guard let chosen else { return nil }
        if chosen == "~" || chosen.hasPrefix("~/") {
            return (environment["HOME"] ?? NSHomeDirectory()) + chosen.dropFirst()
        }
        return chosen
    }

    /// `https://user:token@Example.com/Org/Repo.git/` → `https://example.com/Org/Repo`: one mirror per repository.
    public static func normalized(_ url: String) -> String {
        var text = url.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return text[..<scheme.upperBound].lowercased() + authority.lowercased() + rest[authorityEnd...]
    }

    /// Where the mirror of `url` lives: a readable name and a hash of the normalized url.
    public func mirrorPath(for url: String) -> String {
        let key = Self.normalized(url)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let name = key.split(separator: "/").last.map(String.init) ?? "repository"
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return directory + "/" + safe + "-" + String(hash, radix: 16) + ".git"
    }

    /// Brings the mirror of `url` up to date (cloning it the first time) under its lock; returns its path.
    @discardableResult
    public func update(url: String, options: TransferOptions = TransferOptions()) throws(ModKitError) -> String {
        let mirror = mirrorPath(for: url)
        try FileLock.withLock(mirror + ".lock") { () throws(ModKitError) in
            if FileManager.default.fileExists(atPath: mirror + "/HEAD") {
                _ = try engine.run(["-C", mirror, "fetch", "--progress", "--prune", "--force", url,
                                    "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"], options: options)
                return
            }
            let staging = mirror + ".partial"
            try? FileManager.default.removeItem(atPath: staging)
            _ = try engine.run(["clone", "--bare", "--progress", "--", url, staging], options: options)
            // Borrowing clones need every object the mirror ever had: never prune, never auto-gc.
            _ = try engine.run(["-C", staging, "config", "gc.pruneExpire", "never"], options: options)
            _ = try engine.run(["-C", staging, "config", "gc.auto", "0"], options: options)
            do { try FileManager.default.moveItem(atPath: staging, toPath: mirror) } catch {
                throw ModKitError("cannot move the new mirror into \(directory): \(error)")
            }
        }
        return mirror
    }

    /// Clones `url` to `path`, borrowing every object the (freshly updated) mirror has.
    public func clone(url: String, to path: String, options: TransferOptions = TransferOptions()) throws(ModKitError) -> TransferSummary {
        var borrowing = options
        borrowing.reference = try update(url: url, options: options)
        return try engine.clone(url: url, to: path, options: borrowing)
    }
}

extension GitCLIEngine {
    func run(_ arguments: [String], options: TransferOptions) throws(ModKitError) -> TransferSummary {
        let output = try GitProcess(git: git, arguments: arguments).run(stallTimeout: options.stallTimeout,
                                                                        progress: options.progress)
        return TransferSummary(progress: output.progress)
    }
}

/// An exclusive `flock(2)` on a lock file for the duration of `body`; other processes and threads wait.
enum FileLock {
    static func withLock<T>(_ path: String, _ body: () throws(ModKitError) -> T) throws(ModKitError) -> T {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ModKitError("cannot open the cache lock \(path): \(String(cString: strerror(errno)))",
                              hint: "check that the cache directory is writable, or pass --cache DIR")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw ModKitError("cannot lock \(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
