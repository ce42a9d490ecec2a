import Foundation
import ModKit

/// `modkit completion bash|zsh|fish`: a shell completion script generated from the command registry.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "completion",
        summary: "Print a shell completion script (bash, zsh or fish)",
        discussion: """
        The script completes commands, options, option values, module names, groups, snapshot names
        (checkout, diff) and template names (new --template). It asks modkit for the names of the
        workspace you are in ('modkit completion --list modules|groups|snapshots|templates').
        scripts/install.sh installs the scripts and the man page ('modkit help --man').
        """,
        options: Options.declared,
        positional: PositionalSpec("SHELL", minimum: 0, maximum: 1),
        examples: [
            "source <(modkit completion bash)",
            "modkit completion zsh > \"${fpath[1]}/_modkit\"",
            "modkit completion fish > ~/.config/fish/completions/modkit.fish",
        ],
        offersJSON: false
    )

    struct Options: CommandOptions {
        static let list = OptionSpec(nil, "list", .value(metavar: "KIND"), help: "Print the workspace's modules, groups, snapshots or templates, one a line.",
                                     completion: .choices(CompletionList.allCases.map(\.rawValue)))
        static let declared = [list]
        var list: String?
        init(_ arguments: ParsedArguments) { list = arguments.value(Self.list) }
    }

    static func run(_ context: Context, _ options: Options) throws -> ExitStatus {
        if let kind = options.list {
            guard let list = CompletionList(rawValue: kind) else {
                throw UsageError("--list expects one of \(CompletionList.allCases.map(\.rawValue).joined(separator: ", ")), got '\(kind)'")
            }
            guard context.arguments.positionals.isEmpty else { throw UsageError("--list takes no SHELL") }
            for name in try names(list, context: context) { context.console.result(name) }
            return .success
        }
        guard let shell = context.arguments.positionals.first else { throw UsageError("missing SHELL (bash, zsh or fish)") }
        let commands = CompletionModel.commands()
        switch shell {
        case "bash": context.console.result(BashCompletion.script(commands))
        case "zsh": context.console.result(ZshCompletion.script(commands))
        case "fish": context.console.result(FishCompletion.script(commands))
        default: throw UsageError("unknown shell '\(shell)'; modkit completes bash, zsh and fish")
        }
        return .success
    }

    /// The names completion offers for `list`, read from the workspace of the working directory.
    private static func names(_ list: CompletionList, context: Context) throws -> [String] {
        switch list {
        case .templates:
            let builtin = TemplateLibrary.builtinDirectory(executable: NewCommand.executableURL())
            let manifest = try? context.loadWorkspace().manifest
            return TemplateLibrary.list(builtin: builtin, manifest: manifest).map(\.name)
        case .modules:
            return try context.loadWorkspace().manifest.modules.map(\.name)
        case .groups:
            var seen: [String] = []
            for group in try context.loadWorkspace().manifest.modules.flatMap(\.groups) where !seen.contains(group) {
                seen.append(group)
            }
            return seen
        case .snapshots:
            return try SnapshotCatalog.list(in: try context.loadWorkspace()).map(\.name)
        }
    }
}

/// The registry as completion scripts see it: every command with its options and positional arguments.
struct CompletionModel {
    struct CommandEntry {
        var name: String
        var summary: String
        var options: [OptionSpec]
        var positional: PositionalSpec
    }

    /// Every command, then `help`; each command's options include the global ones.
    static func commands() -> [CommandEntry] {
        Registry.commands.map { command in
            let spec = command.spec
            return CommandEntry(name: spec.name, summary: spec.summary, options: spec.options + GlobalOptions.specs,
                                positional: spec.positional)
        } + [CommandEntry(name: "help", summary: "Show help for a command", options: [Help.manOption], positional: .none)]
    }

    /// The option words of a spec: `--long` and, where there is one, `-s`.
    static func words(_ option: OptionSpec) -> [String] {
        ["--\(option.long)"] + (option.short.map { ["-\($0)"] } ?? [])
    }

    /// How a shell script encodes a value completion: `w:WORDS`, `f`, `d`, `l:KIND`, `-` (free text).
    static func code(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return "-"
        case .choices(let words): return "w:" + words.joined(separator: " ")
        case .files: return "f"
        case .directories: return "d"
        case .list(let kind): return "l:" + kind.rawValue
        }
    }

    /// A shell case statement mapping `COMMAND OPTION` to the code of the option's value completion.
    static func valueCase(_ commands: [CommandEntry], indent: String) -> String {
        var lines: [String] = []
        for command in commands where command.name != "help" {
            for option in command.options where option.kind != .flag {
                let patterns = words(option).map { "'\(command.name) \($0)'" }.joined(separator: "|")
                lines.append("\(indent)\(patterns)) echo '\(code(option.completion))' ;;")
            }
        }
        for option in GlobalOptions.specs where option.kind != .flag {
            let patterns = words(option).map { "' \($0)'" }.joined(separator: "|")
            lines.append("\(indent)\(patterns)) echo '\(code(option.completion))' ;;")
        }
        return lines.joined(separator: "\n")
    }

    /// A shell case statement mapping `COMMAND INDEX` (0-based) to the code of that positional argument.
    static func positionalCase(_ commands: [CommandEntry], indent: String) -> String {
        var lines: [String] = []
        for command in commands {
            if command.name == "help" {
                lines.append("\(indent)'help '*) echo 'w:\(commands.map(\.name).joined(separator: " "))' ;;")
                continue
            }
            if command.name == "completion" {
                lines.append("\(indent)'completion 0') echo 'w:bash zsh fish' ;;")
                continue
            }
            let positional = command.positional
            guard positional.maximum != 0 else { continue }
            let count = positional.metavar.split(separator: " ").count
            for index in 0..<count {
                lines.append("\(indent)'\(command.name) \(index)') echo '\(code(positional.completion(at: index)))' ;;")
            }
            if positional.maximum == nil, case let last = positional.completion(at: count), last != .none {
                lines.append("\(indent)'\(command.name) '*) echo '\(code(last))' ;;")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A shell case statement mapping a command name to its option words.
    static func optionsCase(_ commands: [CommandEntry], indent: String) -> String {
        commands.map { command in
            let words = command.options.flatMap(words).joined(separator: " ")
            return "\(indent)\(command.name)) echo '\(words)' ;;"
        }.joined(separator: "\n")
    }
}
