import Foundation

/// Removes credentials from text before it reaches any output: `user:password@` in urls.
public enum Redact {
    /// `https://user:token@host/x` → `https://user@host/x`.
    public static func url(_ text: String) -> String {
        secrets(in: text)
    }

    /// Every `scheme://user:password@` in `text` loses its password.
    public static func secrets(in text: String) -> String {
        guard text.contains("://") && text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == " " || $0 == "'" || $0 == "\"" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result += authority[..<colon] + "@"
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
