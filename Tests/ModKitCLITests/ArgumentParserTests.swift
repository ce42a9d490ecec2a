import Testing
@testable import ModKitCLI

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(
        options: [GlobalOptions.jobs, GlobalOptions.group, GlobalOptions.quiet, GlobalOptions.verbose, GlobalOptions.json],
        positional: .modules
    )

    @Test func longShortInlineAndBundledForms() throws {
        let parsed = try parser.parse(["--jobs=3", "-g", "core", "-gui", "-qv", "Core", "--json", "--", "--not-an-option"])
        #expect(parsed.value(GlobalOptions.jobs) == "3")
        #expect(parsed.values(GlobalOptions.group) == ["core", "ui"])
        #expect(parsed.flag(GlobalOptions.quiet) && parsed.flag(GlobalOptions.verbose) && parsed.flag(GlobalOptions.json))
        #expect(parsed.positionals == ["Core", "--not-an-option"])
    }

    @Test func shortValueAttached() throws {
        #expect(try parser.parse(["-j8"]).int(GlobalOptions.jobs) == 8)
        #expect(try parser.parse(["-j", "2"]).int(GlobalOptions.jobs) == 2)
    }

    @Test func jobsOutOfRangeIsAUsageErrorWhateverTheCommand() {
        for value in ["0", "-1", "12345678901234567890", "1025", "two", ""] {
            #expect(throws: UsageError.self, "-j \(value)") { try parser.parse(["-j", value]) }
        }
        #expect(throws: UsageError.self) { try parser.parse(["--jobs=0"]) }
        #expect(throws: UsageError.self) { try parser.parse(["-j0"]) }
    }

    @Test func anEmptyPositionalArgumentIsAUsageError() {
        #expect(throws: UsageError.self) { try parser.parse([""]) }
        #expect(throws: UsageError.self) { try parser.parse(["Core", ""]) }
        #expect(throws: UsageError.self) { try parser.parse(["--", ""]) }
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect(throws: UsageError.self) { try parser.parse(["--jsno"]) }
        do {
            _ = try parser.parse(["--verbos"])
            Issue.record("expected a usage error")
        } catch let error as UsageError {
            #expect(error.message == "unknown option '--verbos' (did you mean '--verbose'?)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingValueAndBadNumber() throws {
        #expect(throws: UsageError.self) { try parser.parse(["--jobs"]) }
        #expect(throws: UsageError.self) { try parser.parse(["-j", "zero"]) }
    }

    @Test func positionalLimits() {
        let single = ArgumentParser(options: [], positional: PositionalSpec("VERSION", minimum: 1, maximum: 1))
        #expect(throws: UsageError.self) { try single.parse([]) }
        #expect(throws: UsageError.self) { try single.parse(["1.0", "2.0"]) }
        #expect((try? single.parse(["1.0"]))?.positionals == ["1.0"])
    }
}

@Suite struct CLIDispatchTests {
    @Test func unknownCommandExitsTwoWithSuggestion() {
        let console = Console(capturing: ())
        let status = ModKitCLI.run(["stauts"], console: console)
        #expect(status == .usage)
        #expect(console.captured.err.contains("modkit: error: unknown command 'stauts' (did you mean 'status'?)"))
    }

    @Test func helpForEveryCommandShowsUsageAndExamples() {
        for command in Registry.commands {
            let console = Console(capturing: ())
            #expect(ModKitCLI.run([command.spec.name, "--help"], console: console) == .success)
            let out = console.captured.out
            #expect(out.contains("USAGE: modkit \(command.spec.name)"), "\(command.spec.name)")
            #expect(out.contains("EXAMPLES:"), "\(command.spec.name)")
            #expect(out.contains("--json"), "\(command.spec.name)")
        }
    }

    @Test func usageErrorPrintsUsageAndExitsTwo() {
        let console = Console(capturing: ())
        #expect(ModKitCLI.run(["list", "--bogus"], console: console) == .usage)
        #expect(console.captured.err.contains("modkit: error: unknown option '--bogus'"))
        #expect(console.captured.err.contains("usage: modkit list"))
    }

    @Test func globalOptionsBeforeTheCommand() {
        let console = Console(capturing: ())
        #expect(ModKitCLI.run(["-C", "/nonexistent-modkit-dir", "list"], console: console) == .usage)
        #expect(console.captured.err.contains("no such directory"))
    }

    @Test func versionFlag() {
        let console = Console(capturing: ())
        #expect(ModKitCLI.run(["--version"], console: console) == .success)
        #expect(console.captured.out.hasPrefix("modkit \(ModKitCLI.version) (libgit2 "))
    }
}

@Suite struct TextTableTests {
    @Test func alignsIgnoringEscapes() {
        var table = TextTable()
        table.add(["\u{1B}[1mA\u{1B}[0m", "x"])
        table.add(["longer", "y"])
        #expect(table.render() == "\u{1B}[1mA\u{1B}[0m       x\nlonger  y")
    }
}
