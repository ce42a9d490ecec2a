/// One option a command accepts, such as `-j/--jobs N` or `--json`.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A switch with no value.
        case flag
        /// Takes one value; given twice, the last one wins.
        case value(metavar: String)
        /// Takes one value and may be repeated; every value is kept.
        case repeated(metavar: String)
    }

    public var short: Character?
    public var long: String
    public var kind: Kind
    public var help: String

    public init(_ short: Character? = nil, _ long: String, _ kind: Kind = .flag, help: String) {
        self.short = short
        self.long = long
        self.kind = kind
        self.help = help
    }

    /// How the option is shown in help: `-j, --jobs N`.
    var signature: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(long)"
        switch kind {
        case .flag: break
        case .value(let metavar), .repeated(let metavar): text += " \(metavar)"
        }
        return text
    }
}

/// The positional arguments a command takes, for parsing and for its usage line.
public struct PositionalSpec: Sendable {
    public var metavar: String
    public var minimum: Int
    public var maximum: Int?

    public init(_ metavar: String, minimum: Int = 0, maximum: Int? = nil) {
        self.metavar = metavar
        self.minimum = minimum
        self.maximum = maximum
    }

    public static let none = PositionalSpec("", minimum: 0, maximum: 0)
    /// Optional module names restricting the command, as most commands take.
    public static let modules = PositionalSpec("MODULE", minimum: 0, maximum: nil)

    var usage: String {
        guard maximum != 0 else { return "" }
        switch (minimum, maximum) {
        case (0, 1): return "[\(metavar)]"
        case (1, 1): return metavar
        case (0, _): return "[\(metavar)...]"
        default: return "\(metavar)..."
        }
    }
}

/// Options every command accepts (SPEC section 2).
enum GlobalOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("C", "directory", .value(metavar: "DIR"), help: "Run as if modkit was started in DIR."),
        OptionSpec(nil, "manifest", .value(metavar: "FILE"), help: "Use FILE as the manifest instead of searching for modkit.yml."),
        OptionSpec("j", "jobs", .value(metavar: "N"), help: "Work on N modules at once (default: CPU count; at least 4 for network work and status)."),
        OptionSpec("g", "group", .repeated(metavar: "G"), help: "Only modules in group G (repeatable)."),
        OptionSpec("q", "quiet", help: "Print only errors and results."),
        OptionSpec("v", "verbose", help: "Print more detail."),
        OptionSpec(nil, "json", help: "Print machine-readable JSON on stdout."),
        OptionSpec(nil, "no-color", help: "Never colour output (also NO_COLOR=1)."),
        OptionSpec(nil, "accept-new-host-keys", help: "Add unknown ssh host keys to ~/.ssh/known_hosts (changed keys are still refused)."),
        OptionSpec("h", "help", help: "Show help for the command."),
    ]
}
