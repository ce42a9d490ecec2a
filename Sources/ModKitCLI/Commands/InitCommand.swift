import Foundation
import ModKit

/// `modkit init`: write a commented `modkit.yml` for the git repositories below the current directory, or import one.
enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        summary: "Create modkit.yml from the git repositories found here, or import submodules, repo, west or vcstool manifests",
        discussion: """
        Every git repository below the directory becomes a repository module with its remote url and
        current branch. With --import, the modules come from another tool's manifest instead: a
        .gitmodules file (with the superproject's recorded commits), a repo XML manifest, a west.yml or
        a vcstool .repos file, told apart by content. Whatever cannot be carried over is listed as a
        warning with its file:line. An existing modkit.yml is never overwritten. Module repositories are
        added to the manifest repository's .gitignore so it stays clean.
        """,
        options: Options.declared,
        examples: [
            "modkit init",
            "modkit init --import .gitmodules --exact",
            "modkit init --import .repo/manifests/default.xml",
            "modkit init --import deps.repos --from vcstool",
            "modkit -C ~/src/OneForAll init --name OneForAll",
        ],
        mutates: true
    )

    /// `modkit init --json`: the modules written into modkit.yml.
    struct Report: Encodable {
        struct Entry: Encodable {
            var name: String
            var kind: Module.Kind
            var path: String
            var url: String?
            var revision: String?
        }
        var file: String
        var modules: [Entry]

        init(manifest: Manifest) {
            file = ManifestLoader.fileName
            modules = manifest.modules.map { Entry(name: $0.name, kind: $0.kind, path: $0.path, url: manifest.url(of: $0), revision: manifest.revision(of: $0)) }
        }
    }

    struct Options: CommandOptions {
        static let importPath = OptionSpec(nil, "import", .value(metavar: "PATH"), help: "Import .gitmodules, a repo manifest, west.yml or a .repos file.",
                                           completion: .files)
        static let from = OptionSpec(nil, "from", .value(metavar: "FORMAT"), help: "Read --import as submodules, repo, west or vcstool instead of guessing.",
                                     completion: .choices(ImportFormat.allCases.map(\.rawValue)))
        static let exact = OptionSpec(nil, "exact", help: "Pin every module to its exact commit (submodules: the recorded gitlink).")
        static let name = OptionSpec(nil, "name", .value(metavar: "NAME"), help: "Workspace name (default: the directory's name).")
        static let declared = [importPath, from, exact, name]
        var importPath: String?
        var from: String?
        var exact: Bool
        var name: String?
        init(_ arguments: ParsedArguments) {
            importPath = arguments.value(Self.importPath)
            from = arguments.value(Self.from)
            exact = arguments.flag(Self.exact)
            name = arguments.value(Self.name)
        }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        if let path = options.importPath {
            return try runImport(path, options: options, context: context)
        }
        if options.from != nil { throw UsageError("--from needs --import PATH") }
        if options.exact { throw UsageError("--exact needs --import PATH") }
        let result = try WorkspaceInitializer.initialize(at: context.workingDirectory, workspaceName: options.name)
        if context.json {
            try context.printJSON(Report(manifest: result.manifest))
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
        if result.hasSubmodules {
            context.console.info("hint: this is a superproject with submodules; 'modkit init --import .gitmodules --exact' keeps the commits it records (remove modkit.yml first)")
        }
        return .success
    }

    private static func runImport(_ path: String, options: Options, context: Context) throws -> ExitStatus {
        var format: ImportFormat?
        if let name = options.from {
            guard let known = ImportFormat(rawValue: name) else {
                let names = ImportFormat.allCases.map(\.rawValue)
                throw UsageError("--from expects one of \(names.joined(separator: ", ")), got '\(name)'\(DidYouMean.suffix(for: name, among: names))")
            }
            format = known
        }
        let source = URL(fileURLWithPath: path, relativeTo: context.workingDirectory).standardizedFileURL
        let outcome = try WorkspaceInitializer.importManifest(from: source, displayPath: path, format: format, exact: options.exact,
                                                              at: context.workingDirectory, workspaceName: options.name)
        ModKitCLI.print(outcome.imported.warnings, console: context.console, verbose: context.verbose)
        if !outcome.imported.mergedFiles.isEmpty, !context.json {
            context.console.info("Merged \(outcome.imported.mergedFiles.count) local manifest\(outcome.imported.mergedFiles.count == 1 ? "" : "s") as repo does: \(outcome.imported.mergedFiles.joined(separator: ", "))")
        }
        if context.json {
            try context.printJSON(Report(manifest: outcome.manifest))
            return .success
        }
        let modules = outcome.manifest.modules
        let imported = outcome.imported
        context.console.result("Wrote \(ManifestLoader.fileName) with \(modules.count) module\(modules.count == 1 ? "" : "s") from \(imported.source) (\(imported.format.label)).")
        for module in modules {
            let revision = outcome.manifest.revision(of: module) ?? "(remote default)"
            context.console.result("  \(module.name)  \(module.path)  \(outcome.manifest.url(of: module) ?? "")  \(revision)")
        }
        if !imported.warnings.isEmpty {
            let count = imported.warnings.count
            context.console.info("\(count) thing\(count == 1 ? "" : "s") could not be carried over; see the warning\(count == 1 ? "" : "s") above.")
        }
        if !outcome.ignoredPaths.isEmpty {
            context.console.info("Added \(outcome.ignoredPaths.count) module path\(outcome.ignoredPaths.count == 1 ? "" : "s") to .gitignore.")
        }
        if imported.format == .submodules, !imported.modules.isEmpty, !context.quiet {
            context.console.result("")
            context.console.result(SubmoduleNextSteps.lines(for: imported.modules).joined(separator: "\n"))
        }
        return .success
    }
}
