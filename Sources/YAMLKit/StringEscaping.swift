/// Text escaped for the inside of a string literal (or running text) of one target language: the one place modkit escapes
/// text, for generated files, templates and the man page. Each function returns only the inside; the caller writes the quotes.
public enum StringEscaping {
    /// A JSON string: `\"`, `\\`, `\n`, `\r`, `\t`, and `\u00XX` for other control characters.
    public static func json(_ text: String) -> String {
        escape(text, ["\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\r", "\t": "\\t"]) { scalar in
            scalar.value < 0x20 ? "\\u" + hex(scalar.value, digits: 4, uppercase: false) : nil
        }
    }

    /// A YAML double-quoted scalar: backslash escapes for `"`, `\`, line breaks and every non-printable character.
    public static func yamlDoubleQuoted(_ text: String) -> String {
        let table: [Unicode.Scalar: String] = [
            "\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\t": "\\t", "\r": "\\r",
            "\u{85}": "\\N", "\u{2028}": "\\L", "\u{2029}": "\\P", "\u{FEFF}": "\\uFEFF",
        ]
        return escape(text, table) { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "\\x" + hex(scalar.value, digits: 2, uppercase: true) : nil
        }
    }

    /// A YAML single-quoted scalar: `'` doubled.
    public static func yamlSingleQuoted(_ text: String) -> String {
        escape(text, ["'": "''"]) { _ in nil }
    }

    /// A Swift `"…"` string literal: `\"`, `\\`, `\n`, `\r`, `\t`, and `\u{X}` for other control characters.
    public static func swift(_ text: String) -> String {
        escape(text, ["\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\r", "\t": "\\t"]) { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{" + hex(scalar.value, digits: 1, uppercase: true) + "}" : nil
        }
    }

    /// A Ruby `"…"` string: `\"`, `\\`, `\#` (no interpolation), `\n`, `\r`, `\t`, and `\xXX` for other control characters.
    public static func rubyDoubleQuoted(_ text: String) -> String {
        escape(text, ["\\": "\\\\", "\"": "\\\"", "#": "\\#", "\n": "\\n", "\r": "\\r", "\t": "\\t"]) { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\x" + hex(scalar.value, digits: 2, uppercase: true) : nil
        }
    }

    /// A Ruby `'…'` string: `\'` and `\\`, the only escapes it has.
    public static func rubySingleQuoted(_ text: String) -> String {
        escape(text, ["\\": "\\\\", "'": "\\'"]) { _ in nil }
    }

    /// roff running text: `\e` for a backslash, `\-` for a hyphen, and every non-ASCII character as a `\[uXXXX]` glyph.
    public static func roff(_ text: String) -> String {
        escape(text, ["\\": "\\e", "-": "\\-"]) { scalar in
            scalar.isASCII ? nil : "\\[u" + hex(scalar.value, digits: 4, uppercase: true) + "]"
        }
    }

    /// Each scalar as `table` has it, else as `codePoint` writes it, else as is.
    private static func escape(_ text: String, _ table: [Unicode.Scalar: String], codePoint: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let replacement = table[scalar] ?? codePoint(scalar) { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `value` in hexadecimal, zero-padded to at least `digits` digits.
    private static func hex(_ value: UInt32, digits: Int, uppercase: Bool) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
