import Foundation

/// Git repositories nested in a work tree (a folder with its own `.git`), as repo and west place projects.
public enum NestedRepositories {
    /// The paths (relative to `workdir`) that lie inside a nested repository, each with that repository's path.
    public static func changes(_ paths: [String], under workdir: String) -> [(path: String, repository: String)] {
        var holds: [String: Bool] = [:]
        var result: [(path: String, repository: String)] = []
        for path in paths.sorted() {
            for ancestor in FileSystem.ancestors(path) {
                let nested = holds[ancestor] ?? (FileSystem.kind(workdir + "/" + ancestor + "/.git") != .missing)
                holds[ancestor] = nested
                if nested {
                    result.append((path, ancestor))
                    break
                }
            }
        }
        return result
    }
}
