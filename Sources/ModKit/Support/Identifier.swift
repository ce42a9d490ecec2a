/// Module names are package names (`swift-nio`, `GoogleUtilities`); code generation needs identifiers derived from them.
///
/// The rule: every character other than an ASCII letter, digit or `_` becomes `_`, and a name that
/// then starts with a digit gets a leading `_` (`swift-nio` → `swift_nio`, `2fa` → `_2fa`).
/// The manifest rejects two module names that derive the same identifier.
public enum Identifier {
    /// True for `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy(isIdentifierCharacter)
    }

    /// True for a package name: ASCII letters, digits, `_`, `-` and `.`, starting with a letter, digit or `_`.
    public static func isValidModuleName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isIdentifierCharacter(first) else { return false }
        return name.unicodeScalars.allSatisfy { isIdentifierCharacter($0) || $0 == "-" || $0 == "." }
    }

    /// The identifier code generation uses for a module name (guard symbols, template identifiers).
    public static func derived(from name: String) -> String {
        var result = String(String.UnicodeScalarView(name.unicodeScalars.map { isIdentifierCharacter($0) ? $0 : "_" }))
        if result.isEmpty || result.unicodeScalars.first.map({ ("0"..."9").contains($0) }) == true { result = "_" + result }
        return result
    }

    private static func isIdentifierCharacter(_ c: Unicode.Scalar) -> Bool {
        c == "_" || isLetter(c) || ("0"..."9").contains(c)
    }

    private static func isLetter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }
}
