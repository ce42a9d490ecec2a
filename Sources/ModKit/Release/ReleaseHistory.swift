import Foundation
import GitKit

/// A module's commits since its own last version tag: what the plan bumps by and the changelog lists.
struct ReleaseHistory {
    /// The trailer every commit `modkit release` makes carries, so later releases leave it out.
    static let trailer = "Modkit-Release:"

    /// The last version tag (nil when the module was never tagged at its current version).
    var previousTag: String?
    var previousCommit: OID?
    /// Newest first; merges and the release's own commits left out.
    var commits: [CommitInfo]

    /// The version tag of `module` at `version`: `version-tag-format` in its repository, `dir-tag-format` for a directory module.
    static func versionTag(of module: Module, version: String, in manifest: Manifest) -> String {
        let format = module.kind == .repository ? manifest.defaults.versionTagFormat : manifest.defaults.dirTagFormat
        return Snapshot.tagName(format: format, workspace: manifest.workspace, snapshot: "", module: module.name, version: version)
    }

    /// The commits of `module` since its tag at `version`; for a directory module only those touching its folder.
    static func read(_ module: Module, version: String?, workspace: Workspace) throws -> ReleaseHistory {
        let manifest = workspace.manifest
        let repository: Repository
        var folder: String?
        switch module.kind {
        case .repository:
            repository = try Repository.open(manifest.directory(of: module).path)
        case .directory:
            let manifestRepository = try ManifestRepository.open(workspace, for: "modkit release")
            repository = manifestRepository.repository
            folder = manifestRepository.path(module.path)
        }
        guard let head = try repository.head().commit else { return ReleaseHistory(commits: []) }
        let tag = version.map { versionTag(of: module, version: $0, in: manifest) }
        let previous = try tag.flatMap { try repository.tagTarget($0)?.commit }
        let hidden = previous.map { [$0] } ?? []
        let commits = try folder.map { try repository.log(from: head, excluding: hidden, touching: $0) }
            ?? repository.log(from: head, excluding: hidden)
        return ReleaseHistory(previousTag: previous == nil ? nil : tag, previousCommit: previous,
                              commits: commits.filter { $0.parents.count <= 1 && !isReleaseCommit($0.message) })
    }

    /// A commit made by `modkit release`: it has the trailer, or the subject of earlier versions (`Release Core 1.1.0`, `Release 1.1.0`).
    static func isReleaseCommit(_ message: String) -> Bool {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.contains(where: { $0.hasPrefix(trailer) }) { return true }
        let words = (lines.first ?? "").split(separator: " ")
        guard words.first == "Release", words.count == 2 || words.count == 3 else { return false }
        return SemanticVersion(String(words.last!), twoParts: true) != nil
    }
}
