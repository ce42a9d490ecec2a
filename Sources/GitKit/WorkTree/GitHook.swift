import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The hook a git command runs after it has moved a work tree, run by git itself (`git hook run`) so that its
/// directory, environment and arguments are git's. Every move stands for one git command:
/// a new clone for `git clone` (`post-checkout 0{40} NEW 1`), a fast-forward for `git merge --ff-only`
/// (`post-merge 0`), any other move for `git checkout` (`post-checkout OLD NEW 1`).
public enum GitHook: Sendable, Equatable {
    /// After a new clone's first checkout.
    case clone(to: OID)
    /// After a fast-forward of the checked-out branch.
    case fastForward
    /// After a checkout of another commit or branch.
    case checkout(from: OID?, to: OID)

    var name: String {
        switch self {
        case .fastForward: return "post-merge"
        case .clone, .checkout: return "post-checkout"
        }
    }

    var arguments: [String] {
        let none = String(repeating: "0", count: 40)
        switch self {
        case .fastForward: return ["0"]
        case .clone(let to): return [none, to.hex, "1"]
        case .checkout(let from, let to): return [from?.hex ?? none, to.hex, "1"]
        }
    }

    /// The journal's word for the hook (`-` for none), and back.
    var journalText: String {
        switch self {
        case .fastForward: return "post-merge"
        case .clone(let to): return "clone \(to.hex)"
        case .checkout(let from, let to): return "checkout \(from?.hex ?? "-") \(to.hex)"
        }
    }

    init?(journalText text: String) {
        let words = text.split(separator: " ").map(String.init)
        switch words.first {
        case "post-merge": self = .fastForward
        case "clone" where words.count == 2: guard let to = OID(hex: words[1]) else { return nil }; self = .clone(to: to)
        case "checkout" where words.count == 3:
            guard let to = OID(hex: words[2]) else { return nil }
            self = .checkout(from: OID(hex: words[1]), to: to)
        default: return nil
        }
    }

    /// Runs the hook in `repository` when it exists and is executable (a hook that fails does not undo the move, as
    /// with git); returns its failure, or nil. No process starts when there is no such hook.
    @discardableResult
    public func run(in repository: Repository) -> String? {
        run(in: repository, hooksPath: repository.configStrings(["core.hooksPath"])["core.hooksPath"])
    }

    /// `hooksPath`: `core.hooksPath` as configured, when the caller has read it already.
    func run(in repository: Repository, hooksPath: String?) -> String? {
        guard let workdir = repository.workdir, Self.isInstalled(name, in: repository, hooksPath: hooksPath) else { return nil }
        do {
            // git clone exports the new repository's GIT_DIR to its hook; checkout and merge do not
            let environment = if case .clone = self { ["GIT_DIR": repository.gitDir] } else { [String: String]() }
            try GitCommand(arguments: ["hook", "run", "--ignore-missing", name, "--"] + arguments, directory: workdir,
                           environment: environment).run()
            return nil
        } catch {
            return "the \(name) hook failed: \((error as? GitError)?.message ?? "\(error)")"
        }
    }

    /// Whether `name` is an executable file in the hooks directory git uses (`core.hooksPath`, relative to the work
    /// tree's top, else `hooks` of the common git directory).
    static func isInstalled(_ name: String, in repository: Repository, hooksPath: String?) -> Bool {
        guard GitCommand.isAvailable else { return false }
        var info = stat()
        let path = directory(of: repository, configured: hooksPath) + "/" + name
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// The hooks directory git uses: `core.hooksPath` (`~/` is the home directory; a relative path is taken from the
    /// work tree's top, where hooks run), else `hooks` of the common git directory.
    static func directory(of repository: Repository) -> String {
        directory(of: repository, configured: repository.configStrings(["core.hooksPath"])["core.hooksPath"])
    }

    static func directory(of repository: Repository, configured: String?) -> String {
        guard let configured, !configured.isEmpty else {
            return repository.directory.defaultHooks
        }
        if configured.hasPrefix("/") { return configured }
        if configured.hasPrefix("~/") { return (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + configured.dropFirst(1) }
        return (repository.workdir ?? repository.gitDir) + "/" + configured
    }
}
