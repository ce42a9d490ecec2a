import Foundation
import SpecKit

/// Where a module's version was found.
public enum VersionSource: Sendable, Hashable {
    case manifest
    /// The podspec (or podspec.json) path relative to the workspace root.
    case podspec(String)
    case versionFile
    case none
}

/// A module's version as found; `raw` is the text as written, `version` nil when it is not semantic or not a literal.
public struct ModuleVersion: Sendable {
    public var version: SemanticVersion?
    public var raw: String?
    public var source: VersionSource
    public var location: SourceLocation?

    public init(version: SemanticVersion?, raw: String?, source: VersionSource, location: SourceLocation?) {
        self.version = version
        self.raw = raw
        self.source = source
        self.location = location
    }

    public static let none = ModuleVersion(version: nil, raw: nil, source: .none, location: nil)
}

/// Reads a module's version in SPEC order: manifest `version:`, the podspec's `s.version`, `*.podspec.json`, a `VERSION` file.
///
/// Spec files are read by SpecKit (bytes in, any encoding and line ending); this only picks which file speaks for the module.
public enum VersionReader {
    public static func read(module: Module, in manifest: Manifest) -> ModuleVersion {
        // An interface module (one that another module implements) is versioned x.y.
        let twoParts = manifest.isInterface(module.name)
        func parse(_ text: String) -> SemanticVersion? { SemanticVersion(text, twoParts: twoParts) }
        if let raw = module.version {
            return ModuleVersion(version: parse(raw), raw: raw, source: .manifest, location: module.versionLocation)
        }
        // Plain paths and reads: `modkit status` asks this for every module, and URL building showed in its profile.
        let directory = manifest.directory(of: module).path
        guard let names = module.specs ?? (try? FileManager.default.contentsOfDirectory(atPath: directory)) else { return .none }
        let prefix = module.path.isEmpty ? "" : module.path + "/"
        func contents(of name: String) -> [UInt8]? { FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) } }
        // A podspec whose version is not a literal (e.g. read from VERSION) lets the later sources answer; it is returned only when none does.
        var unresolved: ModuleVersion?

        for kind in [SpecFileKind.podspec, .podspecJSON] {
            let found = versionFiles(names, kind: kind, preferred: module.name).compactMap { name -> (String, DeclaredValue)? in
                guard let bytes = contents(of: name), let version = (try? SpecReader.declaration(bytes, kind: kind))??.version else { return nil }
                return (name, version)
            }
            // Several pods in one module (firebase-ios-sdk) give the module their version when they all declare the same one.
            guard let (name, first) = found.first, found.allSatisfy({ $0.1.literal == first.literal }) else { continue }
            let result = ModuleVersion(version: first.literal.flatMap(parse), raw: first.literal ?? first.expression,
                                       source: .podspec(prefix + name),
                                       location: SourceLocation(file: prefix + name, line: first.span.line, column: first.span.column))
            if first.literal != nil { return result }
            unresolved = unresolved ?? result
        }
        if let bytes = contents(of: "VERSION") {
            let raw = String(String(decoding: bytes, as: UTF8.self).trimmingWhitespace)
            if !raw.isEmpty {
                return ModuleVersion(version: parse(raw), raw: raw, source: .versionFile,
                                     location: SourceLocation(file: prefix + "VERSION", line: 1, column: 1))
            }
        }
        return unresolved ?? .none
    }

    /// The podspecs (or podspec.json files) that speak for a module's version: `<preferred>.podspec` if present, else all of that kind.
    static func versionFiles(_ names: [String], kind: SpecFileKind, preferred: String) -> [String] {
        let matches = names.filter { SpecFileKind(fileName: $0) == kind }.sorted()
        if let exact = matches.first(where: { SpecFormat.baseName(of: $0) == preferred }) { return [exact] }
        return matches
    }
}

extension String {
    /// Without leading and trailing white space and line breaks (Foundation's `trimmingCharacters` bridges to NSString).
    fileprivate var trimmingWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return self[first...last]
    }
}
