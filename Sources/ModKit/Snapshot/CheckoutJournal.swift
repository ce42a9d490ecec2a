import Foundation

/// The record of a `modkit checkout SNAPSHOT` under way, `.modkit/journal/checkout.json`: written before the first
/// repository moves and removed once every one is at its target, so a run cut short is finished by the next one.
struct CheckoutJournal: Codable, Equatable {
    /// One repository the checkout moves.
    struct Entry: Codable, Equatable {
        /// nil for the manifest repository.
        var module: String?
        /// Relative to the workspace root ("." for the manifest repository).
        var path: String
        /// HEAD's commit before the checkout.
        var old: String
        var target: String
    }

    var snapshot: String
    var branch: String?
    var entries: [Entry]

    static func file(in root: URL) -> URL { JournalDirectory.url(in: root).appendingPathComponent("checkout.json") }

    /// The journal of an interrupted checkout; nil when none is recorded. A journal that cannot be read is an error:
    /// ignoring it would treat half-moved repositories as local changes.
    static func read(in root: URL) throws -> CheckoutJournal? {
        let file = file(in: root)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(CheckoutJournal.self, from: data)
        } catch {
            throw ModKitError("\(file.path) is damaged (\(ErrorText.describe(error)))",
                              hint: "check every module with 'git status', then remove the file")
        }
    }

    func write(in root: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try JournalDirectory.prepare(in: root)
        try AtomicFile.write(try encoder.encode(self), to: Self.file(in: root))
    }

    static func clear(in root: URL) throws {
        let file = file(in: root)
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    /// The command that finishes this checkout.
    var resumeCommand: String {
        "modkit checkout \(snapshot)" + (branch.map { " --branch \($0)" } ?? "")
    }
}

extension SnapshotCheckout {
    /// What `status` and `sync` say while a checkout is interrupted; nil when none is.
    public static func interruptedNotice(root: URL) -> String? {
        guard let journal = try? CheckoutJournal.read(in: root) else {
            return FileManager.default.fileExists(atPath: CheckoutJournal.file(in: root).path)
                ? "\(CheckoutJournal.file(in: root).path) is damaged; check every module with 'git status', then remove it" : nil
        }
        return "a checkout of snapshot \(journal.snapshot) was interrupted (\(journal.entries.count) repositories); "
            + "finish it with '\(journal.resumeCommand)'"
    }
}

/// `.modkit/journal/`: modkit's records of multi-step changes in progress. It ignores itself (a `.gitignore` of `*`),
/// so it stays out of git whatever the committed `.modkit/.gitignore` says.
enum JournalDirectory {
    static func url(in root: URL) -> URL { root.appendingPathComponent(".modkit/journal", isDirectory: true) }

    static func prepare(in root: URL) throws {
        let directory = url(in: root)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ignore = directory.appendingPathComponent(".gitignore")
        if !FileManager.default.fileExists(atPath: ignore.path) {
            try AtomicFile.write(Data("# modkit's journals of changes in progress; never committed.\n*\n".utf8), to: ignore)
        }
    }
}
