internal import CLibgit2

/// An error reported by libgit2 (or by GitKit in libgit2's terms), with the failing function named.
public struct GitError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, from libgit2's `git_error_code`, so callers can branch on it.
    public enum Code: Sendable, Equatable {
        case notFound, exists, ambiguous
        /// A callback (e.g. a progress closure returning false) cancelled the operation.
        case user
        case bareRepository, unbornBranch, unmerged, nonFastForward, invalidSpec, conflict, locked, modified
        case auth, certificate, uncommitted, invalid
        /// A network operation heard nothing from the server for `GitKit.networkTimeout` seconds.
        case timeout
        case other(Int32)
    }

    public var code: Code
    /// The libgit2 error class as a word ("net", "ssh", "http", "reference", "checkout", …; "none" if unknown).
    public var errorClass: String
    public var message: String
    /// The libgit2 function that failed, e.g. "git_clone".
    public var function: String

    public init(code: Code, errorClass: String = "none", message: String, function: String) {
        self.code = code
        self.errorClass = errorClass
        self.message = message
        self.function = function
    }

    public var description: String {
        "\(function) failed: \(message) [\(code), class \(errorClass)]"
    }
}

/// Checks a libgit2 return value: negative values become a `GitError` built from `git_error_last()` read at once on this thread.
@discardableResult
func check(_ result: Int32, _ function: String) throws(GitError) -> Int32 {
    guard result < 0 else { return result }
    var errorClass = "none"
    var message = "libgit2 returned \(result)"
    if let last = git_error_last() {
        errorClass = GitError.className(last.pointee.klass)
        if let text = last.pointee.message {
            message = String(cString: text).trimmingTrailingNewlines()
        }
    }
    throw GitError(code: GitError.Code(libgit2: result), errorClass: errorClass, message: message, function: function)
}

extension GitError.Code {
    /// Maps a negative libgit2 return value to a code.
    init(libgit2 value: Int32) {
        switch value {
        case GIT_ENOTFOUND.rawValue: self = .notFound
        case GIT_EEXISTS.rawValue: self = .exists
        case GIT_EAMBIGUOUS.rawValue: self = .ambiguous
        case GIT_EUSER.rawValue: self = .user
        case GIT_EBAREREPO.rawValue: self = .bareRepository
        case GIT_EUNBORNBRANCH.rawValue: self = .unbornBranch
        case GIT_EUNMERGED.rawValue: self = .unmerged
        case GIT_ENONFASTFORWARD.rawValue: self = .nonFastForward
        case GIT_EINVALIDSPEC.rawValue: self = .invalidSpec
        case GIT_ECONFLICT.rawValue, GIT_EMERGECONFLICT.rawValue: self = .conflict
        case GIT_ELOCKED.rawValue: self = .locked
        case GIT_EMODIFIED.rawValue: self = .modified
        case GIT_EAUTH.rawValue: self = .auth
        case GIT_ECERTIFICATE.rawValue: self = .certificate
        case GIT_EUNCOMMITTED.rawValue: self = .uncommitted
        case GIT_EINVALID.rawValue: self = .invalid
        default: self = .other(value)
        }
    }
}

extension GitError {
    private static let classNames = [
        "none", "nomemory", "os", "invalid", "reference", "zlib", "repository", "config", "regex", "odb",
        "index", "object", "net", "tag", "tree", "indexer", "ssl", "submodule", "thread", "stash",
        "checkout", "fetchhead", "merge", "ssh", "filter", "revert", "callback", "cherrypick", "describe",
        "rebase", "filesystem", "patch", "worktree", "sha", "http", "internal",
    ]

    /// The lower-case word for a `git_error_t` value.
    static func className(_ klass: Int32) -> String {
        classNames.indices.contains(Int(klass)) ? classNames[Int(klass)] : "none"
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
