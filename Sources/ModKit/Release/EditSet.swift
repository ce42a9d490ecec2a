import Foundation
import SpecKit

/// Planned changes to text files, kept in memory until applied, so a dry run can show exactly
/// what a real run would write, as a unified diff.
public struct EditSet: Sendable {
    /// One file: what it held when first read (nil: it did not exist) and what it will hold.
    public struct File: Sendable {
        public var url: URL
        public var original: String?
        public var current: String

        public var isChanged: Bool { original != current }
    }

    public private(set) var files: [File] = []

    public init() {}

    /// The text a file will hold after the edits planned so far (or on disk), nil when it does not exist.
    public func text(of url: URL) -> String? {
        if let file = files.first(where: { $0.url == url }) { return file.current }
        return FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Replaces a file's planned text by `transform(current)`; returning nil leaves it unchanged.
    public mutating func update(_ url: URL, _ transform: (String?) throws -> String?) rethrows {
        let current = text(of: url)
        guard let new = try transform(current), new != current else { return }
        if let index = files.firstIndex(where: { $0.url == url }) {
            files[index].current = new
        } else {
            files.append(File(url: url, original: current, current: new))
        }
    }

    public var changed: [File] { files.filter(\.isChanged) }

    /// Unified diffs of every changed file, paths as the user sees them.
    public func diff() -> String {
        changed.map { unifiedDiff(old: $0.original ?? "", new: $0.current, path: Workspace.displayPath(of: $0.url)) }.joined()
    }

    /// Writes every changed file atomically, creating folders as needed.
    public func apply() throws {
        for file in changed {
            try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(file.current.utf8), to: file.url)
        }
    }
}
