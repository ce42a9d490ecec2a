import Foundation
import GitKit

/// Shallow clones (`sync --depth N`, a module's `depth:`) hold only recent history; an older commit, such as one a
/// snapshot records, needs the rest first.
public enum ShallowHistory {
    /// Whether the repository's history is cut off (`.git/shallow`).
    public static func isShallow(_ repository: Repository) -> Bool {
        FileManager.default.fileExists(atPath: repository.directory.shallow)
    }

    /// Fetches the whole history of a shallow repository from `remote` with git (libgit2 before 1.7 cannot); when git
    /// does not run here, throws with the command to run. Does nothing for a repository that is not shallow.
    public static func deepen(_ repository: Repository, remote: String) throws {
        guard isShallow(repository) else { return }
        let directory = repository.workdir ?? repository.gitDir
        guard FetchEngineSetting.gitRunsHere else {
            throw ModKitError("\(directory) is a shallow clone and lacks the older history",
                              hint: "install git, or fetch it in place: git -C \(directory) fetch --unshallow \(remote)")
        }
        try GitCLIEngine().run(["-C", directory, "fetch", "--progress", "--unshallow", "--no-recurse-submodules", "--", remote],
                               url: try repository.remoteURL(remote), progress: nil)
    }
}
