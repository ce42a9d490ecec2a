import Foundation
import ModKit

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
    func relativePath(of file: URL) -> String { RelativePath.of(file, under: root) }
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
}
