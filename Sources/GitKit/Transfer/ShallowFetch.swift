internal import CLibgit2

extension GitKit {
    /// Whether the libgit2 modkit is built with can fetch a shallow history (1.7 and later).
    public static var supportsShallowFetch: Bool { modkit_git_supports_shallow() != 0 }
}
