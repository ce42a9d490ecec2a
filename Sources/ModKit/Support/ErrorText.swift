import GitKit

/// One line describing an error for per-module reports, with credentials removed.
public enum ErrorText {
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let git as GitError: return Redact.secrets(in: git.message)
        case let modkit as ModKitError: return modkit.message + (modkit.hint.map { " (\($0))" } ?? "")
        default: return Redact.secrets(in: "\(error)")
        }
    }
}
