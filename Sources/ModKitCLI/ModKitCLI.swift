import Foundation
import GitKit
import ModKit

/// The modkit command line: picks the subcommand, parses its arguments, runs it, maps errors to exit codes.
public enum ModKitCLI {
    public static let version = "0.1.0"

    /// Runs modkit with `arguments` (without the program name) and returns the process exit code.
    public static func main(_ arguments: [String], console providedConsole: Console? = nil) -> Int32 {
        if providedConsole == nil {
            Interrupt.install()
            GitKit.initializeInBackground()
        }
        let status = run(arguments) { parsed in
            providedConsole ?? Console(noColorFlag: parsed.flag(GlobalOptions.noColor), quiet: parsed.flag(GlobalOptions.quiet), verbose: parsed.flag(GlobalOptions.verbose))
        }
        if providedConsole == nil { GitKit.finishInitialization() }
        return status.rawValue
    }

    /// Runs one command line, printing to `console`.
    static func run(_ arguments: [String], console: Console) -> ExitStatus { run(arguments) { _ in console } }

    /// Runs one command line; `makeConsole` builds the console from the parsed options (bundled short options
    /// such as `-qj1` included), or, when the command line does not parse, from the options it could read.
    static func run(_ arguments: [String], makeConsole: (ParsedArguments) -> Console) -> ExitStatus {
        let (commandIndex, leading) = locateCommand(arguments)
        func fallbackConsole() -> Console { makeConsole(ArgumentParser.lenient(arguments, options: GlobalOptions.specs)) }
        guard let commandIndex else { return runWithoutCommand(leading, console: fallbackConsole()) }

        let name = arguments[commandIndex]
        if name == "help" { return runHelp(arguments.dropFirst(commandIndex + 1), console: fallbackConsole()) }
        guard let command = Registry.command(named: name) else { return unknownCommand(name, console: fallbackConsole()) }

        var rest = arguments
        rest.remove(at: commandIndex)
        return runCommand(command, arguments: rest, makeConsole: makeConsole, fallbackConsole: fallbackConsole)
    }

    /// A command line with no command word: `--version`, `-h`/`--help`, or a usage error.
    private static func runWithoutCommand(_ leading: [String], console: Console) -> ExitStatus {
        if leading.contains("--version") {
            console.result("modkit \(version) (libgit2 \(GitKit.libgit2Version))")
            return .success
        }
        if leading.contains("-h") || leading.contains("--help") {
            console.result(Help.overview())
            return .success
        }
        console.error("no command given")
        console.diagnostic(Help.overview())
        return .usage
    }

    /// `modkit help [COMMAND]` (`rest` is what follows `help`), and `modkit help --man`.
    private static func runHelp(_ rest: ArraySlice<String>, console: Console) -> ExitStatus {
        if rest.contains("--\(Help.manOption.long)") {
            console.result(ManPage.render(version: version))
            return .success
        }
        if let unknown = rest.first(where: { $0.hasPrefix("-") && !["-h", "--help"].contains($0) }) {
            console.error("unknown option '\(unknown)'")
            console.diagnostic("usage: \(Help.helpUsage)")
            return .usage
        }
        let topic = rest.first { !$0.hasPrefix("-") }
        guard let topic else {
            console.result(rest.isEmpty ? Help.overview() : Help.helpText)
            return .success
        }
        guard let command = Registry.command(named: topic) else { return unknownCommand(topic, console: console) }
        console.result(Help.text(for: command.spec))
        return .success
    }

