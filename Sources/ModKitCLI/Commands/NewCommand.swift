import Foundation
import ModKit

/// `modkit new NAME`: scaffold a module from a template, register it in modkit.yml and write its version guard.
enum NewCommand: Command {
    static let spec = CommandSpec(
        name: "new",
        summary: "Create a module from a template, register it and write its version guard",
        discussion: """
        Templates: the workspace's 'templates:' folder, the built-in ones (swift-package, pod, interface),
        a template folder path, or a git url (file:///…/t.git#ref), cloned with libgit2. Files and paths may
        hold {{name}}, {{Name}}, {{name_snake}}, {{name_kebab}}, {{name_identifier}} (swift-log → swift_log), {{version}}, {{author}}, {{year}},
        {{workspace}}, {{module}}, {{generated_dir}}, {{git_url}} (the new repository's --remote or url-base url)
        and the template's variables (--var KEY=VALUE); values are escaped for the Ruby, Swift, JSON or YAML
        string they land in. Everything is rendered and checked in memory first: on any problem nothing is
        created (exit 2). The module is built in .modkit/new/ and renamed into place; an interrupted new
        leaves nothing, or is finished by the next one.
        --dir (the default when the workspace has directory modules) creates a directory of the manifest
        repository; --repo a new git repository with an initial commit, pushed to --remote when given.
        The module is appended to modkit.yml without touching the rest of the file. Built-in templates
        are looked up in $MODKIT_TEMPLATES, then ../share/modkit/Templates next to the binary.
        """,
        options: Options.declared,
        positional: PositionalSpec("NAME", minimum: 0, maximum: 1),
        examples: [
            "modkit new Payments",
            "modkit new Payments --template interface",
            "modkit new Wallet --repo --remote ssh://git@git.example.com/ios/Wallet.git",
            "modkit new Search --template pod --var summary='Search for everything' --dry-run",
            "modkit new Maps --template file:///srv/templates/feature.git#v2",
        ],
        mutates: true,
        reachesRemotes: true
    )

    struct Options: CommandOptions {
        static let template = OptionSpec("t", "template", .value(metavar: "T"), help: "Template name, folder or git url[#ref] (default: swift-package).",
                                         completion: .list(.templates))
        static let path = OptionSpec(nil, "path", .value(metavar: "P"), help: "Directory of the new module (default: next to the existing modules).",
                                     completion: .directories)
        static let dir = OptionSpec(nil, "dir", help: "Create a directory module in the manifest repository.")
        static let repo = OptionSpec(nil, "repo", help: "Create a git repository module with an initial commit.")
        static let remote = OptionSpec(nil, "remote", .value(metavar: "URL"), help: "Set the new repository's origin to URL and push (implies --repo).")
        static let variable = OptionSpec(nil, "var", .repeated(metavar: "KEY=VALUE"), help: "Set a template variable (repeatable); also version= and author=.")
        static let dryRun = OptionSpec("n", "dry-run", help: "Print the files and the manifest diff; change nothing.")
        static let listTemplates = OptionSpec(nil, "list-templates", help: "List the templates this workspace can use.")
        static let declared = [template, path, dir, repo, remote, variable, dryRun, listTemplates]
        var template: String?
        var path: String?
        var kind: Module.Kind?
        var remote: String?
        var variables: [String: String] = [:]
        var dryRun: Bool
        var listTemplates: Bool

        init(_ arguments: ParsedArguments) throws {
            listTemplates = arguments.flag(Self.listTemplates)
            dryRun = arguments.flag(Self.dryRun)
            // --list-templates creates nothing, so the options of a module to create are not checked with it.
            let creates = !listTemplates
            if creates, arguments.flag(Self.dir), arguments.flag(Self.repo) { throw UsageError("--dir and --repo exclude each other") }
            if creates, arguments.flag(Self.dir), arguments.value(Self.remote) != nil { throw UsageError("--remote needs a repository module; drop --dir") }
            template = arguments.value(Self.template)
            path = arguments.value(Self.path)
            kind = arguments.flag(Self.dir) ? .directory : arguments.flag(Self.repo) ? .repository : nil
            remote = arguments.value(Self.remote)
            for assignment in arguments.values(Self.variable) where creates {
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                    throw UsageError("--var expects KEY=VALUE, got '\(assignment)'")
                }
                variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
            }
        }

