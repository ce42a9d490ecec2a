extension GuardGenerator {
    /// `<Module>Version.swift`: version constants, a per-version marker type, the version spelled as types, and one check per dependency.
    ///
    /// A dependency check is a pair of overloads: the accepting ones match exactly the spellings in range and return `Accepted`,
    /// the generic one matches any spelling and returns the dependency's marker type. The result must conform to a file-private
    /// protocol, which the marker conforms to only `@available(*, unavailable, message:)`; so against another version the build
    /// fails with one line naming the marker, i.e. the version found, and the message, i.e. the version required.
    public static func swift(for spec: GuardSpec) -> String {
        let m = spec.name
        let v = spec.version
        let dependencies = spec.sortedDependencies.filter { $0.languages.contains(.swift) }
        var lines = [
            "// \(banner)",
            "// Version guard of \(m) \(GuardVersion.text(v)): building against another version of a dependency fails with a message naming both.",
            "",
        ]
        if !dependencies.isEmpty {
            lines += Set(dependencies.map(\.name)).sorted().map { "import \($0)" } + [""]
        }
        lines += swiftVersionDeclarations(module: m, version: v)
        if !dependencies.isEmpty {
            lines += swiftDependencyChecks(module: m, version: v, dependencies: dependencies)
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// The module's own part: version constants, its marker, and its version spelled as types.
    private static func swiftVersionDeclarations(module m: String, version v: SemanticVersion) -> [String] {
        var lines = [
            "/// The version of \(m) this source was built as.",
            "public enum \(m)ModuleVersion {",
            "    public static let major = \(v.major)",
            "    public static let minor = \(v.minor)",
            "    public static let patch = \(v.patch)",
            "    /// Pre-release identifiers joined by \".\"; empty for a release.",
            "    public static let prerelease = \"\(v.prerelease.joined(separator: "."))\"",
            "    public static let string = \"\(GuardVersion.text(v))\"",
            "}",
            "",
            "/// Declared only by \(m) \(GuardVersion.text(v)): code that names it compiles against no other version.",
            "public enum \(GuardVersion.swiftMarker(module: m, version: v)) {}",
            "",
            "/// A version spelled as types, character by character, so dependents can compare it at compile time.",
            "public enum \(m)ModuleVersionGuard {",
            "    public enum Spelling<Characters> {}",
            "    /// \(m) \(GuardVersion.text(v)), the version of this source.",
            "    public typealias Current = \(spelling(v))",
            "    /// The marker of this version: a dependent's error names it when it refuses this version.",
            "    public typealias Marker = \(GuardVersion.swiftMarker(module: m, version: v))",
        ]
        lines += characterDeclarations.map { "    " + $0 }
        lines.append("}")
        return lines
    }

    /// The checks of the dependencies' versions: one pair of overloads each, the protocols whose unavailable
    /// conformances carry the messages, and the spellings the checks accept.
    private static func swiftDependencyChecks(module m: String, version v: SemanticVersion, dependencies: [GuardDependency]) -> [String] {
        var lines = [
            "",
            "/// Fails the build when a dependency is not the version \(m) \(GuardVersion.text(v)) was guarded against.",
            "private enum \(m)DependencyVersionChecks {",
            "    /// What an accepting overload returns: it meets every requirement below.",
            "    enum Accepted: \(dependencies.map { requirementProtocol(module: m, dependency: $0.name) }.joined(separator: ", ")) {}",
        ]
        var rangeDeclarations: [String] = []
        for dependency in dependencies {
            let d = dependency.name
            let guardType = "\(d)ModuleVersionGuard"
            lines += [
                "",
                "    // \(d) \(GuardVersion.text(dependency.version))\(dependency.mode == .exact ? "" : " (\(dependency.mode.rawValue))")",
                "    static func require\(d)<Found>(_: Found.Type) -> \(guardType).Marker.Type { \(guardType).Marker.self }",
            ]
            if dependency.mode == .exact {
                lines.append("    static func require\(d)(_: \(guardType).RequiredBy\(m).Type) -> Accepted.Type { Accepted.self }")
            } else {
                let check = rangeCheck(module: m, dependency: dependency)
                lines += check.overloads
                rangeDeclarations += check.declarations
            }
            lines.append("    static func accept\(d)<Version: \(requirementProtocol(module: m, dependency: d))>(_: Version.Type) {}")
        }
        lines += ["", "    static func check() {"]
        lines += dependencies.map { "        accept\($0.name)(require\($0.name)(\($0.name)ModuleVersionGuard.Current.self))" }
        lines += ["    }", "}"]
        for dependency in dependencies {
            let d = dependency.name
            lines += [
                "",
                "/// \(m)'s requirement on \(d): a refused version's marker meets it only as an unavailable conformance, whose message is the error.",
                "fileprivate protocol \(requirementProtocol(module: m, dependency: d)) {}",
                "@available(*, unavailable, message: \"\(requirement(module: m, version: v, dependency: dependency)), not this version. \(advice)\")",
                "extension \(d)ModuleVersionGuard.Marker: \(requirementProtocol(module: m, dependency: d)) {}",
            ]
        }
        if !rangeDeclarations.isEmpty { lines += [""] + rangeDeclarations }
        for dependency in dependencies where dependency.mode == .exact {
            lines += [
                "",
                "extension \(dependency.name)ModuleVersionGuard {",
                "    /// \(dependency.name) \(GuardVersion.text(dependency.version)), the version \(m) requires.",
                "    fileprivate typealias RequiredBy\(m) = \(spelling(dependency.version))",
                "}",
            ]
        }
        return lines
    }

    /// The file-private protocol a dependency's version must meet, e.g. `FeatureAcceptsCoreVersion`; the error names it.
    static func requirementProtocol(module: String, dependency: String) -> String {
        "\(module)Accepts\(dependency)Version"
    }

    /// `Spelling<(_1, dot, _0, dot, _1)>` for 1.0.1; resolved inside the module's `ModuleVersionGuard` enum.
    static func spelling(_ version: SemanticVersion) -> String {
        let names = GuardVersion.text(version).map { characterName($0) }
        return "Spelling<(\(names.joined(separator: ", ")))>"
    }

    /// The type name of one character of a version: `_0`…`_9`, `a`…`z`, `A`…`Z`, `dot`, `dash`.
    static func characterName(_ character: Character) -> String {
        switch character {
        case ".": "dot"
        case "-": "dash"
        case "0"..."9": "_\(character)"
        default: String(character)
        }
    }

    /// Every character a semantic version can hold, declared as empty enums in rows of ten.
    static let characterDeclarations: [String] = {
        let characters = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-")
        return stride(from: 0, to: characters.count, by: 10).map { start in
            characters[start..<min(start + 10, characters.count)]
                .map { "public enum \(characterName($0)) {}" }
                .joined(separator: "; ")
        }
    }()
}
