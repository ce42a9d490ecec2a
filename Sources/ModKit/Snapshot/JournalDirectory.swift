import Foundation

/// `.modkit/journal/`: modkit's records of multi-step changes in progress. It ignores itself (a `.gitignore` of `*`),
/// so it stays out of git whatever the committed `.modkit/.gitignore` says.
enum JournalDirectory {
    static func url(in root: URL) -> URL { root.appendingPathComponent(".modkit/journal", isDirectory: true) }

    static let ignoreRules = "# modkit's journals of changes in progress; never committed.\n*\n"

    /// Creates the folder with its `.gitignore` in one step (see `InvisibleWrite`): a folder without it would show in
    /// `git status` while it lasts.
    static func prepare(in root: URL, gitDir: String) throws {
        let directory = url(in: root)
        let ignore = directory.appendingPathComponent(".gitignore")
        let rules = Data(ignoreRules.utf8)
        if FileManager.default.contents(atPath: ignore.path) == rules { return }
        if FileManager.default.fileExists(atPath: directory.path) {
            try InvisibleWrite.file(rules, to: ignore, gitDir: gitDir)
        } else {
            try InvisibleWrite.directory(directory, holding: ".gitignore", rules, gitDir: gitDir)
        }
    }

    /// Decodes the journal at `file`; nil when there is none, an error naming the file (and `hint`) when it is damaged.
    static func read<Journal: Decodable>(_ file: URL, hint: String) throws -> Journal? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(Journal.self, from: data)
        } catch {
            throw ModKitError("\(file.path) is damaged (\(ErrorText.describe(error)))", hint: hint)
        }
    }

    /// Writes a journal atomically (temp file, fsync, rename), creating the folder first.
    static func write<Journal: Encodable>(_ journal: Journal, to file: URL, root: URL, gitDir: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try prepare(in: root, gitDir: gitDir)
        try AtomicFile.write(try encoder.encode(journal), to: file)
    }
}
