/// Every path inside a repository's git directory that modkit reads or writes itself, in one place; nothing else
/// builds one. What the code that reads these files assumes of them:
/// - object ids are SHA-1 (40 hex digits); a SHA-256 repository is refused by libgit2 before any of this runs;
/// - the index is version 2, 3 or 4 (`IndexCacheTree` reads its cache-tree extension, and gives up on anything else);
/// - git 2.36 or newer runs hooks (`git hook run`), and its `read-tree`, `status --porcelain=v1 -z`,
///   `update-index --index-info -z` and `hash-object --stdin-paths` behave as in git 2.39, the version tested;
/// - libgit2 1.5 (Debian 12) to 1.9 (Homebrew) writes the rest; the tests run on 1.5.
public struct GitDirectory: Sendable, Equatable {
    /// This work tree's git directory (`.git`, or `.git/worktrees/NAME` of a linked work tree).
    public let path: String
    /// The directory every work tree shares (objects, refs, config, hooks): `.git` of the main work tree.
    public let common: String

    public init(path: String, common: String) {
        self.path = path
        self.common = common
    }

    public var index: String { path + "/index" }
    public var indexLock: String { index + ".lock" }
    public var headLock: String { path + "/HEAD.lock" }
    /// The lock git takes to write `refs/heads/BRANCH` (or any other reference name given whole).
    public func referenceLock(_ name: String) -> String { common + "/" + name + ".lock" }
    public var shallow: String { common + "/shallow" }
    public var packs: String { common + "/objects/pack" }
    public var defaultHooks: String { common + "/hooks" }
    public var infoAttributes: String { common + "/info/attributes" }
    public var sparseCheckout: String { path + "/info/sparse-checkout" }
    public var worktreeConfig: String { path + "/config.worktree" }
    /// Where the linked work trees' git directories are.
    public var worktrees: String { common + "/worktrees" }
    /// A linked work tree's pointer back to its work tree.
    public var workTreeLink: String { path + "/gitdir" }

    /// modkit's own state inside the git directory.
    public var modkit: String { path + "/modkit" }
    /// The record of a work-tree move in progress.
    public var moveJournal: String { modkit + "/move" }
    /// Half-written files an interrupted git-written move left, saved before they are replaced.
    public var partialWrites: String { modkit + "/partial" }

    /// The marker of an operation git has in progress (`rebase-merge`, `MERGE_HEAD`, …).
    public func operationMarker(_ name: String) -> String { path + "/" + name }
}

extension Repository {
    /// The paths inside this repository's git directory.
    public var directory: GitDirectory { GitDirectory(path: gitDir, common: commonDir) }
}
