import Foundation
import ModKit

/// What a command tells `--help` and the parser about itself.
public struct CommandSpec: Sendable {
    public var name: String
    public var summary: String
    public var discussion: String = ""
    public var options: [OptionSpec] = []
    public var positional: PositionalSpec = .none
    public var examples: [String] = []
    /// Whether the command changes the workspace (such commands take the workspace lock).
    public var mutates = false
    /// Whether the command may talk to remotes; only then is authentication set up (it reads git config).
    public var reachesRemotes = false
    /// Whether the command prints a JSON report with --json (docs/json.md); the others refuse --json.
    public var offersJSON = true
    /// Whether the command runs commands in module directories without changing the workspace itself (forall); like a
    /// mutating command, it refuses module paths that lead through a symbolic link before it runs anything.
    public var runsInModules = false
}

/// A modkit subcommand: a spec for parsing and help, its options, and a run function over ModKit.
protocol Command {
    associatedtype Options: CommandOptions
    static var spec: CommandSpec { get }
    static func run(_ context: Context, _ options: Options) throws -> ExitStatus
}

/// A command's own options: declared once (`declared`, which its spec lists) and read from the command line in one
/// place (`init`), so the command sees typed values and no option is looked up by a name typed twice.
/// `CommandOptionsTests` proves that each declared option changes the value `init` builds.
protocol CommandOptions: Sendable {
    /// The options the command accepts besides `GlobalOptions`, in the order help lists them.
    static var declared: [OptionSpec] { get }
    init(_ arguments: ParsedArguments) throws
    /// Whether these options make a mutating command change nothing (`--check`, `--dry-run`, `--plan` …), so that it
    /// runs without the workspace lock.
    var changesNothing: Bool { get }
}

extension CommandOptions {
    var changesNothing: Bool { false }
}

/// The options of a command that has none of its own.
struct NoOptions: CommandOptions {
    static let declared: [OptionSpec] = []
    init(_ arguments: ParsedArguments) {}
}

/// How modkit ends: SPEC section 2 exit codes, plus 130 for Ctrl-C.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case interrupted = 130
}

/// Everything a command needs from one invocation besides its own options: the positional arguments and global
/// options, the console, and whether this invocation changes the workspace.
struct Context {
    let command: CommandSpec
    let arguments: ParsedArguments
    let console: Console
    let workingDirectory: URL
    /// A mutating command whose options do not make it change nothing: it holds the workspace lock while it runs.
    let changesWorkspace: Bool

    var json: Bool { arguments.flag(GlobalOptions.json) }
    var quiet: Bool { arguments.flag(GlobalOptions.quiet) }
    var verbose: Bool { arguments.flag(GlobalOptions.verbose) }
    var groups: [String] { arguments.values(GlobalOptions.group) }

    /// The `-j` value, or the CPU count — at least 4 when the work mostly waits: on the network (sync, tag --push)
    /// or on many small file-system reads (status reads every repository's index and work tree; measured with
    /// scripts/bench.sh, 4 workers beat 2 on two cores).
    func jobs(waitsOnIO: Bool) throws -> Int {
        if let jobs = try arguments.int(GlobalOptions.jobs, maximum: ParsedArguments.maximumJobs) { return jobs }
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        return waitsOnIO ? max(4, cpus) : max(1, cpus)
    }

    /// Workers and transfer limits of a sync: `-j` workers when given, else `TransferLimits.defaultJobs` (a sync
    /// mostly waits on round trips); at most `TransferLimits.defaultPerHost(for:)` connections to one host, and work on this
    /// machine (local transfers, work trees) bounded as `jobs(waitsOnIO: true)` bounds it.
    func syncJobs() throws -> (jobs: Int, limits: TransferLimits) {
        let local = try jobs(waitsOnIO: true)
        if let jobs = try arguments.int(GlobalOptions.jobs, maximum: ParsedArguments.maximumJobs) {
            return (jobs, TransferLimits.forSync(jobs: jobs, local: local))
        }
        let jobs = max(TransferLimits.defaultJobs, local)
        return (jobs, TransferLimits.forSync(jobs: jobs, local: local))
    }

    /// The manifest file named by `--manifest`, or found by walking up from the working directory, without reading it.
    func manifestFile() throws -> URL {
        if let manifest = arguments.value(GlobalOptions.manifest) {
            return URL(fileURLWithPath: manifest, relativeTo: workingDirectory).standardizedFileURL
        }
        return try Workspace.manifestFile(from: workingDirectory)
    }

    /// The workspace of `manifestFile()`, read.
    func loadWorkspace() throws -> Workspace {
        var workspace = try Workspace.load(manifestFile: try manifestFile())
        workspace.workingDirectory = workingDirectory
        return workspace
    }

    /// Prints the command's report as its one JSON object on stdout (`schema` and `command` first, see docs/json.md):
    /// pretty, or on one line with `compact`.
    func printJSON<T: Encodable>(_ value: T, compact: Bool = false) throws {
        console.result(try JSONOutput.render(value, command: command.name, compact: compact))
    }
}
