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
        try JournalDirectory.read(file(in: root), hint: "check every module with 'git status', then remove the file")
    }

    func write(in root: URL, gitDir: String) throws {
        try JournalDirectory.write(self, to: Self.file(in: root), root: root, gitDir: gitDir)
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
