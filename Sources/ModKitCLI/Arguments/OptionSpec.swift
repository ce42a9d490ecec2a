import ModKit

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
    /// What shell completion offers for the option's value.
    public var completion: ValueCompletion

    public init(_ short: Character? = nil, _ long: String, _ kind: Kind = .flag, help: String,
                completion: ValueCompletion = .none) {
        self.short = short
        self.long = long
        self.kind = kind
        self.help = help
        self.completion = completion
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

/// What shell completion offers for a value: fixed words, paths, or names read from the workspace.
public enum ValueCompletion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    case choices([String])
    case files
    case directories
    /// Names `modkit completion --list KIND` prints from the workspace.
    case list(CompletionList)
}

/// The workspace names shell completion can ask modkit for.
public enum CompletionList: String, Sendable, CaseIterable {
    case modules, groups, snapshots, templates
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
        // A composite metavar such as "BRANCH [MODULE...]" already spells out its shape.
        if metavar.contains(" ") || metavar.contains("[") || metavar.contains("...") { return metavar }
        switch (minimum, maximum) {
        case (0, 1): return "[\(metavar)]"
        case (1, 1): return metavar
        case (0, _): return "[\(metavar)...]"
        default: return "\(metavar)..."
        }
    }
}

extension PositionalSpec {
    /// What completion offers for the positional argument at `index` (0-based), read from the metavar's words:
    /// `MODULE` names modules, `SNAPSHOT`/`SNAP1`/`SNAP2` snapshots; a word ending in `...` repeats.
    func completion(at index: Int) -> ValueCompletion {
        let words = metavar.split(separator: " ").map { word in
            (String(word.filter { !"[].".contains($0) }), repeats: word.hasSuffix("...") || word.hasSuffix("...]"))
        }
        guard maximum != 0, !words.isEmpty else { return .none }
        let word: String
        if index < words.count {
            word = words[index].0
        } else if let last = words.last, last.repeats || (words.count == 1 && maximum == nil) {
            word = last.0
        } else {
            return .none
        }
        if word.hasPrefix("MODULE") && !word.contains("=") { return .list(.modules) }
        if word.hasPrefix("SNAP") { return .list(.snapshots) }
        return .none
    }
}

/// Options every command accepts (SPEC section 2), each declared once and looked up by its constant.
enum GlobalOptions {
    static let directory = OptionSpec("C", "directory", .value(metavar: "DIR"), help: "Run as if modkit was started in DIR.", completion: .directories)
    static let manifest = OptionSpec(nil, "manifest", .value(metavar: "FILE"), help: "Use FILE as the manifest instead of searching for modkit.yml.", completion: .files)
    static let jobs = OptionSpec("j", "jobs", .value(metavar: "N"), help: "Work on N modules at once (default: CPU count; at least 4 for network work and status; sync: \(TransferLimits.defaultJobs), with at most \(TransferLimits.defaultPerHost(for: "git://")) connections to a git daemon, \(TransferLimits.defaultPerHost(for: "https://")) to a web server, \(TransferLimits.sshPerHost) to an ssh server).")
    static let group = OptionSpec("g", "group", .repeated(metavar: "G"), help: "Only modules in group G: a comma list, -G leaves G out, all (repeatable).", completion: .list(.groups))
    static let quiet = OptionSpec("q", "quiet", help: "Print only errors and results.")
    static let verbose = OptionSpec("v", "verbose", help: "Print more detail.")
    static let json = OptionSpec(nil, "json", help: "Print one JSON object on stdout (every key: docs/json.md).")
    static let noColor = OptionSpec(nil, "no-color", help: "Never colour output (also NO_COLOR=1).")
    static let acceptNewHostKeys = OptionSpec(nil, "accept-new-host-keys", help: "Add unknown ssh host keys to ~/.ssh/known_hosts (changed keys are still refused).")
    static let help = OptionSpec("h", "help", help: "Show help for the command.")

    static let specs: [OptionSpec] = [directory, manifest, jobs, group, quiet, verbose, json, noColor, acceptNewHostKeys, help]
}
