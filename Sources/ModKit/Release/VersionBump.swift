import Foundation
import SpecKit

/// Writes a new version into a module's version sources: the manifest's `version:`, the podspec's
/// `s.version` (and only that key), a podspec.json `version`, and the `VERSION` file.
public enum VersionBump {
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Plans the bump of `module` to `version` into `edits`; a module with no version source gets a `VERSION` file.
    public static func plan(_ module: Module, in manifest: Manifest, to version: String, edits: inout EditSet) throws {
        let directory = manifest.directory(of: module)
        var bumped = false
        if let location = module.versionLocation {
            try edits.update(manifest.file) { text in
                guard let text else { return nil }
                return try replaceScalar(in: text, line: location.line, column: location.column, with: version, file: manifest.displayPath)
            }
            bumped = true
        }
        let names = module.specs ?? ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        for kind in [SpecFileKind.podspec, .podspecJSON] {
            // Several pods in one module are bumped together when they are in lockstep (all at the same version).
            let files = VersionReader.versionFiles(names, kind: kind, preferred: module.name).map { directory.appendingPathComponent($0) }
            let declared = files.map { url in edits.bytes(of: url).flatMap { try? SpecReader.declaration($0, kind: kind)?.version } }
            guard let first = declared.first, declared.allSatisfy({ $0?.literal == first?.literal }) else { continue }
            for (url, found) in zip(files, declared) {
                guard let found else { continue }
                guard let range = found.contentRange else {
                    throw Problem(description: "\(Workspace.displayPath(of: url)):\(found.span.line): the version is not a plain string ('\(found.expression)'); set it by hand")
                }
                try edits.updateBytes(url) { bytes in try bytes.map { try TextEdit.apply([TextEdit(range: range, replacement: version)], to: $0) } }
                bumped = true
            }
        }
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("VERSION").path) || !bumped {
            edits.update(directory.appendingPathComponent("VERSION")) { _ in version + "\n" }
        }
    }

    /// Replaces the quoted string that starts at 1-based `line`:`column` (the opening quote) with `version`.
    static func replaceQuoted(in text: String, line: Int, column: Int, with version: String, file: String) throws -> String {
        guard let start = index(in: text, line: line, column: column), let quote = text[start...].first,
              quote == "'" || quote == "\"" else {
            throw Problem(description: "\(file):\(line):\(column): expected a quoted version")
        }
        let contentStart = text.index(after: start)
        guard let end = text[contentStart...].firstIndex(of: quote) else {
            throw Problem(description: "\(file):\(line):\(column): unterminated version string")
        }
        return text.replacingCharacters(in: contentStart..<end, with: version)
    }

    /// Replaces a YAML scalar (plain or quoted) at `line`:`column` with `version`, keeping its quotes.
    static func replaceScalar(in text: String, line: Int, column: Int, with version: String, file: String) throws -> String {
        guard let start = index(in: text, line: line, column: column) else {
            throw Problem(description: "\(file):\(line):\(column): cannot find the version to bump")
        }
        if let first = text[start...].first, first == "'" || first == "\"" {
            return try replaceQuoted(in: text, line: line, column: column, with: version, file: file)
        }
        let end = text[start...].firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "#" || $0 == "," || $0 == "}" }
            ?? text.endIndex
        return text.replacingCharacters(in: start..<end, with: version)
    }

    /// The index of 1-based `line`:`column` (columns count characters).
    static func index(in text: String, line: Int, column: Int) -> String.Index? {
        var currentLine = 1
        var index = text.startIndex
        while currentLine < line {
            guard let newline = text[index...].firstIndex(of: "\n") else { return nil }
            index = text.index(after: newline)
            currentLine += 1
        }
        return text.index(index, offsetBy: column - 1, limitedBy: text.endIndex)
    }
}
