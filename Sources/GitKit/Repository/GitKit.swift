internal import CLibgit2
internal import CTrustDeferral
import Foundation

/// Process-wide libgit2 facts and settings that are not tied to one repository.
public enum GitKit {
    /// The version of the linked libgit2, as "major.minor.revision", for diagnostics.
    public static var libgit2Version: String {
        ensureInitialized()
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        _ = git_libgit2_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }

    /// Points libgit2's global/XDG/system config search paths (e.g. into a temp dir for tests so ~/.gitconfig never leaks in); nil restores libgit2's default for that level.
    public static func setConfigSearchPath(global: String?, xdg: String?, system: String?) throws {
        ensureInitialized()
        let levels: [(git_config_level_t, String?)] = [
            (GIT_CONFIG_LEVEL_GLOBAL, global), (GIT_CONFIG_LEVEL_XDG, xdg), (GIT_CONFIG_LEVEL_SYSTEM, system),
        ]
        for (level, path) in levels {
            try check(modkit_git_set_search_path(level.rawValue, path), "git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH)")
        }
    }

    /// Starts libgit2's one-time initialisation (which parses the system's CA certificates, several milliseconds)
    /// on a background thread, so it overlaps with the caller's own start-up work.
    public static func initializeInBackground() {
        Thread.detachNewThread { ensureInitialized() }
    }

    /// Waits until the initialisation started by `initializeInBackground()` is done; a process must not exit
    /// while libgit2 is still initialising on another thread (its exit handlers would race with it).
    public static func finishInitialization() {
        ensureInitialized()
    }

    /// Runs `git_libgit2_init()` exactly once per process; every public entry point calls this first.
    static func ensureInitialized() {
        _ = initialization
    }

    /// Lazily and thread-safely evaluated once (Swift guarantees this for static lets). The certificate
    /// bundle libgit2 would parse here is loaded by the first network operation instead (TLSTrust).
    private static let initialization: Int32 = {
        _ = processStart
        modkit_trust_defer_begin()
        defer { modkit_trust_defer_end() }
        return git_libgit2_init()
    }()
}
