import Foundation
import GitKit

/// `modkit start BRANCH`: a topic branch from the current commit in each selected repository.
public enum TopicBranch {
    /// Refuses a name git would refuse for a branch (`git check-ref-format --branch`), before any repository is touched.
    public static func checkName(_ branch: String) throws(ModKitError) {
        guard Repository.isValidBranchName(branch) else {
            throw ModKitError.input("'\(branch)' is not a valid branch name",
                                    hint: "git's rules: no '..', '~', '^', ':', '?', '*', '[', '\\', spaces or control characters, no '/' at either end or twice in a row, no leading '-'")
        }
    }

    public static func start(_ branch: String, in modules: [Module], workspace: Workspace, jobs: Int) -> [ModuleResult<BranchFacts>] {
        let manifest = workspace.manifest
        // Directory modules share the manifest repository: start the branch there once.
        var targets: [(name: String, path: String, directory: URL)] = modules.filter { $0.kind == .repository }.map {
            ($0.name, $0.path, manifest.directory(of: $0))
        }
        if modules.contains(where: { $0.kind == .directory }) {
            targets.append(("(manifest repository)", ".", manifest.root))
        }
        return Parallel.map(targets.map { Target(name: $0.name, path: $0.path, directory: $0.directory) }, jobs: jobs) { target in
            start(branch, target: target)
        }
    }

    /// The config key that marks a branch made by `modkit start`: sync leaves it checked out even once it
    /// has an upstream (after `modkit push`).
    public static func markKey(_ branch: String) -> String { "branch.\(branch).modkitTopic" }

    struct Target: Sendable {
        var name: String
        var path: String
        var directory: URL
    }

    static func start(_ branch: String, target: Target) -> ModuleResult<BranchFacts> {
        var result = ModuleResult(name: target.name, path: target.path, outcome: .failed, detail: "", facts: BranchFacts(branch: branch))
        guard FileManager.default.fileExists(atPath: target.directory.path) else {
            result.outcome = .skipped
            result.detail = "not cloned"
            return result
        }
        do {
            let repository = try Repository.open(target.directory.path)
            guard let commit = try repository.head().commit else {
                result.detail = "no commit to start from"
                return result
            }
            if case .branch(branch, _) = try repository.head() {
                result.outcome = .upToDate
                result.detail = "already on \(branch)"
                return result
            }
            if let existing = try repository.branchTarget(branch) {
                guard existing == commit else {
                    result.detail = "branch \(branch) already exists at \(existing.short), not at the current commit \(commit.short)"
                    return result
                }
                try repository.checkoutBranch(branch)
                result.outcome = .updated
                result.detail = "switched to existing \(branch) at \(commit.short)"
                return result
            }
            try repository.createBranch(branch, at: commit)
            try repository.setConfigString(TopicBranch.markKey(branch), "true")
            try repository.checkoutBranch(branch)
            result.outcome = .created
            result.detail = "created \(branch) at \(commit.short)"
        } catch {
            result.detail = ErrorText.describe(error)
        }
        return result
    }
}
