import Foundation
import GitKit
import ModKit

extension ErrorJSON {
    /// Every problem an error carries, one entry each.
    static func all(from error: any Error) -> [ErrorJSON] {
        switch error {
        case let usage as UsageError: return [ErrorJSON(usage.message)]
        case let manifest as ManifestError: return manifest.diagnostics.filter { $0.severity == .error }.map { ErrorJSON($0) }
        case let template as TemplateError: return template.diagnostics.map { ErrorJSON($0) }
        case let modkit as ModKitError: return [ErrorJSON(modkit.message, hint: modkit.hint)]
        case let git as GitError: return [ErrorJSON(git.message)]
        default: return [ErrorJSON("\(error)")]
        }
    }
}

/// `{"schema": 1, "command": NAME, …}`: the frame of every command's JSON output, around the command's own fields.
struct JSONEnvelope<Body: Encodable>: Encodable {
    private enum Key: String, CodingKey { case schema, command }
    var command: String
    var body: Body

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: .schema)
        try container.encode(command, forKey: .command)
        try body.encode(to: encoder)
    }
}

/// What a command prints with --json when it stops with an error before its report.
struct ErrorReport: Encodable {
    var errors: [ErrorJSON]
}

/// Renders JSON documents the one way modkit prints them.
enum JSONOutput {
    static func render<T: Encodable>(_ value: T, command: String, compact: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONEnvelope(command: command, body: value)), as: UTF8.self)
    }
}
