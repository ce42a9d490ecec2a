/// One spec file format: which file names it covers and how its contents are read.
///
/// Every read of a spec file's contents goes through `SpecFormat.registry`; a new format is
/// one reader file plus one line in the registry.
public struct SpecFormat: Sendable {
    /// The kind of file.
    public var kind: SpecFileKind
    /// Whether a file name (the last path component) is of this format.
    var matches: @Sendable (String) -> Bool
    /// Reads every declared requirement, in file order.
    var requirements: @Sendable (SourceText) throws(SpecReadError) -> [Requirement]
    /// Reads what the file declares about its own pod (name, version); nil for formats that declare none.
    var declaration: (@Sendable (SourceText) throws(SpecReadError) -> SpecDeclaration?)? = nil

    /// The formats SpecKit reads, most specific name first (`X.podspec.json` before `X.podspec`).
    public static let registry: [SpecFormat] = [.podspecJSON, .podspec, .podfile, .packageSwift, .cartfile]

    /// The format of a file name, or nil.
    public static func format(forFileName fileName: String) -> SpecFormat? {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        return registry.first { $0.matches(name) }
    }

    /// A spec file's name without folders and without the format's extension: `Core` for `Sources/Core.podspec.json`.
    public static func baseName(of fileName: String) -> String {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        for suffix in [".podspec.json", ".podspec", ".podfile", ".swift"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// The format of a kind.
    public static func format(of kind: SpecFileKind) -> SpecFormat {
        registry.first { $0.kind == kind }!
    }
}

extension SpecFormat {
    static let podspecJSON = SpecFormat(kind: .podspecJSON, matches: { $0.hasSuffix(".podspec.json") },
                                        requirements: { source throws(SpecReadError) in try PodspecJSONReader.read(source) },
                                        declaration: { source throws(SpecReadError) in try PodspecJSONReader.declaration(source) })
    static let podspec = SpecFormat(kind: .podspec, matches: { $0.hasSuffix(".podspec") },
                                    requirements: { PodspecReader.read($0) },
                                    declaration: { PodspecDeclarationReader.read($0) })
    static let podfile = SpecFormat(kind: .podfile, matches: { $0 == "Podfile" || $0.hasSuffix(".podfile") },
                                    requirements: { PodfileReader.read($0) })
    static let packageSwift = SpecFormat(kind: .packageSwift,
                                         matches: { $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")) },
                                         requirements: { source throws(SpecReadError) in try PackageSwiftReader.read(source) })
    static let cartfile = SpecFormat(kind: .cartfile, matches: { $0 == "Cartfile" || $0 == "Cartfile.private" },
                                     requirements: { CartfileReader.read($0) })
}
