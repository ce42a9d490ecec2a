import Foundation
import GitKit

/// A git repository found below a directory, described as `modkit init` records it.
public struct DiscoveredRepository: Sendable, Equatable {
    /// Path relative to the scanned root, with `/` separators.
    public var path: String
    /// The url of the remote named `remote` (or of the only remote), if any.
    public var url: String?
    /// The checked-out branch, or the commit id when HEAD is detached.
    public var revision: String?
}

/// Finds the git repositories below a directory, not descending into a repository once found.
public enum RepositoryScanner {
    /// Folders that never hold module repositories and are expensive to walk.
    static let skipped: Set<String> = [".build", "Pods", "Carthage", "node_modules", "DerivedData", "build"]

    public static func scan(_ root: URL, remote: String = "origin", maximumDepth: Int = 6) -> [DiscoveredRepository] {
        var found: [DiscoveredRepository] = []
        walk(root, relative: "", depth: 0, maximumDepth: maximumDepth, remote: remote, into: &found)
        return found.sorted { $0.path < $1.path }
    }

    private static func walk(_ directory: URL, relative: String, depth: Int, maximumDepth: Int, remote: String, into found: inout [DiscoveredRepository]) {
        guard depth <= maximumDepth else { return }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for entry in entries.sorted() where !entry.hasPrefix(".") && !skipped.contains(entry) {
            let child = directory.appendingPathComponent(entry, isDirectory: true)
            var isDirectory: ObjCBool = false
            let attributes = try? FileManager.default.attributesOfItem(atPath: child.path)
            guard attributes?[.type] as? FileAttributeType != .typeSymbolicLink,
                  FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            let childRelative = relative.isEmpty ? entry : "\(relative)/\(entry)"
            if FileManager.default.fileExists(atPath: child.appendingPathComponent(".git").path) {
                found.append(describe(child, path: childRelative, remote: remote))
            } else {
                walk(child, relative: childRelative, depth: depth + 1, maximumDepth: maximumDepth, remote: remote, into: &found)
            }
        }
    }

    private static func describe(_ directory: URL, path: String, remote: String) -> DiscoveredRepository {
        var repository = DiscoveredRepository(path: path)
        guard let opened = try? Repository.open(directory.path) else { return repository }
        let remotes = (try? opened.remoteNames()) ?? []
        let remoteName = remotes.contains(remote) ? remote : (remotes.count == 1 ? remotes[0] : nil)
        if let remoteName { repository.url = try? opened.remoteURL(remoteName) }
        switch try? opened.head() {
        case .branch(let name, _)?: repository.revision = name
        case .unborn(let name)?: repository.revision = name
        case .detached(let commit)?: repository.revision = commit.hex
        case nil: break
        }
        return repository
    }
}
