import Foundation
import ModKit

/// One result row of a module-by-module command (start, push, abandon, prune, checkout, tag, sync): what happened, and the refs it left.
struct ModuleResultRow: ModuleRow {
    /// nil on the manifest repository's row.
    var name: String?
    /// Relative to the workspace root; "." for the manifest repository.
    var path: String
    var outcome: ModuleOutcome
    var detail: String
    var branch: String?
    var tag: String?
    var commit: String?
    var previousCommit: String?
    var backup: String?
    var keptLocalTags: [String]?
    var error: ErrorJSON?
}

/// The workspace a command works on, loaded once, with the module selection of its command line.
struct WorkspaceRun {
    var workspace: Workspace
    let context: Context

    /// The modules named (default: the command line's module arguments) and selected by -g, in manifest order; for a command that
    /// writes to or runs in their directories, only when none of their paths leads through a symbolic link.
    func modules(named names: [String]? = nil) throws -> [Module] {
        let modules = try workspace.modules(named: names ?? context.arguments.positionals, groups: context.groups)
        if context.command.mutates || context.command.runsInModules { try workspace.checkContained(modules) }
        return modules
    }

    /// Reads the workspace again (after the manifest repository moved, or imports were cloned).
    mutating func reload() throws { workspace = try context.loadWorkspace() }
}

extension Workspace {
    /// `file` relative to the workspace root, as every JSON report gives paths; its absolute path when it lies outside.
    func relativePath(of file: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        if path == base { return "." }
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }
}

extension Context {
    /// Runs `body` on the workspace. When this invocation changes the workspace, the workspace lock is taken first,
    /// before the manifest is read, so two mutating commands never both read it; the one place that takes the lock and
    /// says when it took over a stale one.
    /// `locking` overrides `changesWorkspace` for a command that knows better before it loads (develop's listing, which
    /// writes only to finish an interrupted run).
    func withWorkspace<T>(locking: Bool? = nil, _ body: (inout WorkspaceRun) throws -> T) throws -> T {
        let file = try manifestFile()
        try Workspace.requireManifest(file)
        let lock = locking ?? changesWorkspace ? try takeLock(root: file.deletingLastPathComponent()) : nil
        defer { lock?.release() }
        var run = WorkspaceRun(workspace: try loadWorkspace(), context: self)
        return try body(&run)
    }

    private func takeLock(root: URL) throws -> WorkspaceLock {
        let lock = try WorkspaceLock(root: root, command: (["modkit", command.name] + arguments.positionals).joined(separator: " "),
                                     waiting: { console.info($0) })
        if let stale = lock.replacedStaleHolder {
            console.info("took over a stale workspace lock left by pid \(stale.pid) ('\(stale.command)')")
        }
        return lock
    }

    /// Prints module rows, as JSON (`fields`, then `manifest`, `modules` and `summary`) or as a table coloured by outcome,
    /// and returns exit 1 when any row was kept or failed, naming them.
    func report<Row: ModuleRow, Fields: Encodable>(_ rows: [Row], manifest: Row? = nil, fields: Fields, verb: String) throws -> ExitStatus {
        let all = (manifest.map { [$0] } ?? []) + rows
        if json {
            try printJSON(ModuleRowsBody(fields: fields, manifest: manifest, modules: rows, summary: outcomeCounts(rows.map(\.outcome))))
        } else {
            let style = console.style(for: .standardOutput)
            var table = TextTable()
            for row in all {
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
        let trouble = all.filter(\.outcome.needsAttention)
        if !trouble.isEmpty, !json {
            console.error("\(verb): \(trouble.count) repositor\(trouble.count == 1 ? "y needs" : "ies need") attention: \(trouble.map(\.label).joined(separator: ", "))")
        }
        return trouble.isEmpty ? .success : .failure
    }

    func report<Row: ModuleRow>(_ rows: [Row], manifest: Row? = nil, verb: String) throws -> ExitStatus {
        try report(rows, manifest: manifest, fields: NoFields(), verb: verb)
    }
}

/// No fields of a command's own.
struct NoFields: Encodable {}

/// The JSON body of a module-by-module report: the command's own fields, the manifest row, the module rows and the counts.
struct ModuleRowsBody<Fields: Encodable, Row: ModuleRow>: Encodable {
    private enum Key: String, CodingKey { case manifest, modules, summary }
    var fields: Fields
    var manifest: Row?
    var modules: [Row]
    var summary: [String: Int]

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(manifest, forKey: .manifest)
        try container.encode(modules, forKey: .modules)
        try container.encode(summary, forKey: .summary)
    }
}
