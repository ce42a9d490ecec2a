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

    /// What `modkit init --import` did.
    public struct ImportOutcome: Sendable {
        public var manifest: Manifest
        /// The modules as imported, with every warning about what could not be carried over.
        public var imported: ImportResult
        /// Paths added to the manifest repository's `.gitignore`.
        public var ignoredPaths: [String]
    }

    public static func initialize(at root: URL, workspaceName: String? = nil) throws -> Result {
        try refuseExistingManifest(at: root)
        let repositories = RepositoryScanner.scan(root)
        let name = workspaceName ?? ManifestWriter.identifier(from: root.lastPathComponent)
        let text = ManifestWriter.render(workspace: name, repositories: repositories)
        let (manifest, ignored) = try write(text, at: root)
        let hasSubmodules = FileManager.default.fileExists(atPath: root.appendingPathComponent(".gitmodules").path)
        return Result(manifest: manifest, repositories: repositories, ignoredPaths: ignored, hasSubmodules: hasSubmodules)
    }

    /// Writes `modkit.yml` imported from another tool's manifest at `source`; a malformed input throws before anything is written.
    public static func importManifest(from source: URL, displayPath: String, format: ImportFormat? = nil, exact: Bool,
                                      at root: URL, workspaceName: String? = nil) throws -> ImportOutcome {
        try refuseExistingManifest(at: root)
        let imported = try ManifestImporter.read(source, displayPath: displayPath, format: format, workspaceRoot: root, exact: exact)
        let name = workspaceName ?? ManifestWriter.identifier(from: root.lastPathComponent)
        let text = ManifestWriter.render(workspace: name, imported: imported, exact: exact)
        let (manifest, ignored) = try write(text, at: root)
        return ImportOutcome(manifest: manifest, imported: imported, ignoredPaths: ignored)
    }

    private static func refuseExistingManifest(at root: URL) throws {
        let file = root.appendingPathComponent(ManifestLoader.fileName)
        if FileManager.default.fileExists(atPath: file.path) {
            throw ModKitError.input(
                "\(file.path) already exists; modkit init never overwrites a manifest",
                hint: "edit it, or remove it first to start over"
            )
        }
    }

    /// Validates and writes the manifest text, modkit's private `.gitignore`, and the module paths into the manifest repository's `.gitignore`.
    private static func write(_ text: String, at root: URL) throws -> (Manifest, [String]) {
        let file = root.appendingPathComponent(ManifestLoader.fileName)
        // Read the text back before writing it, so init can never leave an invalid manifest.
        let manifest = try ManifestLoader.parse(text: text, file: file, displayPath: ManifestLoader.fileName)
        try AtomicFile.write(Data(text.utf8), to: file)

        try PrivateState.prepare(root.appendingPathComponent(".modkit", isDirectory: true))

        var ignored: [String] = []
        if Repository.isRepository(root.path) {
            let paths = manifest.modules.filter { $0.kind == .repository }.map(\.path)
            ignored = try GitIgnore.add(paths, to: root.appendingPathComponent(".gitignore"))
        }
        // Repositories that repo or west cloned already keep the ones nested in them out of their status, as after a sync.
        NestedModules.excludeInnerPaths(manifest.modules.filter { $0.kind == .repository }.map(\.path)) { manifest.directory(ofPath: $0) }
        return (manifest, ignored)
    }
}
