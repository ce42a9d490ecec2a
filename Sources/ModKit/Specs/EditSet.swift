import Foundation
import SpecKit

/// Planned changes to files, kept in memory as bytes until applied, so a dry run can show exactly
/// what a real run would write, as a unified diff. pin, guard, new and release all plan through it.
public struct EditSet: Sendable {
    /// One file: what it held when first read (nil: it did not exist) and what it will hold.
    public struct File: Sendable {
        public var url: URL
        public var original: [UInt8]?
        public var current: [UInt8]
        /// Whether writing it must be followed by `GuardWriter.settle()` (a Swift guard, so the next build sees it).
        public var settles = false

        public var isChanged: Bool { original != current }
        /// The planned contents as UTF-8 text, for display.
        public var currentText: String { String(decoding: current, as: UTF8.self) }
    }

    public private(set) var files: [File] = []

    public init() {}

    /// The bytes a file will hold after the edits planned so far (or on disk), nil when it does not exist.
    public func bytes(of url: URL) -> [UInt8]? {
        if let file = files.first(where: { $0.url == url }) { return file.current }
        return FileManager.default.contents(atPath: url.path).map { [UInt8]($0) }
    }

    /// The planned contents as UTF-8 text; for files modkit writes itself (CHANGELOG, VERSION, modkit.yml).
    public func text(of url: URL) -> String? {
        bytes(of: url).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Replaces a file's planned bytes by `transform(current)`; returning nil leaves it unchanged.
    /// `settles` marks a Swift guard: `apply` then waits into the next second (see `GuardWriter.settle()`).
    public mutating func updateBytes(_ url: URL, settles: Bool = false, _ transform: ([UInt8]?) throws -> [UInt8]?) rethrows {
        let current = bytes(of: url)
        guard let new = try transform(current), new != current else { return }
        if let index = files.firstIndex(where: { $0.url == url }) {
            files[index].current = new
            files[index].settles = files[index].settles || settles
        } else {
            var file = File(url: url, original: current, current: new)
            file.settles = settles
            files.append(file)
        }
    }

    /// Replaces a UTF-8 text file's planned text by `transform(current)`; spec files go through `updateBytes`.
    public mutating func update(_ url: URL, settles: Bool = false, _ transform: (String?) throws -> String?) rethrows {
        try updateBytes(url, settles: settles) { bytes in try transform(bytes.map { String(decoding: $0, as: UTF8.self) }).map { Array($0.utf8) } }
    }

    public var changed: [File] { files.filter(\.isChanged) }

    /// Unified diffs of every changed file, paths as the user sees them.
    public func diff() -> String {
        changed.map { unifiedDiff(old: $0.original ?? [], new: $0.current, path: Workspace.displayPath(of: $0.url)) }.joined()
    }

    /// Writes every changed file atomically, creating folders as needed.
    public func apply() throws {
        for file in changed {
            try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(file.current), to: file.url)
        }
        if changed.contains(where: \.settles) { GuardWriter.settle() }
    }
}
