import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `modkit new` builds modules before they appear: `.modkit/new/<id>/<n>/`, on the workspace's file system so a rename
/// moves each into place. A journal written after staging and before the first rename lets the next `modkit new` finish an
/// interrupted one: a kill before the journal leaves nothing (the staging folder is removed), a kill after it is rolled forward.
public struct ScaffoldStaging {
    /// What an interrupted `new` still has to do once its modules are staged.
    struct Journal: Codable {
        struct Move: Codable {
            /// Both relative to the workspace root.
            var staged: String
            var target: String
        }
        var command: String
        var pid: Int32
        var manifestFile: String
        var originalManifest: String
        var newManifest: String
        var moves: [Move]
        var ignoredPaths: [String]
    }

    static let folder = ".modkit/new"

    let root: URL
    let id: String

    /// A new, empty staging folder.
    static func create(in root: URL) throws -> ScaffoldStaging {
        let base = root.appendingPathComponent(folder, isDirectory: true)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let ignore = base.appendingPathComponent(".gitignore")
        if !FileManager.default.fileExists(atPath: ignore.path) {
            try AtomicFile.write(Data("# modules 'modkit new' is still building\n*\n".utf8), to: ignore)
        }
        let staging = ScaffoldStaging(root: root, id: "\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: staging.directory, withIntermediateDirectories: false)
        return staging
    }

    var directory: URL { root.appendingPathComponent("\(Self.folder)/\(id)", isDirectory: true) }
    var journalFile: URL { root.appendingPathComponent("\(Self.folder)/\(id).journal") }

    /// The staged folder of module number `index`, relative to the workspace root.
    func stagedPath(_ index: Int) -> String { "\(Self.folder)/\(id)/\(index)" }

    func writeJournal(_ journal: Journal) throws {
        try AtomicFile.write(try JSONEncoder().encode(journal), to: journalFile)
    }

    /// Removes the staging folder and the journal (the journal last: it is what says there is work left).
    func remove() {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: journalFile)
    }

    // MARK: Recovery

    /// Whether an interrupted `modkit new` left anything below `.modkit/new`.
    public static func hasLeftovers(in root: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.contains { $0 != ".gitignore" }
    }

    /// Finishes or clears every interrupted `modkit new` (the caller holds the workspace lock); returns what it did, for the user.
    public static func recover(in root: URL) -> [String] {
        let base = root.appendingPathComponent(folder, isDirectory: true)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []).sorted()
        var messages: [String] = []
        for name in names where name.hasSuffix(".journal") {
            let staging = ScaffoldStaging(root: root, id: String(name.dropLast(".journal".count)))
            guard let data = FileManager.default.contents(atPath: staging.journalFile.path),
                  let journal = try? JSONDecoder().decode(Journal.self, from: data) else {
                staging.remove()
                continue
            }
            messages.append(finish(journal, staging: staging))
        }
        // Staging folders without a journal were interrupted before anything appeared in the workspace.
        for name in names where !name.hasSuffix(".journal") && name != ".gitignore" && !names.contains(name + ".journal") {
            try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
        }
        return messages
    }

    /// Rolls an interrupted `new` forward when the manifest is still the one it edited; else leaves it for the user.
    private static func finish(_ journal: Journal, staging: ScaffoldStaging) -> String {
        let manifest = URL(fileURLWithPath: journal.manifestFile)
        removeTemporaryFiles(next: manifest, of: journal.pid)
        let current = try? ManifestLoader.textForEditing(manifest)
        guard current == journal.newManifest || current == journal.originalManifest else {
            return "an interrupted '\(journal.command)' could not be finished: \(manifest.path) changed since; its files are in \(staging.directory.path)"
        }
        do {
            for move in journal.moves {
                let target = staging.root.appendingPathComponent(move.target, isDirectory: true)
                guard !FileManager.default.fileExists(atPath: target.path) else { continue }
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: staging.root.appendingPathComponent(move.staged, isDirectory: true), to: target)
            }
            if current != journal.newManifest { try AtomicFile.write(Data(journal.newManifest.utf8), to: manifest) }
            if !journal.ignoredPaths.isEmpty {
                try GitIgnore.add(journal.ignoredPaths, to: staging.root.appendingPathComponent(".gitignore"))
            }
        } catch {
            return "an interrupted '\(journal.command)' could not be finished (\(ErrorText.describe(error))); its files are in \(staging.directory.path)"
        }
        staging.remove()
        return "finished the interrupted '\(journal.command)': \(journal.moves.map(\.target).joined(separator: ", ")) registered in \(manifest.lastPathComponent)"
    }

    /// The temporary files `AtomicFile` of process `pid` may have left next to `file` when killed.
    private static func removeTemporaryFiles(next file: URL, of pid: Int32) {
        let directory = file.deletingLastPathComponent()
        let prefix = ".\(file.lastPathComponent).modkit-\(pid)-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
