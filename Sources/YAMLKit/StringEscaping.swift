/// Text escaped for the inside of a string literal (or running text) of one target language: the one place modkit escapes
/// text, for generated files, templates, the man page and shell command lines. Each function returns only the inside and
/// the caller writes the quotes, except `shellWord`, which returns a whole word.
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

    /// One word of a POSIX shell command line: `text` itself when it holds only ASCII letters, digits and `/._-+=:@,`,
    /// else single-quoted (`'` written as `'\''`), so nothing in it (`$`, backquotes, spaces, globs) is live.
    public static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "/._-+=:@,".unicodeScalars.contains(scalar)
        }
        guard !plain else { return text }
        // By scalar, not by Character: a quote followed by a combining mark is one Character that is not "'", and copied
        // as it is it would end the quoting.
        var quoted = "'"
        for scalar in text.unicodeScalars { quoted += scalar == "'" ? "'\\''" : String(scalar) }
        return quoted + "'"
    }

    /// `value` in hexadecimal, zero-padded to at least `digits` digits.
    private static func hex(_ value: UInt32, digits: Int, uppercase: Bool) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