        var changesNothing: Bool { dryRun || listTemplates }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let builtin = TemplateLibrary.builtinDirectory(executable: executableURL())
        if options.listTemplates {
            return try listTemplates(builtin: builtin, context: context)
        }
        guard let name = context.arguments.positionals.first else { throw UsageError("missing NAME") }
        return try context.withWorkspace { run in
            if !options.dryRun, ScaffoldStaging.hasLeftovers(in: run.workspace.root) {
                for message in ScaffoldStaging.recover(in: run.workspace.root) { context.console.info(message) }
                try run.reload()
            }
            return try create(name, options: options, manifest: run.workspace.manifest, builtin: builtin, context: context)
        }
    }

    /// Plans module `name` from its template and, unless --dry-run, creates it (under the workspace lock).
    private static func create(_ name: String, options: Options, manifest: Manifest, builtin: URL?, context: Context) throws -> ExitStatus {
        let request = ScaffoldRequest(name: name, path: try options.path.map { try workspacePath($0, manifest: manifest, context: context) },
                                      kind: options.kind, remote: options.remote.map { remoteURL($0, context: context) }, variables: options.variables)
        let resolved: ResolvedTemplate
        do {
            resolved = try TemplateLibrary.resolve(options.template ?? "swift-package", builtin: builtin, manifest: manifest,
                                                   workingDirectory: context.workingDirectory)
        } catch let error as TemplateError {
            report(error, context: context)
            return .usage
        }
        defer { resolved.discard() }

        let plan: ScaffoldPlan
        do { plan = try Scaffolder.plan(request, template: resolved.template, manifest: manifest) } catch let error as TemplateError {
            report(error, context: context)
            return .usage
        }
        if options.dryRun {
            NewOutput.printDryRun(plan, context: context)
            return .success
        }
        let result = try Scaffolder.apply(plan)
        NewOutput.printResult(result, context: context)
        return .success
    }

    private static func listTemplates(builtin: URL?, context: Context) throws -> ExitStatus {
        let manifest = try? context.loadWorkspace().manifest
        let templates = TemplateLibrary.list(builtin: builtin, manifest: manifest)
        if context.json {
            try context.printJSON(TemplateList(templates: templates))
            return .success
        }
        if templates.isEmpty {
            context.console.warning("no templates found; set \(TemplateLibrary.environmentVariable) or reinstall modkit")
            return .failure
        }
        var table = TextTable()
        for template in templates { table.add([template.name, "(\(template.origin.rawValue))", template.description]) }
        context.console.result(table.render())
        return .success
    }

    /// Every template problem with its file:line, then a line saying nothing was created.
    static func report(_ error: TemplateError, context: Context) {
        if context.json { try? context.printJSON(ErrorReport(errors: ErrorJSON.all(from: error))) }
        ModKitCLI.print(error.diagnostics, console: context.console)
        let count = error.diagnostics.count
        context.console.diagnostic("\(count) problem\(count == 1 ? "" : "s"); nothing was created")
    }

    /// `--path` as given on the command line (relative to the current directory) made relative to the workspace root.
    static func workspacePath(_ path: String, manifest: Manifest, context: Context) throws -> String {
        let absolute = URL(fileURLWithPath: path, relativeTo: context.workingDirectory).standardizedFileURL.path
        let root = manifest.root.standardizedFileURL.path
        guard absolute.hasPrefix(root + "/") else { throw UsageError("--path '\(path)' is not inside the workspace \(root)") }
        return String(absolute.dropFirst(root.count + 1))
    }

    /// A remote given as a local path is made absolute, so it means the same from any directory; urls stay as written.
    static func remoteURL(_ url: String, context: Context) -> String {
        guard url.hasPrefix("./") || url.hasPrefix("../") || url == "." || url == ".." else { return url }
        return URL(fileURLWithPath: url, relativeTo: context.workingDirectory).standardizedFileURL.path
    }

    /// This executable, symbolic links resolved, so templates installed next to it are found.
    static func executableURL() -> URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return URL(fileURLWithPath: path) }
        if let url = Bundle.main.executableURL { return url.resolvingSymlinksInPath() }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath() }
    }
}

/// `modkit new --list-templates --json`.
struct TemplateList: Encodable {
    struct Entry: Encodable {
        var name: String
        /// builtin, workspace, path or git.
        var origin: String
        var description: String
        var path: String
    }
    var templates: [Entry]

    init(templates: [TemplateSummary]) {
        self.templates = templates.map { Entry(name: $0.name, origin: $0.origin == .builtin ? "builtin" : $0.origin.rawValue, description: $0.description, path: $0.path) }
    }
}

