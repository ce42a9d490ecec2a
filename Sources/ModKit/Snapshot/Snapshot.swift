import Foundation

/// What `modkit tag` recorded: the commit and version of every module and the manifest repository's own commit.
public struct Snapshot: Sendable, Equatable, Codable {
    /// The manifest repository's commit the snapshot was taken from (the commit adding the snapshot file is its child).
    public struct ManifestState: Sendable, Equatable, Codable {
        public var commit: String
        public var branch: String?

        public init(commit: String, branch: String? = nil) {
            self.commit = commit
            self.branch = branch
        }
    }

    /// One module as recorded: a repository module has url and commit; a directory module is covered by its tag.
    public struct Entry: Sendable, Equatable, Codable {
        public var name: String
        public var kind: Module.Kind
        public var url: String?
        public var path: String
        /// The full commit id of HEAD (repository modules only).
        public var commit: String?
        public var version: String?
        /// The branch HEAD was on, when it was on one.
        public var branch: String?
        /// The tag `modkit tag` made for this module (tag-format or dir-tag-format).
        public var tag: String?

        public init(name: String, kind: Module.Kind, url: String? = nil, path: String, commit: String? = nil,
                    version: String? = nil, branch: String? = nil, tag: String? = nil) {
            self.name = name
            self.kind = kind
            self.url = url
            self.path = path
            self.commit = commit
            self.version = version
            self.branch = branch
            self.tag = tag
        }
    }

    public var name: String
    /// ISO 8601 in UTC, e.g. "2026-11-30T12:00:00Z".
    public var created: String
    public var workspace: String?
    public var manifest: ManifestState?
    /// In manifest order.
    public var modules: [Entry]
    /// Where each module's `path:` is in the file the snapshot was read from, by module name, for errors about the directory it names;
    /// not part of what the snapshot records, so neither written nor compared.
    public var pathLocations: [String: SourceLocation] = [:]

    private enum CodingKeys: String, CodingKey { case name, created, workspace, manifest, modules }

    public static func == (a: Snapshot, b: Snapshot) -> Bool {
        (a.name, a.created, a.workspace, a.manifest, a.modules) == (b.name, b.created, b.workspace, b.manifest, b.modules)
    }

    public init(name: String, created: String, workspace: String? = nil, manifest: ManifestState? = nil, modules: [Entry]) {
        self.name = name
        self.created = created
        self.workspace = workspace
        self.manifest = manifest
        self.modules = modules
    }

    public func module(named name: String) -> Entry? {
        modules.first { $0.name == name }
    }

    /// The snapshot file's path relative to the workspace root.
    public static func relativePath(of name: String) -> String {
        ".modkit/snapshots/\(name).yml"
    }

    /// `created` for a date: ISO 8601, UTC, whole seconds.
    public static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The snapshot tag format before `{workspace}/{snapshot}` became the default; snapshots made with it stay readable.
    public static let formerTagFormat = "{snapshot}"

    /// Expands `{workspace}`, `{snapshot}`, `{module}` and `{version}` in a tag format.
    public static func tagName(format: String, workspace: String = "", snapshot: String, module: String, version: String?) -> String {
        format.replacingOccurrences(of: "{workspace}", with: workspace)
            .replacingOccurrences(of: "{snapshot}", with: snapshot)
            .replacingOccurrences(of: "{module}", with: module)
            .replacingOccurrences(of: "{version}", with: version ?? "")
    }
}
