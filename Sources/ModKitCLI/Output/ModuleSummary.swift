import ModKit

/// How the one summary shows a command's rows on a terminal: a table coloured by outcome, or the command's own
/// rendering (status' columns, sync's counts, diff's table, forall's streamed output).
enum SummaryText {
    case table
    case custom(() -> Void)
}

extension Context {
    /// The one end of a module-by-module command: its rows as JSON (`fields`, then `manifest`, `modules` and `summary`)
    /// or as text, then `finish` with every row's diagnostics and the run's own. `alsoNeedingAttention` names rows the
    /// command reports elsewhere (sync's kept topic branches).
    func report<Facts, Fields: Encodable>(_ rows: [ModuleResult<Facts>], manifest: ModuleResult<Facts>? = nil, fields: Fields,
                                          diagnostics: [Diagnostic] = [], alsoNeedingAttention: [String] = [], verb: String,
                                          text: SummaryText = .table, interrupted: Bool = false) throws -> ExitStatus {
        let all = (manifest.map { [$0] } ?? []) + rows
        if json {
            try printJSON(ModuleRowsBody(fields: fields, manifest: manifest, modules: rows, summary: outcomeCounts(rows.map(\.outcome))))
        } else if case .custom(let render) = text {
            render()
        } else {
            printTable(all, verb: verb)
        }
        return finish(needingAttention: all.filter(\.needsAttention).map(\.label) + alsoNeedingAttention, diagnostics: all.flatMap(\.diagnostics) + diagnostics,
                      verb: verb, interrupted: interrupted)
    }

    func report<Facts>(_ rows: [ModuleResult<Facts>], manifest: ModuleResult<Facts>? = nil, diagnostics: [Diagnostic] = [],
                       verb: String, text: SummaryText = .table) throws -> ExitStatus {
        try report(rows, manifest: manifest, fields: NoFields(), diagnostics: diagnostics, verb: verb, text: text)
    }

    /// The end every multi-module command shares, also one that prints its own JSON (pin, diff, release): the
    /// diagnostics through the one renderer, then one line naming what needs attention, and the exit status by one rule:
    /// 130 when interrupted, 1 when a repository needs attention (kept or failed) or a diagnostic is an error, else 0.
    func finish(needingAttention labels: [String], diagnostics: [Diagnostic] = [], verb: String, interrupted: Bool = false) -> ExitStatus {
        ModKitCLI.print(diagnostics, console: console, verbose: verbose)
        if interrupted {
            console.error("interrupted")
            return .interrupted
        }
        if !labels.isEmpty, !json {
            console.error("\(verb): \(labels.count) repositor\(labels.count == 1 ? "y needs" : "ies need") attention: \(labels.joined(separator: ", "))")
        }
        return labels.isEmpty && !diagnostics.contains { $0.severity == .error } ? .success : .failure
    }

    /// Rows as a table coloured by outcome, or `Nothing to VERB.`
    private func printTable<Facts>(_ rows: [ModuleResult<Facts>], verb: String) {
        let style = console.style(for: .standardOutput)
        var table = TextTable()
        for row in rows {
            let detail: String
            switch row.outcome {
            case .failed: detail = style.red(row.detail)
            case .kept: detail = style.yellow(row.detail)
            case .skipped, .upToDate: detail = style.dim(row.detail)
            default: detail = row.detail
            }
            table.add([style.bold(row.label), detail])
        }
        console.result(table.rows.isEmpty ? "Nothing to \(verb)." : table.render())
    }
}

/// No fields of a command's own.
struct NoFields: Encodable {}

/// The JSON body of a module-by-module report: the command's own fields, the manifest row, the module rows and the counts.
struct ModuleRowsBody<Fields: Encodable, Facts: Sendable & Encodable & Equatable>: Encodable {
    private enum Key: String, CodingKey { case manifest, modules, summary }
    var fields: Fields
    var manifest: ModuleResult<Facts>?
    var modules: [ModuleResult<Facts>]
    var summary: [String: Int]

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(manifest, forKey: .manifest)
        try container.encode(modules, forKey: .modules)
        try container.encode(summary, forKey: .summary)
    }
}
