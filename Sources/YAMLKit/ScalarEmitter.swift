/// Writes strings as YAML scalars that read back as exactly the same string: plain where that is safe, else double-quoted.
extension YAML {
    /// Where the scalar goes: a block mapping or sequence, or inside `{…}` / `[…]`, where `,[]{}` and `:` end a plain scalar.
    public enum ScalarContext: Sendable {
        case block, flow
    }

    /// `text` plain when no YAML reader would read it as anything else (null, boolean, number, another structure), else double-quoted.
    public static func scalar(_ text: String, in context: ScalarContext = .block) -> String {
        isPlainSafe(text, in: context) ? text : doubleQuoted(text)
    }

    /// `"…"` with backslash escapes for `"`, `\`, line breaks and every non-printable character.
    public static func doubleQuoted(_ text: String) -> String {
        "\"" + StringEscaping.yamlDoubleQuoted(text) + "\""
    }

    static func isPlainSafe(_ text: String, in context: ScalarContext) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first == "/" || first == "." || isWordCharacter(first) else { return false }
        for scalar in text.unicodeScalars {
            if isWordCharacter(scalar) || "._/+-@~=%".unicodeScalars.contains(scalar) { continue }
            if scalar == ":", context == .block { continue }
            return false
        }
        if context == .block, text.hasSuffix(":") || text.contains(": ") { return false }
        // What a core-schema or YAML 1.1 reader would resolve to another type.
        let probe = YAMLScalar(value: text, start: Mark(line: 1, column: 1, offset: 0), end: Mark(line: 1, column: 1, offset: 0))
        if probe.isNull || probe.bool != nil || probe.int != nil || Double(text) != nil { return false }
        let lower = text.lowercased()
        if ["y", "n", ".inf", ".nan", "-.inf", "+.inf"].contains(lower) || (first == "." && text.count > 1 && Double("0" + text) != nil) { return false }
        return true
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value | 0x20 >= 0x61 && scalar.value | 0x20 <= 0x7A) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
