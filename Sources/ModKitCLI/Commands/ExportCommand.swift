import Foundation
import ModKit

/// `modkit export`: the workspace as a repo, west or vcstool manifest — a way back to the other tools.
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        summary: "Write the workspace as a repo, west or vcstool manifest",
        discussion: """
        Writes the repository modules of the workspace as another tool's manifest on stdout (or into
        --output FILE), so the same workspace can be driven by that tool. With --exact every module is
        written at the commit checked out now. Directory modules live in the manifest repository and
        are left out, with a warning.
        """,
        options: Options.declared,
        positional: .modules,
        examples: [
            "modkit export --format vcstool --exact > product.repos",
            "modkit export --format west -o west.yml",
            "modkit export --format repo -g core",
        ],
        offersJSON: false
    )

    struct Options: CommandOptions {
        static let format = OptionSpec(nil, "format", .value(metavar: "FORMAT"), help: "repo, west or vcstool (required).",
                                       completion: .choices(ExportFormat.allCases.map(\.rawValue)))
        static let exact = OptionSpec(nil, "exact", help: "Write every module at its current HEAD commit.")
        static let output = OptionSpec("o", "output", .value(metavar: "FILE"), help: "Write the manifest to FILE instead of stdout.", completion: .files)
        static let declared = [format, exact, output]
        var format: String?
        var exact: Bool
        var output: String?
        init(_ arguments: ParsedArguments) {
            format = arguments.value(Self.format)
            exact = arguments.flag(Self.exact)
            output = arguments.value(Self.output)
        }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        let names = ExportFormat.allCases.map(\.rawValue)
        guard let formatName = options.format else {
            throw UsageError("--format is required (\(names.joined(separator: ", ")))")
        }
        guard let format = ExportFormat(rawValue: formatName) else {
            throw UsageError("--format expects one of \(names.joined(separator: ", ")), got '\(formatName)'\(DidYouMean.suffix(for: formatName, among: names))")
        }
        let result: ExportResult
        do {
            result = try context.withWorkspace { run in
                try ManifestExporter.export(run.workspace.manifest, modules: try run.modules(), format: format, exact: options.exact)
            }
        } catch let failure as ExportError {
            return context.finish(needingAttention: failure.diagnostics.compactMap(\.module), diagnostics: failure.diagnostics, verb: spec.name)
        }
        if let output = options.output {
            let file = URL(fileURLWithPath: output, relativeTo: context.workingDirectory).standardizedFileURL
            try AtomicFile.write(Data(result.text.utf8), to: file)
            context.console.info("Wrote \(output) (\(format.rawValue)).")
        } else {
            context.console.write(result.text, to: .standardOutput)
        }
        return context.finish(needingAttention: [], diagnostics: result.warnings, verb: spec.name)
    }
}
