import Foundation
import SpecKit

/// What `modkit develop` has overridden in this workspace, per developer: `.modkit/develop/state.json`, never committed.
public struct DevelopState: Codable, Sendable, Equatable {
    /// One module whose checkout its consumers use.
    public struct Override: Codable, Sendable, Equatable {
        public var module: String
        /// The module's directory, relative to the workspace root.
        public var path: String
        /// When it was turned on (ISO 8601, UTC).
        public var since: String
    }

    /// A consumer file modkit rewrote (a Podfile) or created (an Xcode workspace's `contents.xcworkspacedata`): the
    /// original bytes of a rewritten one are kept under `originals/<key>`, the bytes modkit wrote under `written/<key>`.
    public struct File: Codable, Sendable, Equatable {
        /// Relative to the workspace root.
        public var path: String
        /// `podfile` or `xcworkspace`.
        public var kind: String
        /// The developed modules this file points at.
        public var modules: [String]
        /// The file did not exist before: turning its overrides off removes it.
        public var created: Bool? = nil
    }

    /// A SwiftPM package whose dependency is in edit mode (`swift package edit NAME --path DIR`).
    public struct Package: Codable, Sendable, Equatable {
        /// The consumer package's directory, relative to the workspace root.
        public var path: String
        /// The dependency's package identity, as the consumer resolves it.
        public var dependency: String
        public var module: String
        /// Whether the consumer had a Package.resolved before (its bytes are kept under `originals/<key>`).
        public var hadResolved: Bool
    }

    public var modules: [Override] = []
    public var files: [File] = []
    public var packages: [Package] = []

    public init() {}

    public var isEmpty: Bool { modules.isEmpty && files.isEmpty && packages.isEmpty }

    /// The Xcode workspaces `develop` wrote (their folders, relative to the workspace root), to open in Xcode.
    public var xcodeWorkspaces: [String] {
        files.compactMap { $0.kind == "xcworkspace" ? DevelopState.xcodeWorkspace(ofContents: $0.path) : nil }
    }

    /// `Apps/App/App.modkit-develop.xcworkspace` for the path of its `contents.xcworkspacedata`; nil for any other file.
    public static func xcodeWorkspace(ofContents path: String) -> String? {
        let suffix = "/" + Developer.workspaceContents
        guard path.hasSuffix(suffix) else { return nil }
        let folder = String(path.dropLast(suffix.count))
        return folder.hasSuffix(Developer.workspaceSuffix) ? folder : nil
    }

    /// The name under `originals/` and `written/` that holds a file's bytes: its path with `/` and `%` escaped.
    static func key(_ path: String) -> String {
        var key = ""
        for character in path {
            switch character {
            case "%": key += "%25"
            case "/": key += "%2F"
            default: key.append(character)
            }
        }
        return key
    }

    static func resolvedKey(_ packagePath: String) -> String {
        key((packagePath.isEmpty ? "" : packagePath + "/") + SpecFileName.packageResolved)
    }
}

/// `.modkit/develop/`: the state, the original bytes, and the journal of a run in progress.
public struct DevelopStore: Sendable {
    public let root: URL
    public let directory: URL

    public init(workspaceRoot: URL) {
        root = workspaceRoot
        directory = workspaceRoot.appendingPathComponent(".modkit/develop", isDirectory: true)
    }

    var stateFile: URL { directory.appendingPathComponent("state.json") }
    var originals: URL { directory.appendingPathComponent("originals", isDirectory: true) }
    var written: URL { directory.appendingPathComponent("written", isDirectory: true) }
    /// A run's journal once complete (renamed into place): the next run finishes it.
    public var journal: URL { directory.appendingPathComponent("journal", isDirectory: true) }
    /// Whether a run left a journal (to finish) or a draft (to remove): the next develop must write, under the lock.
    public var hasUnfinishedRun: Bool {
        FileManager.default.fileExists(atPath: journal.path) || FileManager.default.fileExists(atPath: journalDraft.path)
    }

    /// A journal being prepared; a run killed before renaming it changed nothing, and it is removed.
    var journalDraft: URL { directory.appendingPathComponent("journal.new", isDirectory: true) }

    /// The state, or an empty one when nothing is overridden.
    public func load() throws -> DevelopState {
        guard let data = FileManager.default.contents(atPath: stateFile.path) else { return DevelopState() }
        do { return try JSONDecoder().decode(DevelopState.self, from: data) } catch {
            throw ModKitError("cannot read \(stateFile.path): \(error)", hint: "it is modkit's private state; remove .modkit/develop/ and restore the consumer files from git")
        }
    }

    /// Whether any override is active, or a run was interrupted with its journal written.
    public var isActive: Bool {
        FileManager.default.fileExists(atPath: journal.path) || ((try? load())?.isEmpty == false)
    }

    /// The overridden modules (those of an interrupted run's journal included) for the release guard.
    public func activeModules() -> [String] {
        var names = (try? load())?.modules.map(\.module) ?? []
        if let data = FileManager.default.contents(atPath: journal.appendingPathComponent("journal.json").path),
           let entry = try? JSONDecoder().decode(DevelopJournal.Entry.self, from: data) {
            for name in entry.state.modules.map(\.module) + entry.previousModules where !names.contains(name) { names.append(name) }
        }
        return names
    }

    func original(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: originals.appendingPathComponent(DevelopState.key(path)).path).map { [UInt8]($0) }
    }

    func writtenBytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: written.appendingPathComponent(DevelopState.key(path)).path).map { [UInt8]($0) }
    }

    func url(of path: String) -> URL { path.isEmpty ? root : root.appendingPathComponent(path) }
}
