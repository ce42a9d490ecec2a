import Foundation
import SpecKit

/// A spec file of a module (podspec, Podfile, Package.swift, Cartfile…) with the requirements read from it.
public struct SpecFile: Sendable {
    public var url: URL
    public var kind: SpecFileKind
    public var text: String
    public var requirements: [Requirement]
}

/// A spec file that could not be read; reported with its path and position, never guessed around.
public struct SpecFileProblem: Sendable, Error, CustomStringConvertible {
    public var url: URL
    public var line: Int?
    public var column: Int?
    public var message: String

    public var description: String { "\(url.path)\(line.map { ":\($0)" } ?? "")\(column.map { ":\($0)" } ?? ""): \(message)" }
}

/// Finds and reads the spec files and lock files at a module's root.
public enum SpecFiles {
    /// Spec files at the root of `directory`, in a stable order.
    public static func find(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { SpecFileKind(fileName: $0) != nil }.map { directory.appendingPathComponent($0) }
    }

    /// Reads and parses a spec file; `overlay` supplies planned (not yet written) contents, e.g. in a dry run.
    public static func read(_ url: URL, overlay: EditSet? = nil) -> Result<SpecFile, SpecFileProblem> {
        guard let kind = SpecFileKind(fileName: url.lastPathComponent) else {
            return .failure(SpecFileProblem(url: url, message: "not a spec file modkit reads"))
        }
        guard let text = overlay?.text(of: url) ?? FileManager.default.contents(atPath: url.path).map({ String(decoding: $0, as: UTF8.self) }) else {
            return .failure(SpecFileProblem(url: url, message: "cannot read the file"))
        }
        do {
            let requirements = try SpecReader.read(text, kind: kind)
            return .success(SpecFile(url: url, kind: kind, text: text, requirements: requirements))
        } catch {
            return .failure(SpecFileProblem(url: url, line: error.line, column: error.column, message: error.message))
        }
    }

    /// Versions resolved by the lock files at the root of `directory` (Podfile.lock, Package.resolved, Cartfile.resolved).
    public static func resolvedVersions(in directory: URL) -> ResolvedVersions {
        var resolved = ResolvedVersions()
        func text(_ name: String) -> String? {
            FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map { String(decoding: $0, as: UTF8.self) }
        }
        if let lock = text("Podfile.lock") { resolved = resolved.merging(.podfileLock(lock)) }
        if let lock = text("Package.resolved"), let parsed = try? ResolvedVersions.packageResolved(lock) {
            resolved = resolved.merging(parsed)
        }
        if let lock = text("Cartfile.resolved") { resolved = resolved.merging(.cartfileResolved(lock)) }
        return resolved
    }
}
