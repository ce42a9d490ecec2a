import Foundation

/// One release as saved in `.modkit/release/<name>.state`: the plan made when it started (modules, versions, tags),
/// what it was asked, and how far it got, so `--resume` continues exactly that release.
public struct ReleaseState: Sendable, Codable, Equatable {
    public var name: String
    public var request: ReleasePlan.Request
    public var released: [ReleasedModule]
    public var tags: [ReleaseTag]
    public var branch: String?
    public var steps: [String]
    public var completed: [String]
    /// The step that stopped the run, if one did.
    public var failed: String?
    /// Files the release changed, relative to the workspace root: the only files its commits stage.
    public var files: [String]
    /// Modules whose publish command succeeded.
    public var published: [String]
    public var updated: String

    public init(plan: ReleasePlan, request: ReleasePlan.Request) {
        name = plan.name
        self.request = request
        released = plan.released
        tags = plan.tags
        branch = plan.branch
        steps = plan.steps.map(\.name)
        completed = []
        files = []
        published = []
        updated = ""
    }

    static func file(for name: String, in workspace: Workspace) -> URL {
        workspace.root.appendingPathComponent(".modkit/release/\(name).state")
    }

    /// The saved state of release `name`, nil when none was started.
    public static func load(_ name: String, in workspace: Workspace) throws -> ReleaseState? {
        let url = file(for: name, in: workspace)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(ReleaseState.self, from: data)
        } catch {
            throw ModKitError.input("\(Workspace.displayPath(of: url)) is not a release state file this modkit can read",
                                    hint: "discard it with 'modkit release \(name) --abandon' and start the release again")
        }
    }

    func save(in workspace: Workspace) throws {
        var copy = self
        copy.updated = ISO8601DateFormatter().string(from: Date())
        try PrivateState.prepare(workspace.root.appendingPathComponent(".modkit", isDirectory: true))
        let url = ReleaseState.file(for: name, in: workspace)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(copy), to: url)
    }

    /// Removes the saved state of release `name`; false when there was none.
    public static func discard(_ name: String, in workspace: Workspace) throws -> Bool {
        let url = file(for: name, in: workspace)
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        try FileManager.default.removeItem(at: url)
        return true
    }
}
