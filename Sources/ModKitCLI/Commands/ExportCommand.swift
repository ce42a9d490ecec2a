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
        options: [
            OptionSpec(nil, "format", .value(metavar: "FORMAT"), help: "repo, west or vcstool (required).",
                       completion: .choices(["repo", "west", "vcstool"])),
            OptionSpec(nil, "exact", help: "Write every module at its current HEAD commit."),
            OptionSpec("o", "output", .value(metavar: "FILE"), help: "Write the manifest to FILE instead of stdout.", completion: .files),
        ],
        positional: .modules,
        examples: [
            "modkit export --format vcstool --exact > product.repos",
            "modkit export --format west -o west.yml",
            "modkit export --format repo -g core",
        ],
        offersJSON: false
    )

    static func run(_ context: Context) throws -> ExitStatus {
        let names = ExportFormat.allCases.map(\.rawValue)
        guard let formatName = context.arguments.value("format") else {
            throw UsageError("--format is required (\(names.joined(separator: ", ")))")
        }
        guard let format = ExportFormat(rawValue: formatName) else {
            throw UsageError("--format expects one of \(names.joined(separator: ", ")), got '\(formatName)'\(DidYouMean.suffix(for: formatName, among: names))")
        }
        let result = try context.withWorkspace { run in
            try ManifestExporter.export(run.workspace.manifest, modules: try run.modules(), format: format, exact: context.arguments.flag("exact"))
        }
        for warning in result.warnings { context.console.warning(warning) }
        if let output = context.arguments.value("output") {
            let file = URL(fileURLWithPath: output, relativeTo: context.workingDirectory).standardizedFileURL
            try AtomicFile.write(Data(result.text.utf8), to: file)
            context.console.info("Wrote \(output) (\(format.rawValue)).")
        } else {
            context.console.write(result.text, to: .standardOutput)
        }
        return .success
    }
}
