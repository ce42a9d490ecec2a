/// Typed readings of scalars following YAML's core schema (with YAML 1.1's yes/no/on/off booleans); quoted scalars are only strings.
extension YAMLScalar {
    static let nullTag = "tag:yaml.org,2002:null"
    static let boolTag = "tag:yaml.org,2002:bool"
    static let intTag = "tag:yaml.org,2002:int"

    /// Plain scalars a resolver would read as typed values; explicitly tagged ones count as their tag says.
    private var isResolvable: Bool { style == .plain && tag == nil }

    /// True for `~`, `null`, `Null`, `NULL`, an empty plain value and `!!null`.
    public var isNull: Bool {
        if tag == Self.nullTag { return true }
        guard isResolvable else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(value)
    }

    /// The value as a string, or nil when the scalar is null.
    public var string: String? { isNull ? nil : value }

    /// The value as an integer: decimal with optional sign and `_` separators, `0x`, `0o`, `0b`.
    public var int: Int? {
        guard isResolvable || tag == Self.intTag else { return nil }
        var text = Substring(value.replacingOccurrences("_", with: ""))
        var negative = false
        if let first = text.first, first == "-" || first == "+" {
            negative = first == "-"
            text = text.dropFirst()
        }
        var radix = 10
        if text.count > 2, text.first == "0", let marker = text.dropFirst().first {
            switch marker {
            case "x", "X": radix = 16
            case "o", "O": radix = 8
            case "b", "B": radix = 2
            default: break
            }
            if radix != 10 { text = text.dropFirst(2) }
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isHexDigit }),
              let magnitude = Int(text, radix: radix) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The value as a boolean: true/false and yes/no/on/off in lower, Title or UPPER case.
    public var bool: Bool? {
        guard isResolvable || tag == Self.boolTag else { return nil }
        switch value {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }
}

extension YAMLNode {
    /// True when this is a null scalar.
    public var isNull: Bool { scalar?.isNull ?? false }
    /// The scalar's string value; nil for null scalars, mappings and sequences.
    public var string: String? { scalar?.string }
    public var int: Int? { scalar?.int }
    public var bool: Bool? { scalar?.bool }
}

extension String {
    fileprivate func replacingOccurrences(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
