import Foundation
import GitKit

/// Removes credentials from text before it reaches any output: `user:password@` in urls.
public enum Redact {
    /// `https://user:token@host/x` → `https://user@host/x`.
    public static func url(_ text: String) -> String {
        secrets(in: text)
    }

    /// Every `scheme://user:password@` in `text` loses its password (GitKit's scrubber, shared).
    public static func secrets(in text: String) -> String {
        redactingSecrets(text)
    }
}
