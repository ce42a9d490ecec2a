import Foundation

/// Appends entries to a `.gitignore` file as bytes: every existing byte is kept (any encoding, CRLF, no final newline).
public enum GitIgnore {
    /// Adds `/path/` for each path not already listed; returns the paths it added.
    @discardableResult
    public static func add(_ paths: [String], to file: URL) throws -> [String] {
        let missing = try missingLines(paths, in: file) { path in ["/\(path)/", "/\(path)", "\(path)/", path] }
        guard !missing.isEmpty else { return [] }
        try append(missing.map { "/\($0)/" }, header: "# module repositories (modkit)", to: file)
        return missing
    }

    /// Adds each line not already present, exactly as given; returns the lines it added.
    @discardableResult
    public static func ensure(_ lines: [String], in file: URL) throws -> [String] {
        let missing = try missingLines(lines, in: file) { [$0] }
        if !missing.isEmpty { try append(missing, header: nil, to: file) }
        return missing
    }

    /// The entries none of whose spellings is a line of `file` (lines compared as bytes, surrounding blanks and CR ignored).
    private static func missingLines(_ entries: [String], in file: URL, spellings: (String) -> [String]) throws -> [String] {
        let present = Set(trimmedLines(of: try existingBytes(file)))
        return entries.filter { entry in !spellings(entry).contains { present.contains(Array($0.utf8)) } }
    }

    private static func append(_ lines: [String], header: String?, to file: URL) throws {
        var bytes = try existingBytes(file)
        let newline: [UInt8] = bytes.firstRange(of: [13, 10]) != nil ? [13, 10] : [10]
        if let last = bytes.last, last != 10 { bytes += newline }
        let present = Set(trimmedLines(of: bytes))
        if let header, !present.contains(Array(header.utf8)) { bytes += Array(header.utf8) + newline }
        for line in lines { bytes += Array(line.utf8) + newline }
        try AtomicFile.write(Data(bytes), to: file)
    }

    private static func existingBytes(_ file: URL) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return Array(try Data(contentsOf: file))
    }

    private static func trimmedLines(of bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 10, omittingEmptySubsequences: true).map { line in
            Array(line.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 || $0 == 13 }.reversed())
        }
    }
}
