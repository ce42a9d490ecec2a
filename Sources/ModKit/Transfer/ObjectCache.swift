import Foundation
import GitKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A shared object cache: one bare mirror per remote url, updated by each clone through it. A new clone is made
/// from the just-updated mirror with hard links (a copy across file systems), then pointed at the real url, so it
/// never depends on the cache: deleting the cache loses nothing. Each mirror has its own lock, so any number
/// of concurrent syncs share one cache.
public struct ObjectCache: Sendable {
    /// The cache directory (`MODKIT_CACHE`, else `git config modkit.cache`).
    public let directory: String
    let engine: GitCLIEngine

    public init(directory: String, engine: GitCLIEngine = GitCLIEngine()) {
        self.directory = directory
        self.engine = engine
    }

    /// The cache a sync uses: `MODKIT_CACHE`, else `git config modkit.cache`; nil (no cache) when neither is set.
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> ObjectCache? {
        directory(environment: environment, config: GitKit.globalConfigString("modkit.cache")).map { ObjectCache(directory: $0) }
    }

    /// The chosen directory with `~` expanded; nil when caching is off.
    static func directory(environment: [String: String], config: String?) -> String? {
        let chosen = environment["MODKIT_CACHE"].flatMap { $0.isEmpty ? nil : $0 } ?? config
        guard let chosen, !chosen.isEmpty else { return nil }
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
    public func update(url: String, progress: ((TransferProgress) -> Bool)? = nil) throws -> String {
        let mirror = mirrorPath(for: url)
        try FileLock.withLock(mirror + ".lock") { () throws(ModKitError) in try updateLocked(url: url, mirror: mirror, progress: progress) }
        return mirror
    }

    private func updateLocked(url: String, mirror: String, progress: ((TransferProgress) -> Bool)?) throws(ModKitError) {
        if FileManager.default.fileExists(atPath: mirror + "/HEAD") {
            try engine.run(["-C", mirror, "fetch", "--progress", "--prune", "--force", "--no-tags", "--", url,
                            "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"], url: url, progress: progress)
            return
        }
        let staging = mirror + ".partial"
        try? FileManager.default.removeItem(atPath: staging)
        try engine.run(["clone", "--bare", "--progress", "--", url, staging], url: url, progress: progress)
        do { try FileManager.default.moveItem(atPath: staging, toPath: mirror) } catch {
            throw ModKitError("cannot move the new mirror into \(directory): \(error)")
        }
    }

    /// Clones `url` to `path` from its mirror, fetched from `url` under the mirror's lock just before, with hard links;
    /// then points the clone's remote at `url`. One round trip to the server per clone: fetching `url` again would
    /// only repeat what the mirror was just told (the heavy benchmark over git://: 0.1 s per module).
    public func clone(url: String, to path: String, remote: String, options: TransferOptions) throws -> Repository {
        let mirror = mirrorPath(for: url)
        try FileLock.withLock(mirror + ".lock") { () throws(ModKitError) in
            try updateLocked(url: url, mirror: mirror, progress: options.progress)
            try engine.run(["clone", "--no-checkout", "--origin", remote, "--", mirror, path], progress: options.progress)
        }
        let repository = try Repository.open(path)
        try repository.setRemoteURL(remote, url: url)
        return repository
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
                              hint: "check that the cache directory is writable, or change MODKIT_CACHE / git config modkit.cache")
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
