import Foundation
import SpecKit

/// A spec file of a module (podspec, Podfile, Package.swift, Cartfile…) with the requirements read from it.
public struct SpecFile: Sendable {
    public var url: URL
    public var kind: SpecFileKind
    /// The file's bytes as read: edits change only requirement spans, whatever the encoding.
    public var bytes: [UInt8]
    public var requirements: [Requirement]
    /// What a podspec or podspec.json declares about its own pod (name, version).
    public var declaration: SpecDeclaration?

    /// The pod a podspec defines: its `s.name`, else its file name without the extension.
    public var podName: String? {
        guard kind == .podspec || kind == .podspecJSON else { return nil }
        return declaration?.name?.literal ?? SpecFormat.baseName(of: url.lastPathComponent)
    }
}

/// A spec file that could not be read; reported with its path and position, never guessed around.
public struct SpecFileProblem: Sendable, Error, CustomStringConvertible {
    public var url: URL
    public var line: Int?
    public var column: Int?
    public var message: String

    public var description: String { "\(url.path)\(line.map { ":\($0)" } ?? "")\(column.map { ":\($0)" } ?? ""): \(message)" }
}

/// Finds and reads the spec files and lock files of a module.
public enum SpecFiles {
    /// The module's spec files: those its `specs:` lists (relative to its directory), else every spec file at its root, in a stable order.
    public static func find(in directory: URL, listed: [String]? = nil) -> [URL] {
        if let listed { return listed.map { directory.appendingPathComponent($0) } }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { SpecFileKind(fileName: $0) != nil }.map { directory.appendingPathComponent($0) }
    }

    /// Reads and parses a spec file; `overlay` supplies planned (not yet written) contents, e.g. in a dry run.
    public static func read(_ url: URL, overlay: EditSet? = nil) -> Result<SpecFile, SpecFileProblem> {
        guard let kind = SpecFileKind(fileName: url.lastPathComponent) else {
            return .failure(SpecFileProblem(url: url, message: "not a spec file modkit reads"))
        }
        var planned = overlay?.bytes(of: url)
        if planned == nil {
            do { planned = try bytesIfPresent(url) } catch {
                return .failure(SpecFileProblem(url: url, line: error.line, column: error.column, message: error.message))
            }
        }
        guard let bytes = planned else { return .failure(SpecFileProblem(url: url, message: "the file does not exist")) }
        do {
            let requirements = try SpecReader.read(bytes, kind: kind)
            let declaration = try SpecReader.declaration(bytes, kind: kind)
            return .success(SpecFile(url: url, kind: kind, bytes: bytes, requirements: requirements, declaration: declaration))
        } catch {
            return .failure(SpecFileProblem(url: url, line: error.line, column: error.column, message: error.message))
        }
    }

    /// Versions resolved by the lock files at the root of `directory` (Podfile.lock, Package.resolved, Cartfile.resolved), and each lock file
    /// that is there but cannot be read.
    public static func resolvedVersions(in directory: URL) -> (versions: ResolvedVersions, problems: [SpecFileProblem]) {
        let (versions, problems) = ResolvedVersions.read { name in try bytesIfPresent(directory.appendingPathComponent(name)) }
        return (versions, problems.map {
            SpecFileProblem(url: directory.appendingPathComponent($0.file), line: $0.error.line, column: $0.error.column, message: $0.error.message)
        })
    }

    /// The one way spec and lock files are loaded: their bytes, nil when nothing is at `url`, and an error saying why when something is
    /// there but cannot be read (no permission, a directory, a link to nothing), so such a file is never taken for an absent one.
    static func bytesIfPresent(_ url: URL) throws(SpecReadError) -> [UInt8]? {
        if let data = FileManager.default.contents(atPath: url.path) { return [UInt8](data) }
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SpecReadError(line: 1, column: 1, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        let reason: String
        if info.st_mode & S_IFMT == S_IFDIR {
            reason = "it is a directory"
        } else if info.st_mode & S_IFMT == S_IFLNK, stat(url.path, &info) != 0 {
            reason = "it is a symbolic link to nothing"
        } else {
            reason = access(url.path, R_OK) != 0 ? String(cString: strerror(errno)) : "reading it failed"
        }
        throw SpecReadError(line: 1, column: 1, message: "cannot read the file: \(reason)")
    }
}