    /// Parses the command's arguments (`rest`: the command line without the command word) and runs it, reporting
    /// any error on the console the parsed options ask for (the fallback one when they do not parse).
    private static func runCommand(_ command: any Command.Type, arguments rest: [String], makeConsole: (ParsedArguments) -> Console,
                                   fallbackConsole: () -> Console) -> ExitStatus {
        let spec = command.spec
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser(options: spec.options + GlobalOptions.specs, positional: spec.positional).parse(rest)
        } catch {
            return report(error, command: spec, console: fallbackConsole(), json: rest.contains("--json"))
        }
        let console = makeConsole(parsed)
        do {
            if parsed.flag(GlobalOptions.json), !spec.offersJSON {
                throw UsageError("\(spec.name) does not print JSON; drop --json")
            }
            if parsed.flag(GlobalOptions.help) {
                console.result(Help.text(for: spec))
                return .success
            }
            let directory = try workingDirectory(parsed)
            if spec.reachesRemotes {
                try RemoteAccess.configure(acceptNewHostKeys: parsed.flag(GlobalOptions.acceptNewHostKeys))
            }
            return try execute(command, arguments: parsed, console: console, workingDirectory: directory)
        } catch {
            return report(error, command: spec, console: console, json: parsed.flag(GlobalOptions.json) && spec.offersJSON)
        }
    }

    /// Reads the command's own options, then runs it with them: the one path from a parsed command line to a command.
    private static func execute<C: Command>(_ command: C.Type, arguments: ParsedArguments, console: Console,
                                            workingDirectory: URL) throws -> ExitStatus {
        let options = try C.Options(arguments)
        let context = Context(command: C.spec, arguments: arguments, console: console, workingDirectory: workingDirectory,
                              changesWorkspace: C.spec.mutates && !options.changesNothing)
        return try C.run(context, options)
    }

    /// Finds the subcommand word, skipping global options (and their values) that come before it.
    private static func locateCommand(_ arguments: [String]) -> (Int?, [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return (index + 1 < arguments.count ? index + 1 : nil, Array(arguments[..<index])) }
            if !argument.hasPrefix("-") || argument == "-" { return (index, Array(arguments[..<index])) }
            let takesValue = GlobalOptions.specs.contains { spec in
                guard spec.kind != .flag else { return false }
                return argument == "--\(spec.long)" || (spec.short.map { argument == "-\($0)" } ?? false)
            }
            index += takesValue ? 2 : 1
        }
        return (nil, arguments)
    }

    private static func workingDirectory(_ parsed: ParsedArguments) throws -> URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard let path = parsed.value(GlobalOptions.directory) else { return current }
        let url = URL(fileURLWithPath: path, isDirectory: true, relativeTo: current).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("-C: no such directory '\(path)'")
        }
        return url
    }

    private static func unknownCommand(_ name: String, console: Console) -> ExitStatus {
        var message = "unknown command '\(name)'"
        if let suggestion = DidYouMean.suggestion(for: name, among: Registry.commands.map { $0.spec.name }) {
            message += " (did you mean '\(suggestion)'?)"
        }
        console.error(message)
        console.diagnostic("See 'modkit --help' for the list of commands.")
        return .usage
    }

    /// Diagnostics through the one renderer (`Array<Diagnostic>.report`): `FILE:LINE:COL: error: …` with at most 120 columns of
    /// the line around a caret, one without a position as `modkit: error: …`; errors capped, warnings of one kind folded unless `-v`.
    static func print(_ diagnostics: [Diagnostic], console: Console, verbose: Bool = false) {
        guard !diagnostics.isEmpty else { return }
        console.diagnostic(diagnostics.report(colored: console.colorOnStandardError, foldingWarnings: !verbose))
    }

    /// Prints an error the way its kind asks for (with `json`, also as the `errors` report on stdout) and returns the
    /// matching exit status.
    static func report(_ error: any Error, command: CommandSpec, console: Console, json: Bool = false) -> ExitStatus {
        if json, let text = try? JSONOutput.render(ErrorReport(errors: ErrorJSON.all(from: error)), command: command.name) {
            console.result(text)
        }
        switch error {
        case let usage as UsageError:
            console.error(usage.message)
            console.diagnostic("usage: \(Help.usageLine(for: command))\nSee 'modkit \(command.name) --help'.")
            return .usage
        case let manifest as ManifestError:
            print(manifest.diagnostics, console: console)
            let count = manifest.diagnostics.filter { $0.severity == .error }.count
            if count > 1 { console.diagnostic("\(count) errors in the manifest") }
            return .usage
        case let template as TemplateError:
            print(template.diagnostics, console: console)
            return .usage
        case let modkit as ModKitError:
            console.error(modkit.message)
            if let hint = modkit.hint { console.diagnostic("hint: \(hint)") }
            return modkit.isInputError ? .usage : .failure
        case let git as GitError:
            console.error(git.message)
            return .failure
        default:
            console.error("\(error)")
            return .failure
        }
    }
}
