import Foundation
import YAMLKit

/// Finds, reads and validates modkit.yml.
public enum ManifestLoader {
    public static let fileName = "modkit.yml"

    /// The nearest modkit.yml in `directory` or above it, the way git finds `.git`.
    public static func discover(from directory: URL) -> URL? {
        var current = directory.standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(fileName)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            let parent = current.deletingLastPathComponent().standardizedFileURL
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Reads and validates `file`; `displayPath` defaults to the path relative to the current directory when the file lies below it.
    public static func load(file: URL, displayPath: String? = nil) throws(ManifestError) -> Manifest {
        let file = file.standardizedFileURL
        let shown = displayPath ?? Self.displayPath(of: file)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            let reason = FileManager.default.fileExists(atPath: file.path) ? "cannot read \(shown)" : "\(shown) does not exist"
            throw ManifestError(diagnostics: [.error(reason, hint: "run 'modkit init' to create a manifest, or pass '--manifest FILE'")])
        }
        let text: String
        switch YAMLFileDiagnostics.text(of: [UInt8](data), displayPath: shown) {
        case .success(let decoded): text = decoded
        case .failure(let diagnostic): throw ManifestError(diagnostics: [diagnostic])
        }
        return try parse(text: text, file: file, displayPath: shown)
    }

    /// The manifest's text for an edit, every byte kept, a byte order mark too (Foundation's UTF-8 reading drops it).
    static func textForEditing(_ file: URL) throws -> String {
        String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }

    /// Validates manifest text as if read from `file`; throws every problem at once.
    public static func parse(text: String, file: URL, displayPath: String) throws(ManifestError) -> Manifest {
        var decoder = ManifestDecoder(text: text, displayPath: displayPath)
        let root: YAMLNode?
        do {
            root = try YAML.parse(text)
        } catch {
            throw ManifestError(diagnostics: [decoder.file.syntaxError(error)])
        }
        guard var manifest = decoder.decode(root, file: file) else { throw ManifestError(diagnostics: decoder.sortedDiagnostics) }
        if !manifest.imports.isEmpty { WestImports.follow(into: &manifest) }
        return manifest
    }

    /// The path relative to the current directory when the file lies below it (e.g. "modkit.yml"), else the absolute path.
    static func displayPath(of file: URL) -> String {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let path = file.standardizedFileURL.path
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
