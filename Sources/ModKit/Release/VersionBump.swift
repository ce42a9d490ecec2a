import Foundation

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
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        if let podspec = VersionReader.pick(names, suffix: ".podspec", preferred: module.name) {
            let url = directory.appendingPathComponent(podspec)
            try edits.update(url) { text in
                guard let text, let found = VersionReader.PodspecVersion.find(in: text) else { return nil }
                guard found.literal != nil else {
                    throw Problem(description: "\(Workspace.displayPath(of: url)):\(found.line): s.version is not a plain string ('\(found.expression ?? "")'); set it by hand")
                }
                return try replaceQuoted(in: text, line: found.line, column: found.column, with: version, file: Workspace.displayPath(of: url))
            }
            bumped = true
        }
        if let json = VersionReader.pick(names, suffix: ".podspec.json", preferred: module.name) {
            edits.update(directory.appendingPathComponent(json)) { text in
                guard let text, let range = topLevelJSONVersion(in: text) else { return nil }
                return text.replacingCharacters(in: range, with: version)
            }
            bumped = true
        }
        if names.contains("VERSION") || !bumped {
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

    /// The range of the top-level `"version"` value of a podspec.json (the text between its quotes).
    static func topLevelJSONVersion(in text: String) -> Range<String.Index>? {
        var depth = 0
        var index = text.startIndex
        var inString = false
        var stringStart = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" {
                    index = text.index(after: index)
                } else if character == "\"" {
                    inString = false
                    let key = text[text.index(after: stringStart)..<index]
                    if depth == 1 && key == "version" {
                        var cursor = text.index(after: index)
                        while cursor < text.endIndex, text[cursor] == " " || text[cursor] == ":" || text[cursor].isNewline || text[cursor] == "\t" {
                            cursor = text.index(after: cursor)
                        }
                        guard cursor < text.endIndex, text[cursor] == "\"" else { return nil }
                        let valueStart = text.index(after: cursor)
                        guard let valueEnd = text[valueStart...].firstIndex(of: "\"") else { return nil }
                        return valueStart..<valueEnd
                    }
                }
            } else if character == "\"" {
                inString = true
                stringStart = index
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
            }
            index = text.index(after: index)
        }
        return nil
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
