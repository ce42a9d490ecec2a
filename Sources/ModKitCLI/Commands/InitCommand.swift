import ModKit

/// `modkit init`: write a commented `modkit.yml` for the git repositories below the current directory.
enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        summary: "Create modkit.yml from the git repositories found below the current directory",
        discussion: """
        Every git repository below the directory becomes a repository module with its remote url and
        current branch. An existing modkit.yml is never overwritten. Module repositories are added to
        the manifest repository's .gitignore so it stays clean.
        """,
        options: [OptionSpec(nil, "name", .value(metavar: "NAME"), help: "Workspace name (default: the directory's name).")],
        examples: ["modkit init", "modkit -C ~/src/OneForAll init --name OneForAll"],
        mutates: true
    )

    static func run(_ context: Context) throws -> ExitStatus {
        let result = try WorkspaceInitializer.initialize(at: context.workingDirectory, workspaceName: context.arguments.value("name"))
        if context.json {
            try context.printJSON(result.manifest.modules.map { ["name": $0.name, "path": $0.path, "url": $0.url ?? ""] })
        } else {
            let count = result.manifest.modules.count
            context.console.result("Wrote \(ManifestLoader.fileName) with \(count) module\(count == 1 ? "" : "s").")
            for module in result.manifest.modules {
                context.console.result("  \(module.name)  \(module.path)  \(module.url ?? "")")
            }
            let unnamed = result.repositories.count - count
            if unnamed > 0 {
                context.console.warning("\(unnamed) repositor\(unnamed == 1 ? "y has" : "ies have") no remote; they are listed commented out in \(ManifestLoader.fileName)")
            }
            if !result.ignoredPaths.isEmpty {
                context.console.info("Added \(result.ignoredPaths.count) module path\(result.ignoredPaths.count == 1 ? "" : "s") to .gitignore.")
            }
        }
        return .success
    }
}
