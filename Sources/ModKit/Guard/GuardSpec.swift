/// A language modkit guard writes a file for.
public enum GuardLanguage: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `<Module>Version.h`, valid as C, C++ and Objective-C.
    case c
    /// `<Module>Version.swift`.
    case swift

    public static func < (lhs: GuardLanguage, rhs: GuardLanguage) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The languages of a manifest `guard:` list; nil (no list) means every language, unknown names are ignored.
    public static func set(from names: [String]?) -> Set<GuardLanguage> {
        guard let names else { return Set(allCases) }
        return Set(names.compactMap(GuardLanguage.init(rawValue:)))
    }
}

/// A module a guarded module depends on, at the version the dependent requires (its current version in the workspace).
public struct GuardDependency: Sendable, Hashable {
    /// The identifier derived from the module name (`swift-log` → `swift_log`), as guard symbols spell it.
    public var name: String
    public var version: SemanticVersion
    /// The guard files the dependency has; a check is emitted only in a language the dependency is guarded in.
    public var languages: Set<GuardLanguage>
    /// How the dependent compares the version found: equal (default), at least, or the interface x.y rule.
    public var mode: VersionGuardMode

    public init(name: String, version: SemanticVersion, languages: Set<GuardLanguage> = Set(GuardLanguage.allCases), mode: VersionGuardMode = .exact) {
        self.name = Identifier.derived(from: name)
        self.version = version
        self.languages = languages
        self.mode = mode
    }
}

/// Everything the guard of one module depends on: its name, its version and the versions it requires.
public struct GuardSpec: Sendable, Hashable {
    /// The identifier derived from the module name (`swift-log` → `swift_log`, SwiftPM's module name for such a target):
    /// guard symbols, file names and the `import` of dependents use it.
    public var name: String
    public var version: SemanticVersion
    public var dependencies: [GuardDependency]

    public init(name: String, version: SemanticVersion, dependencies: [GuardDependency] = []) {
        self.name = Identifier.derived(from: name)
        self.version = version
        self.dependencies = dependencies
    }

    /// Dependencies sorted by name, one per name (the first listed wins), so generated text does not depend on declaration order.
    public var sortedDependencies: [GuardDependency] {
        var seen = Set<String>()
        return dependencies.filter { seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
    }
}

/// How a version is spelled in guard files.
public enum GuardVersion {
    /// The version a guard compares: MAJOR.MINOR.PATCH and pre-release; build metadata does not take part.
    public static func text(_ version: SemanticVersion) -> String {
        var text = "\(version.major).\(version.minor).\(version.patch)"
        if version.isPrerelease { text += "-" + version.prerelease.joined(separator: ".") }
        return text
    }

    /// The version as messages name it: x.y for an interface module's version.
    public static func display(_ version: SemanticVersion) -> String {
        version.isTwoPart ? version.description : text(version)
    }

    /// MAJOR*1000000 + MINOR*1000 + PATCH; pre-release identifiers are not encoded.
    public static func number(_ version: SemanticVersion) -> Int {
        version.major * 1_000_000 + version.minor * 1_000 + version.patch
    }

    /// The version as an identifier tail: `1.2.0-beta.1` → `1_2_0_beta_1`; a hyphen inside a pre-release identifier becomes `__`.
    public static func identifier(_ version: SemanticVersion) -> String {
        var parts = ["\(version.major)", "\(version.minor)", "\(version.patch)"]
        parts += version.prerelease.map { $0.replacingOccurrences(of: "-", with: "__") }
        return parts.joined(separator: "_")
    }

    /// The Swift marker type only this version of the module declares, e.g. `Core_Version_1_0_1`.
    public static func swiftMarker(module: String, version: SemanticVersion) -> String {
        "\(module)_Version_\(identifier(version))"
    }

    /// The C marker macro only this version of the module defines, e.g. `CoreModuleVersion_1_0_1`.
    public static func cMarker(module: String, version: SemanticVersion) -> String {
        "\(module)ModuleVersion_\(identifier(version))"
    }
}
