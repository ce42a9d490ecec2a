import ModKit

/// The result of parsing a command line against a command's option specs.
public struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    public var positionals: [String] = []

    /// Options are looked up by their declaration (an `OptionSpec` constant), never by a name typed again.
    public func flag(_ option: OptionSpec) -> Bool { flags.contains(option.long) }
    public func value(_ option: OptionSpec) -> String? { values[option.long]?.last }
    public func values(_ option: OptionSpec) -> [String] { values[option.long] ?? [] }

    /// More workers than this are refused: each is a thread with open repositories.
    public static let maximumJobs = 1_024

    /// An integer option value in `minimum...maximum`, or a usage error naming the option.
    public func int(_ option: OptionSpec, minimum: Int = 1, maximum: Int = .max) throws -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), number >= minimum, number <= maximum else {
            let range = maximum == .max ? "at least \(minimum)" : "from \(minimum) to \(maximum)"
            throw UsageError("--\(option.long) expects a whole number \(range), got '\(text)'")
        }
        return number
    }
}

/// A mistake in how modkit was invoked; prints the command's usage and exits 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var command: String?
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    public var description: String { message }
}

/// Parses `argv` against a list of option specs: `--long`, `--long=value`, `--long value`,
/// `-s`, `-svalue`, `-s value`, bundled short flags (`-qv`) and `--` ending options.
struct ArgumentParser {
    let options: [OptionSpec]
    let positional: PositionalSpec

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var scan = Scan(parser: self, arguments: arguments)
        try scan.run()
        let result = scan.result
        if result.flag(GlobalOptions.help) { return result }
        try check(result)
        return result
    }

    /// What a command line must hold beside known options (skipped when it asks for help): no empty argument, a
    /// valid `-j`, and as many positionals as the command takes.
    private func check(_ result: ParsedArguments) throws {
        if result.positionals.contains("") {
            throw UsageError("an empty argument where \(positional.metavar.isEmpty ? "nothing" : positional.metavar) was expected")
        }
        if options.contains(where: { $0.long == GlobalOptions.jobs.long }) { _ = try result.int(GlobalOptions.jobs, minimum: 1, maximum: ParsedArguments.maximumJobs) }
        if result.positionals.count < positional.minimum {
            throw UsageError("missing \(positional.metavar)")
        }
        if let maximum = positional.maximum, result.positionals.count > maximum {
            let extra = result.positionals[maximum]
            throw UsageError("unexpected argument '\(extra)'")
        }
    }

    /// One pass over the arguments, left to right: each is a positional, `--`, a long option or a bundle of short
    /// ones; an option's value may be the next argument, which the pass then skips.
    private struct Scan {
        let parser: ArgumentParser
        let arguments: [String]
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false

        init(parser: ArgumentParser, arguments: [String]) {
            self.parser = parser
            self.arguments = arguments
        }

        mutating func run() throws {
            while index < arguments.count {
                let argument = arguments[index]
                if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                    result.positionals.append(argument)
                } else if argument == "--" {
                    optionsEnded = true
                } else if argument.hasPrefix("--") {
                    try takeLong(argument.dropFirst(2))
                } else {
                    try takeShort(Substring(argument.dropFirst()))
                }
                index += 1
            }
        }

        /// `--name` or `--name=value` (`body` is without the dashes).
        private mutating func takeLong(_ body: Substring) throws {
            let name: String
            let inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inline = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
                inline = nil
            }
            guard let spec = parser.options.first(where: { $0.long == name }) else {
                throw parser.unknownOption("--\(name)")
            }
            try take(spec, inline: inline)
        }

        /// `-s`, bundled flags (`-qv`), or a short option whose value is the rest of the bundle (`-j4`) or the next argument.
        private mutating func takeShort(_ letters: Substring) throws {
            var characters = letters
            while let letter = characters.first {
                characters = characters.dropFirst()
                guard let spec = parser.options.first(where: { $0.short == letter }) else {
                    throw parser.unknownOption("-\(letter)")
                }
                if spec.kind == .flag {
                    try take(spec, inline: nil)
                } else {
                    try take(spec, inline: characters.isEmpty ? nil : String(characters))
                    break
                }
            }
        }

        private mutating func take(_ spec: OptionSpec, inline: String?) throws {
            switch spec.kind {
            case .flag:
                if let inline { throw UsageError("--\(spec.long) takes no value (got '\(inline)')") }
                result.flags.insert(spec.long)
            case .value, .repeated:
                let value: String
                if let inline {
                    value = inline
                } else if index + 1 < arguments.count {
                    index += 1
                    value = arguments[index]
                } else {
                    throw UsageError("\(spec.signature.trimmingLeadingSpaces) needs a value")
                }
                if case .value = spec.kind {
                    result.values[spec.long] = [value]
                } else {
                    result.values[spec.long, default: []].append(value)
                }
            }
        }
    }

    /// The flags among `options` that a command line which does not parse still clearly gives (`--quiet`, or
    /// `-q` in a bundle such as `-qj1`), so that even its error is reported as asked (quiet, no colour).
    static func lenient(_ arguments: [String], options: [OptionSpec]) -> ParsedArguments {
        var result = ParsedArguments()
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                if let spec = options.first(where: { $0.long == name }), spec.kind == .flag { result.flags.insert(spec.long) }
            } else if argument.hasPrefix("-") {
                for letter in argument.dropFirst() {
                    guard let spec = options.first(where: { $0.short == letter }), spec.kind == .flag else { break }
                    result.flags.insert(spec.long)
                }
            }
        }
        return result
    }

    private func unknownOption(_ option: String) -> UsageError {
        let names = options.flatMap { spec in ["--\(spec.long)"] + (spec.short.map { ["-\($0)"] } ?? []) }
        if let suggestion = DidYouMean.suggestion(for: option, among: names) {
            return UsageError("unknown option '\(option)' (did you mean '\(suggestion)'?)")
        }
        return UsageError("unknown option '\(option)'")
    }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop(while: { $0 == " " })) }
}
