import Foundation

/// Progress of one release, kept in `.modkit/release/<version>.state` so `--resume` can continue it.
public struct ReleaseState: Sendable, Codable, Equatable {
    public var version: String
    public var modules: [String]
    public var steps: [String]
    public var completed: [String]
    /// The step that stopped the run, if one did.
    public var failed: String?
    public var updated: String

    public init(version: String, modules: [String], steps: [String]) {
        self.version = version
        self.modules = modules
        self.steps = steps
        completed = []
        updated = ""
    }

    public var isFinished: Bool { failed == nil && steps.allSatisfy(completed.contains) }

    static func file(for version: String, in workspace: Workspace) -> URL {
        workspace.root.appendingPathComponent(".modkit/release/\(version).state")
    }

    /// The saved state of a release of `version`, nil when none was started.
    public static func load(_ version: String, in workspace: Workspace) throws -> ReleaseState? {
        let url = file(for: version, in: workspace)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(ReleaseState.self, from: data)
        } catch {
            throw ModKitError.input("\(Workspace.displayPath(of: url)) is not a release state file modkit can read",
                                    hint: "remove it and run the release again with --from STEP")
        }
    }

    func save(in workspace: Workspace) throws {
        var copy = self
        copy.updated = ISO8601DateFormatter().string(from: Date())
        try PrivateState.prepare(workspace.root.appendingPathComponent(".modkit", isDirectory: true))
        let url = ReleaseState.file(for: version, in: workspace)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(copy), to: url)
    }
}
