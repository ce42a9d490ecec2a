import Foundation
import YAMLKit

/// The snapshot file `.modkit/snapshots/<name>.yml`: a small deterministic emitter and a reader that reports
/// every problem with its line and column.
public enum SnapshotFile {
    /// The file's text: fixed key order, one flow mapping per module, scalars quoted only where YAML needs it.
    public static func render(_ snapshot: Snapshot) -> String {
        var lines = [
            "# Snapshot \(snapshot.name)\(snapshot.workspace.map { " of workspace \($0)" } ?? ""), written by 'modkit tag'.",
            "# manifest.commit is the manifest repository's commit the snapshot was taken from; the commit that adds",
            "# this file (tagged \(snapshot.name)) is its child. 'modkit checkout \(snapshot.name)' brings the workspace back.",
            "snapshot: \(scalar(snapshot.name))",
            "created: \(scalar(snapshot.created))",
        ]
        if let workspace = snapshot.workspace { lines.append("workspace: \(scalar(workspace))") }
        if let manifest = snapshot.manifest {
            lines.append("manifest: " + flow([("commit", manifest.commit), ("branch", manifest.branch)]))
        }
        if snapshot.modules.isEmpty {
            lines.append("modules: {}")
        } else {
            lines.append("modules:")
            let width = snapshot.modules.map { scalar($0.name).count }.max() ?? 0
            for entry in snapshot.modules {
                let key = scalar(entry.name) + ":"
                let fields: [(String, String?)] = [
                    ("url", entry.url), ("path", entry.path), ("commit", entry.commit),
                    ("version", entry.version), ("branch", entry.branch), ("tag", entry.tag),
                ]
                lines.append("  " + key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + flow(fields))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{ key: value, … }` leaving out nil values.
    static func flow(_ fields: [(String, String?)]) -> String {
        let parts = fields.compactMap { key, value in value.map { "\(key): \(scalar($0))" } }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// The text plain when YAML reads it back as the same string, also inside a flow mapping, else double-quoted.
    static func scalar(_ text: String) -> String { YAML.scalar(text, in: .flow) }

}