/// What `modkit new` prints: results on stdout, next steps on stderr.
enum NewOutput {
    /// `modkit new --json`.
    struct Report: Encodable {
        struct Entry: Encodable {
            var name: String
            var path: String
            var kind: Module.Kind
            var url: String?
            var version: String
            var dependencies: [String]
            var commit: String?
            var branch: String?
            var pushed: Bool
        }
        var template: String
        var dryRun: Bool
        var modules: [Entry]
        var files: [String]
        var manifestDiff: String
    }

    static func report(_ plan: ScaffoldPlan, result: ScaffoldResult?) -> Report {
        Report(template: plan.template.name, dryRun: result == nil, modules: plan.modules.map { module in
            Report.Entry(name: module.name, path: module.path, kind: module.kind, url: module.url, version: module.version.description,
                         dependencies: module.dependencies, commit: result?.commits[module.name], branch: result?.branches[module.name],
                         pushed: result?.pushed.contains(module.name) ?? false)
        }, files: plan.files.map(\.path), manifestDiff: plan.manifestDiff)
    }

    static func describe(_ module: ScaffoldPlan.NewModule) -> String {
        let kind = module.kind == .repository ? "repository module" : "directory module"
        let needs = module.dependencies.isEmpty ? "" : ", depends on \(module.dependencies.joined(separator: ", "))"
        return "\(module.name) \(module.version) (\(kind)) at \(module.path)\(needs)"
    }

    static func printDryRun(_ plan: ScaffoldPlan, context: Context) {
        if context.json { try? context.printJSON(report(plan, result: nil)); return }
        let console = context.console
        console.result("Would create from template \(plan.template.name):")
        for module in plan.modules { console.result("  " + describe(module)) }
        console.result("Files:")
        for file in plan.files {
            var notes: [String] = []
            if file.isGuard { notes.append("version guard") }
            if file.executable { notes.append("executable") }
            if case .symlink(let target) = file.content { notes.append("link to \(target)") }
            console.result("  \(file.path)" + (notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))"))
        }
        for module in plan.modules where module.kind == .repository {
            let push = plan.pushes ? ", push to \(module.remoteURL ?? "")" : ""
            console.result("Would run git init and commit \"Create \(module.name) from template \(plan.template.name)\" in \(module.path)\(push)")
        }
        console.result("Manifest change:")
        console.write(plan.manifestDiff, to: .standardOutput)
    }

    static func printResult(_ result: ScaffoldResult, context: Context) {
        let plan = result.plan
        if context.json { try? context.printJSON(report(plan, result: result)); return }
        let console = context.console
        for module in plan.modules {
            console.result("Created " + describe(module) + " from template \(plan.template.name)")
            if let commit = result.commits[module.name] {
                let branch = result.branches[module.name].map { " on \($0)" } ?? ""
                let pushed = result.pushed.contains(module.name) ? "; pushed to origin (\(module.remoteURL ?? ""))" : ""
                console.result("  initial commit \(commit.prefix(7))\(branch)\(pushed)")
            }
        }
        let files = plan.files.filter { !$0.isGuard }.count
        let guards = plan.files.filter(\.isGuard).map(\.path)
        console.info("\(files) file\(files == 1 ? "" : "s") from the template; version guard: \(guards.joined(separator: ", "))")
        console.info("Registered in \(plan.manifestDisplayPath).")
        ModKitCLI.print(result.warnings, console: console)
        if !result.ignoredPaths.isEmpty {
            console.info("Added \(result.ignoredPaths.joined(separator: ", ")) to the manifest repository's .gitignore.")
        }
        let directories = plan.modules.filter { $0.kind == .directory }.map(\.path)
        if !directories.isEmpty {
            console.info("Next: git add \(plan.manifestDisplayPath) \(directories.joined(separator: " ")) && git commit -m \"Add \(plan.modules.map(\.name).joined(separator: ", "))\"")
        } else {
            console.info("Next: commit \(plan.manifestDisplayPath)\(result.ignoredPaths.isEmpty ? "" : " and .gitignore") in the manifest repository.")
            for module in plan.modules where module.kind == .repository && !result.pushed.contains(module.name) {
                let branch = result.branches[module.name] ?? "HEAD"
                console.info("Then create the remote repository \(module.remoteURL ?? "") and run: git -C \(module.path) push -u origin \(branch)")
            }
        }
    }
}
