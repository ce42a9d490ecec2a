import Foundation
import GitKit

/// Creates a new workspace: scans for repositories, writes a validated `modkit.yml`, and keeps the
/// manifest repository clean by ignoring module repositories and modkit's private state.
public enum WorkspaceInitializer {
    public struct Result: Sendable {
        public var manifest: Manifest
        public var repositories: [DiscoveredRepository]
        /// Paths added to the manifest repository's `.gitignore`.
        public var ignoredPaths: [String]
        /// The directory has a `.gitmodules` file: importing it would keep the recorded commits.
        public var hasSubmodules: Bool
    }

    public static func initialize(at root: URL, workspaceName: String? = nil) throws -> Result {
        let file = root.appendingPathComponent(ManifestLoader.fileName)
        if FileManager.default.fileExists(atPath: file.path) {
            throw ModKitError.input(
                "\(file.path) already exists; modkit init never overwrites a manifest",
                hint: "edit it, or remove it first to start over"
            )
        }
        let repositories = RepositoryScanner.scan(root)
        let name = workspaceName ?? ManifestWriter.identifier(from: root.lastPathComponent)
        let text = ManifestWriter.render(workspace: name, repositories: repositories)
        // Read the text back before writing it, so init can never leave an invalid manifest.
        let manifest = try ManifestLoader.parse(text: text, file: file, displayPath: ManifestLoader.fileName)
        try AtomicFile.write(Data(text.utf8), to: file)

        try PrivateState.prepare(root.appendingPathComponent(".modkit", isDirectory: true))

        var ignored: [String] = []
        if Repository.isRepository(root.path) {
            let paths = manifest.modules.filter { $0.kind == .repository }.map(\.path)
            ignored = try GitIgnore.add(paths, to: root.appendingPathComponent(".gitignore"))
        }
        let hasSubmodules = FileManager.default.fileExists(atPath: root.appendingPathComponent(".gitmodules").path)
        return Result(manifest: manifest, repositories: repositories, ignoredPaths: ignored, hasSubmodules: hasSubmodules)
    }
}

/// Appends entries to a `.gitignore` file without touching its existing lines.
public enum GitIgnore {
    /// Adds `/path/` for each path not already listed; returns the paths it added.
    @discardableResult
    public static func add(_ paths: [String], to file: URL) throws -> [String] {
        let existing = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let present = Set(existing.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = paths.filter { path in
            !present.contains(path) && !present.contains("/\(path)") && !present.contains("/\(path)/") && !present.contains("\(path)/")
        }
        guard !missing.isEmpty else { return [] }
        var text = existing
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        if !text.contains("# module repositories (modkit)") { text += "# module repositories (modkit)\n" }
        text += missing.map { "/\($0)/\n" }.joined()
        try AtomicFile.write(Data(text.utf8), to: file)
        return missing
    }
}
