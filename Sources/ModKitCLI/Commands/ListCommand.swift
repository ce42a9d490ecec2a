import ModKit

/// `modkit list`: the modules of the workspace with kind, path, url, revision and version.
enum ListCommand: Command {
    static let spec = CommandSpec(
        name: "list",
        summary: "List modules with kind, path, url, revision and version",
        positional: .modules,
        examples: ["modkit list", "modkit list -g core --json", "modkit list QCloudCore COSXML"]
    )

    /// `modkit list --json`.
    struct Report: Encodable {
        var workspace: String
        var modules: [Entry]
    }

    /// One module as `modkit list --json` prints it.
    struct Entry: Encodable {
        var name: String
        var kind: Module.Kind
        var path: String
        var url: String?
        var revision: String?
        var version: String?
        var versionSource: String?
        var groups: [String]
        /// The interface module this one implements (`implements:`).
        var implements: String?
        /// True for an interface module (one that another module implements): versioned x.y.
        var interface: Bool
    }

    static func run(_ context: Context, _ options: NoOptions) throws -> ExitStatus {
        try context.withWorkspace { run in try list(run.workspace.manifest, modules: try run.modules(), context: context) }
    }

    private static func list(_ manifest: Manifest, modules: [Module], context: Context) throws -> ExitStatus {
        let entries = modules.map { module -> Entry in
            let version = VersionReader.read(module: module, in: manifest)
            return Entry(
                name: module.name, kind: module.kind, path: module.path, url: manifest.url(of: module),
                revision: module.kind == .repository ? manifest.revision(of: module) : nil, version: version.version?.description ?? version.raw,
                versionSource: version.source.label, groups: module.groups,
                implements: module.implements, interface: manifest.isInterface(module.name)
            )
        }
        if context.json {
            try context.printJSON(Report(workspace: manifest.workspace, modules: entries))
            return .success
        }
        if context.quiet {
            for entry in entries { context.console.result(entry.name) }
            return .success
        }
        let style = context.console.style(for: .standardOutput)
        var table = TextTable()
        table.add(["NAME", "KIND", "PATH", "URL", "REVISION", "VERSION", entries.contains { $0.interface || $0.implements != nil } ? "INTERFACE" : ""].map(style.bold))
        for entry in entries {
            table.add([
                entry.name, entry.kind.rawValue, entry.path,
                entry.url ?? style.dim("(manifest repository)"),
                entry.revision ?? style.dim(entry.kind == .repository ? "(remote default)" : "-"),
                entry.version ?? style.dim("-"),
                entry.implements.map { "implements " + $0 } ?? (entry.interface ? "interface" : ""),
            ])
        }
        context.console.result(table.render())
        return .success
    }
}

extension VersionSource {
    /// A short word for where a version was read from, for `list --json`.
    var label: String? {
        switch self {
        case .manifest: return "manifest"
        case .podspec(let file): return file
        case .versionFile: return "VERSION"
        case .none: return nil
        }
    }
}
