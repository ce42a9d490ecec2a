import Foundation
import GitKit
import ModKit

/// An error as every JSON report spells it: the message and, where there is one, the file position and a hint.
struct ErrorJSON: Encodable, Sendable, Equatable {
    var message: String
    var file: String?
    var line: Int?
    var column: Int?
    var hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    init(_ diagnostic: Diagnostic) {
        message = diagnostic.message
        file = diagnostic.location?.file
        line = diagnostic.location?.line
        column = diagnostic.location?.column
        hint = diagnostic.hint
    }

    /// A per-module error text, or nil.
    static func optional(_ message: String?) -> ErrorJSON? { message.map { ErrorJSON($0) } }

    /// Every problem an error carries, one entry each.
    static func all(from error: any Error) -> [ErrorJSON] {
        switch error {
        case let usage as UsageError: return [ErrorJSON(usage.message)]
        case let manifest as ManifestError: return manifest.diagnostics.filter { $0.severity == .error }.map(ErrorJSON.init)
        case let template as TemplateError: return template.diagnostics.map(ErrorJSON.init)
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

/// One result row of a module-by-module report; `name` is absent on the manifest repository's row.
protocol ModuleRow: Encodable {
    var name: String? { get }
    var path: String { get }
    var outcome: ModuleOutcome { get }
    var detail: String { get }
}

extension ModuleRow {
    /// The name a text report shows: the module's, or `(manifest repository)`.
    var label: String { name ?? "(manifest repository)" }
}

/// Renders JSON documents the one way modkit prints them.
enum JSONOutput {
    static func render<T: Encodable>(_ value: T, command: String, compact: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONEnvelope(command: command, body: value)), as: UTF8.self)
    }
}
