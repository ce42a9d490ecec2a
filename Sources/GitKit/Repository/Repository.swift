internal import CLibgit2
import Foundation

/// An open git repository; owns its `git_repository` handle and must stay on one thread at a time.
public final class Repository {
    let pointer: OpaquePointer
    /// `remoteURL`'s answers, by remote name, until GitKit writes this repository's config. Each `git_remote_lookup`
    /// of libgit2 1.5 leaks one PCRE2 match block (~20 KiB, libgit2#6382, fixed in 1.6) per config entry its
    /// `insteadOf` scan does not match: a no-op sync asked three times per module and grew ~750 KiB per module.
    var remoteURLs: [String: String?] = [:]

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        git_repository_free(pointer)
    }

    /// Opens the repository at a work tree or `.git` directory without searching parent directories.
    public static func open(_ path: String) throws -> Repository {
        GitKit.ensureInitialized()
        let pointer = try make("git_repository_open_ext") {
            git_repository_open_ext(&$0, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
        }
        return Repository(pointer: pointer)
    }

    /// Finds the repository containing `path` by walking up like git does; nil when there is none.
    public static func discover(from path: String) throws -> Repository? {
        GitKit.ensureInitialized()
        let pointer = try nilIfNotFound { () throws(GitError) in
            try make("git_repository_open_ext") { git_repository_open_ext(&$0, path, 0, nil) }
        }
        return pointer.map { Repository(pointer: $0) }
    }

    /// Creates a new repository (making missing directories); throws `.exists` when one is already there.
    public static func create(at path: String, bare: Bool = false, initialBranch: String? = nil) throws -> Repository {
        GitKit.ensureInitialized()
        var options = git_repository_init_options()
        try check(git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
                  "git_repository_init_options_init")
        options.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue | GIT_REPOSITORY_INIT_NO_REINIT.rawValue
        if bare { options.flags |= GIT_REPOSITORY_INIT_BARE.rawValue }
        let pointer = try withOptionalCString(initialBranch) { (branch) throws(GitError) in
            options.initial_head = branch
            return try make("git_repository_init_ext") { git_repository_init_ext(&$0, path, &options) }
        }
        return Repository(pointer: pointer)
    }

    /// Wraps a handle that a libgit2 call (e.g. `git_clone`) produced.
    static func adopt(_ pointer: OpaquePointer) -> Repository {
        Repository(pointer: pointer)
    }

    /// From now on reads configuration from a snapshot taken now, for read-only work such as a status scan.
    /// libgit2 otherwise checks every config file (system, global, the repository's) for changes on each
    /// lookup: a status made ~40 such `stat` calls per repository. Writing configuration afterwards fails.
    public func freezeConfiguration() throws {
        let snapshot = try configSnapshot()
        try check(git_repository_set_config(pointer, snapshot.pointer), "git_repository_set_config")
    }

    /// True when `path` is a work tree with a `.git` directory or gitfile, or is itself a git directory.
    public static func isRepository(_ path: String) -> Bool {
        GitKit.ensureInitialized()
        return git_repository_open_ext(nil, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil) == 0
    }

    /// The work tree directory without a trailing slash; nil for a bare repository.
    public var workdir: String? {
        git_repository_workdir(pointer).map { String(cString: $0).withoutTrailingSlash }
    }

    /// The git directory (`.git` or the bare repository itself) without a trailing slash.
    public var gitDir: String {
        String(cString: git_repository_path(pointer)).withoutTrailingSlash
    }

    /// Whether the repository has no work tree.
    public var isBare: Bool {
        git_repository_is_bare(pointer) == 1
    }

    /// Reads a config value as git sees it for this repository (local, then global, XDG and system); nil when unset.
    public func configString(_ key: String) throws -> String? {
        try configSnapshot().string(key)
    }
}

extension Repository {
    /// Several config values from one snapshot, as `configString` reads one; unset (or unreadable) keys are absent.
    func configStrings(_ keys: [String]) -> [String: String] {
        readConfig(keys) { config, key in
            var buf = git_buf()
            return git_config_get_string_buf(&buf, config, key) == 0 ? takeBuf(&buf) : nil
        }
    }

    /// Several boolean config values from one snapshot, parsed as git parses them (`yes`, `on`, `1`, `2`, a key with no
    /// value…); a key that is unset is absent, and one that is not a boolean reads as true (git would refuse to run).
    func configBools(_ keys: [String]) -> [String: Bool] {
        readConfig(keys) { config, key in
            var value: Int32 = 0
            let result = git_config_get_bool(&value, config, key)
            return result == 0 ? value != 0 : result == GIT_ENOTFOUND.rawValue ? nil : true
        }
    }

    /// One snapshot of the configuration as git sees it for this repository (local, then global, XDG and system).
    func configSnapshot() throws(GitError) -> ConfigHandle {
        ConfigHandle(try make("git_repository_config_snapshot") { git_repository_config_snapshot(&$0, pointer) }, owner: self)
    }

    /// Every entry a config iterator visits, in its order, as (name, value); frees the iterator. Names come with
    /// section and key lower-cased, as libgit2 gives them.
    func configEntries(_ iterator: OpaquePointer) throws(GitError) -> [(name: String, value: String)] {
        defer { git_config_iterator_free(iterator) }
        var entries: [(name: String, value: String)] = []
        while true {
            var entry: UnsafeMutablePointer<git_config_entry>?
            let result = git_config_next(&entry, iterator)
            if result == GIT_ITEROVER.rawValue { return entries }
            try check(result, "git_config_next")
            if let entry, let name = entry.pointee.name, let value = entry.pointee.value {
                entries.append((String(cString: name), String(cString: value)))
            }
        }
    }

    /// Each of `keys` that `read` finds in one snapshot of the configuration; nothing when there is no snapshot.
    func readConfig<Value>(_ keys: [String], _ read: (OpaquePointer, String) -> Value?) -> [String: Value] {
        defer { git_error_clear() }
        guard let config = try? configSnapshot() else { return [:] }
        var values: [String: Value] = [:]
        for key in keys {
            if let value = read(config.pointer, key) { values[key] = value }
        }
        return values
    }
}

/// Lends an optional C string to `body` (NULL for nil).
@discardableResult
func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) throws(GitError) -> T) throws(GitError) -> T {
    guard let string else { return try body(nil) }
    let result = string.withCString { pointer in Result { () throws(GitError) -> T in try body(pointer) } }
    return try result.get()
}

extension String {
    var withoutTrailingSlash: String {
        var text = self
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

extension Repository {
    /// The directory shared by every work tree of the repository (`.git` of the main one), without a trailing slash.
    var commonDir: String {
        String(cString: git_repository_commondir(pointer)).withoutTrailingSlash
    }
}

extension ConfigHandle {
    /// The value of `key` in this configuration (the last one git would read); nil when it is unset.
    func string(_ key: String) throws(GitError) -> String? {
        try nilIfNotFound { () throws(GitError) -> String in
            var buf = git_buf()
            try check(git_config_get_string_buf(&buf, pointer, key), "git_config_get_string_buf")
            return takeBuf(&buf)
        }
    }
}
