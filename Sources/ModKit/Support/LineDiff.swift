import SpecKit

/// The unified diff `--dry-run` prints for guard files and the manifest; SpecKit's `unifiedDiff` is the one diff writer.
public enum LineDiff {
    /// `--- old` / `+++ new` headers and `@@` hunks with three lines of context; empty when the texts are equal.
    /// A nil `old` is a new file (`--- /dev/null`).
    public static func unified(old: String?, new: String, oldPath: String, newPath: String) -> String {
        unifiedDiff(old: Array((old ?? "").utf8), new: Array(new.utf8), path: newPath,
                    oldPath: old == nil ? "/dev/null" : oldPath, newPath: newPath)
    }
}
