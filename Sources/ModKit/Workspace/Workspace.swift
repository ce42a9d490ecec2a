import Foundation

/// A loaded workspace: its manifest and the directory it lives in.
public struct Workspace: Sendable {
    public let manifest: Manifest
    /// Where the command runs: module arguments that are paths (`.`, `Libs/Core`) are relative to it.
    public var workingDirectory: URL?

    public var root: URL { manifest.root }

    public init(manifest: Manifest) {
        self.manifest = manifest
    }

    /// Loads the manifest found by walking up from `directory`, like git finds `.git`.
    public static func discover(from directory: URL) throws -> Workspace {
        var workspace = try load(manifestFile: try manifestFile(from: directory))
        workspace.workingDirectory = directory
        return workspace
    }

    /// Throws unless a file (not a folder) exists at `file`: checked before the workspace lock is taken, so a mistyped
    /// `--manifest` creates nothing beside it.
    public static func requireManifest(_ file: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ModKitError.input("no manifest at \(file.path)", hint: "run 'modkit init' to create one")
        }
    }

    /// The modkit.yml in `directory` or its nearest parent that has one, found without reading it.
    public static func manifestFile(from directory: URL) throws -> URL {
        guard let file = ManifestLoader.discover(from: directory) else {
            throw ModKitError.input(
                "no \(ManifestLoader.fileName) found in \(directory.path) or any parent directory",
                hint: "run 'modkit init' to create one, or pass -C DIR / --manifest FILE"
            )
        }
        return file
    }

    /// Loads the manifest at `file`, naming it in diagnostics relative to the current directory.
    public static func load(manifestFile file: URL) throws -> Workspace {
        try requireManifest(file)
        let manifest = try ManifestLoader.load(file: file, displayPath: displayPath(of: file))
        return Workspace(manifest: manifest)
    }

    /// The modules selected by names and groups, in manifest order.
    public func modules(named names: [String] = [], groups: [String] = []) throws -> [Module] {
        try manifest.select(names, groups: groups, from: workingDirectory)
    }

    /// `file` relative to the current directory when it lies below it, else its absolute path.
    public static func displayPath(of file: URL) -> String {
        let current = FileManager.default.currentDirectoryPath
        let path = file.standardizedFileURL.path
        if path.hasPrefix(current + "/") { return String(path.dropFirst(current.count + 1)) }
        return path
    }
}
