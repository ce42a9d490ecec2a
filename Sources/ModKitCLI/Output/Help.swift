/// Renders `modkit --help` and each command's `--help`.
enum Help {
    static func overview() -> String {
        let width = (Registry.commands.map { $0.spec.name.count }.max() ?? 0) + 2
        let entries = Registry.commands.map { ($0.spec.name, $0.spec.summary) } + [("help", "Show help for a command")]
        let commands = entries.map { name, summary in
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + summary
        }
        return """
        OVERVIEW: modkit manages the modules of a product — many git repositories listed in a
        manifest, or directories of one monorepo — through their whole release life.

        USAGE: modkit [global options] <command> [options] [arguments]

        COMMANDS:
        \(commands.joined(separator: "\n"))

        GLOBAL OPTIONS:
        \(optionLines(GlobalOptions.specs))
              --version        Show the version of modkit and libgit2.

        See 'modkit <command> --help' for the options and examples of a command.
        """
    }

    /// `modkit help --man`: the manual page instead of the overview.
    static let manOption = OptionSpec(nil, "man", help: "Print the manual page (roff) of modkit.")
    static let helpUsage = "modkit help [COMMAND] [--man]"
    static var helpText: String {
        """
        OVERVIEW: Show help for a command, or the manual page

        USAGE: \(helpUsage)

        OPTIONS:
        \(optionLines([manOption]))

        EXAMPLES:
          modkit help sync
          modkit help --man | man -l -
        """
    }

    static func usageLine(for spec: CommandSpec) -> String {
        var parts = ["modkit", spec.name]
        if !spec.options.isEmpty { parts.append("[options]") }
        let positional = spec.positional.usage
        if !positional.isEmpty { parts.append(positional) }
        return parts.joined(separator: " ")
    }

    static func text(for spec: CommandSpec) -> String {
        var sections = ["OVERVIEW: \(spec.summary)"]
        if !spec.discussion.isEmpty { sections.append(spec.discussion) }
        sections.append("USAGE: \(usageLine(for: spec))")
        if !spec.options.isEmpty { sections.append("OPTIONS:\n" + optionLines(spec.options)) }
        sections.append("GLOBAL OPTIONS:\n" + optionLines(GlobalOptions.specs))
        if !spec.examples.isEmpty {
            sections.append("EXAMPLES:\n" + spec.examples.map { "  \($0)" }.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    static func optionLines(_ specs: [OptionSpec]) -> String {
        let width = max(20, (specs.map(\.signature.count).max() ?? 0) + 2)
        return specs.map { spec in
            "  " + spec.signature.padding(toLength: width, withPad: " ", startingAt: 0) + spec.help
        }.joined(separator: "\n")
    }
}
