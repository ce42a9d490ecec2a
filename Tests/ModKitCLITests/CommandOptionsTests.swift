import Testing
@testable import ModKitCLI

/// Every option a command declares is parsed from its command line and changes the options value the command runs
/// with; none is declared twice or shadows a global option.
@Suite struct CommandOptionsTests {
    /// A value each kind of option accepts, by its metavar (the first choice for options that offer choices).
    static func sampleValue(for option: OptionSpec) -> String {
        if case .choices(let choices) = option.completion, let last = choices.last { return last }
        switch option.kind {
        case .value(let metavar), .repeated(let metavar):
            switch metavar {
            case "N": return "3"
            case "KEY=VALUE": return "summary=Search"
            case "KIND": return option.long == "bump" ? "minor" : "modules"
            case "VERSION": return "1.2"
            default: return "sample-\(option.long)"
            }
        case .flag: return ""
        }
    }

    /// The command line that gives `option` (and a value it takes).
    static func words(for option: OptionSpec) -> [String] {
        option.kind == .flag ? ["--\(option.long)"] : ["--\(option.long)", sampleValue(for: option)]
    }

    /// What the options value holds, field by field.
    static func fields<T>(_ value: T) -> String { String(reflecting: value) }

    @Test(arguments: Registry.commands.map { $0.spec.name })
    func everyDeclaredOptionReachesItsCommand(_ name: String) throws {
        let command = try #require(Registry.command(named: name))
        try check(command)
    }

    private func check<C: Command>(_ command: C.Type) throws {
        let spec = C.spec
        #expect(spec.options.map(\.long) == C.Options.declared.map(\.long), "\(spec.name): the spec lists other options than it reads")
        let parser = ArgumentParser(options: spec.options + GlobalOptions.specs, positional: PositionalSpec("ANY", minimum: 0, maximum: nil))
        let baseline = Self.fields(try C.Options(try parser.parse([])))
        for option in C.Options.declared {
            let parsed = try parser.parse(Self.words(for: option))
            #expect(parsed.flag(option) || parsed.value(option) != nil, "\(spec.name) --\(option.long) is not parsed")
            let options = try C.Options(parsed)
            #expect(Self.fields(options) != baseline, "\(spec.name) --\(option.long) is declared but changes nothing the command reads")
        }
        let names = spec.options.map(\.long)
        #expect(Set(names).count == names.count, "\(spec.name) declares an option twice")
        #expect(Set(names).isDisjoint(with: GlobalOptions.specs.map(\.long)), "\(spec.name) declares a global option again")
        let shorts = (spec.options + GlobalOptions.specs).compactMap(\.short)
        #expect(Set(shorts).count == shorts.count, "\(spec.name) gives one short option two meanings")
    }

    /// The options that make a mutating command change nothing are exactly its read-only modes: a renamed --check or
    /// --dry-run cannot silently make a command take (or skip) the workspace lock.
    @Test func readOnlyModesSkipTheLockAndNothingElseDoes() throws {
        let readOnly: [String: Set<String>] = [
            "guard": ["check", "dry-run"], "pin": ["check", "dry-run"], "new": ["dry-run", "list-templates"],
            "release": ["plan", "dry-run", "markdown"],
        ]
        // develop's listing (no module, no -g, no --off) writes nothing; naming a module or --off does.
        let develop = ArgumentParser(options: DevelopCommand.spec.options + GlobalOptions.specs, positional: DevelopCommand.spec.positional)
        #expect(try DevelopCommand.Options(try develop.parse([])).changesNothing)
        for arguments in [["--off"], ["Core"], ["-g", "core"], ["--off", "Core"]] {
            #expect(try !DevelopCommand.Options(try develop.parse(arguments)).changesNothing, "develop \(arguments)")
        }
        for command in Registry.commands where command.spec.name != "develop" {
            try lockFreeOptions(command, expected: readOnly[command.spec.name] ?? [])
        }
    }

    private func lockFreeOptions<C: Command>(_ command: C.Type, expected: Set<String>) throws {
        let parser = ArgumentParser(options: C.spec.options + GlobalOptions.specs, positional: PositionalSpec("ANY", minimum: 0, maximum: nil))
        #expect(try C.Options(try parser.parse([])).changesNothing == false, "\(C.spec.name) with no options")
        var found: Set<String> = []
        for option in C.Options.declared where try C.Options(try parser.parse(Self.words(for: option))).changesNothing {
            found.insert(option.long)
        }
        #expect(found == expected, "\(C.spec.name)")
        if C.spec.name == "release" {
            #expect(try C.Options(try parser.parse(["--plan", "--abandon"])).changesNothing == false, "release --abandon discards state: it takes the lock")
        }
    }
}
