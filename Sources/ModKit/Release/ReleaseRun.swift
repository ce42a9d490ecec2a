import Foundation
import GitKit

/// What one step did: its status and the lines that say what it changed (or would change).
public struct StepOutcome: Sendable {
    public enum Status: String, Sendable { case done, failed, skipped }

    public var step: ReleaseStepKind
    public var status: Status
    public var lines: [String]
    /// Planned file changes as a unified diff (dry runs).
    public var diff: String = ""
}

/// A step that stopped the release, with every reason found.
public struct ReleaseStepFailure: Error, Sendable, CustomStringConvertible {
    public var problems: [String]
    public var description: String { problems.joined(separator: "\n") }
}

/// Carries out the steps of one release; in a dry run every change is planned in memory and nothing is written.
public final class ReleaseRun {
    public let workspace: Workspace
    public let plan: ReleasePlan
    public let dryRun: Bool
    let jobs: Int
    /// Planned file changes: applied after each step in a real run, accumulated in a dry run.
    var edits = EditSet()

    public init(workspace: Workspace, plan: ReleasePlan, dryRun: Bool, jobs: Int) {
        self.workspace = workspace
        self.plan = plan
        self.dryRun = dryRun
        self.jobs = jobs
    }

    var version: String { plan.version.description }
    var manifest: Manifest { workspace.manifest }
    /// Every released module at the new version, so later steps see it even before it is written.
    var plannedVersions: [String: String] { Dictionary(uniqueKeysWithValues: plan.modules.map { ($0.name, version) }) }

    /// Runs one step and reports it; a failure is reported, not thrown.
    public func run(_ step: ReleaseStepKind) -> StepOutcome {
        do {
            let before = edits.diff()
            let lines: [String]
            switch step {
            case .preflight: lines = try preflight()
            case .bump: lines = try bump()
            case .changelog: lines = try changelog()
            case .pin: lines = try pin()
            case .guard: lines = try regenerateGuards()
            case .test: lines = try test()
            case .commit: lines = try commit()
            case .tag: lines = try tag()
            case .push: lines = try push()
            case .run(let command): lines = try runCustom(command)
            }
            var outcome = StepOutcome(step: step, status: .done, lines: lines)
            if dryRun {
                let after = edits.diff()
                outcome.diff = after.hasPrefix(before) ? String(after.dropFirst(before.count)) : after
            } else {
                try edits.apply()
                edits = EditSet()
            }
            return outcome
        } catch let failure as ReleaseStepFailure {
            return StepOutcome(step: step, status: .failed, lines: failure.problems)
        } catch {
            return StepOutcome(step: step, status: .failed, lines: [ErrorText.describe(error)])
        }
    }

    // MARK: preflight

    /// Every involved repository clean, on its manifest branch, not behind its remote, and its remote reachable.
    func preflight() throws -> [String] {
        var problems: [String] = []
        var checked: [String] = []
        for module in plan.modules {
            if let current = VersionReader.read(module: module, in: manifest).version, current > plan.version {
                problems.append("\(module.name) is at \(current); releasing it as \(version) would move its version backwards")
            }
        }
        for module in plan.modules where module.kind == .repository {
            let directory = manifest.directory(of: module)
            guard Repository.isRepository(directory.path), let repository = try? Repository.open(directory.path) else {
                problems.append("\(module.name): not cloned at \(module.path) (run 'modkit sync')")
                continue
            }
            let expected = try expectedBranch(of: module, in: repository)
            problems += check(repository, label: module.name, branch: expected, remote: manifest.defaults.remote, paths: [])
            checked.append(module.name)
        }
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit release")
        let paths = [manifestRepository.path(ManifestLoader.fileName)]
            + plan.modules.filter { $0.kind == .directory }.map { manifestRepository.path($0.path) }
        let remote = try manifestRepository.pushRemote(branch: nil)?.remote
        problems += check(manifestRepository.repository, label: "manifest repository", branch: nil, remote: remote, paths: paths)
        if !problems.isEmpty { throw ReleaseStepFailure(problems: problems) }
        return ["\(checked.count + 1) repositor\(checked.isEmpty ? "y" : "ies") clean, on branch, up to date with their remotes"]
    }

    /// The branch a module must be on: its manifest revision when that is a branch of the remote; nil accepts any branch.
    func expectedBranch(of module: Module, in repository: Repository) throws -> String? {
        guard let revision = manifest.revision(of: module) else { return nil }
        if try repository.remoteBranchTarget(remote: manifest.defaults.remote, branch: revision) != nil { return revision }
        throw ReleaseStepFailure(problems: ["\(module.name): its revision '\(revision)' is not a branch; a release commits on a branch"])
    }

    func check(_ repository: Repository, label: String, branch expected: String?, remote: String?, paths: [String]) -> [String] {
        var problems: [String] = []
        do {
            guard case .branch(let branch, let local) = try repository.head() else {
                return ["\(label): HEAD is not on a branch; check out \(expected ?? "a branch") first"]
            }
            if let expected, branch != expected { problems.append("\(label): on branch \(branch), but the manifest says \(expected)") }
            let status = try repository.status(paths: paths)
            if !status.isClean || status.untracked > 0 {
                problems.append("\(label): has uncommitted changes (\(status.staged) staged, \(status.modified) modified, \(status.untracked) untracked); commit or stash them")
            }
            guard let remote else { return problems + ["\(label): has no remote to push to"] }
            guard let upstream = try repository.upstream(ofBranch: branch), upstream.hasPrefix(remote + "/") else {
                return problems + ["\(label): branch \(branch) has no upstream on '\(remote)'; push it once with 'git push -u \(remote) \(branch)'"]
            }
            // Asking the remote what its branch points at reaches it like a push would, and writes nothing (dry runs too).
            let remoteBranch = "refs/heads/" + upstream.dropFirst(remote.count + 1)
            let advertised: [RemoteReference]
            do {
                advertised = try repository.remoteReferences(remote)
            } catch {
                return problems + ["\(label): cannot reach remote '\(remote)': \(ErrorText.describe(error))"]
            }
            guard let tip = advertised.first(where: { $0.name == remoteBranch })?.target else {
                return problems + ["\(label): the remote has no \(remoteBranch); push it once with 'git push -u \(remote) \(branch)'"]
            }
            if tip != local {
                if !repository.hasCommit(tip) {
                    problems.append("\(label): \(upstream) has commits this clone does not have; run 'modkit sync' or pull first")
                } else if try !repository.isDescendant(local, of: tip) {
                    let behind = try repository.aheadBehind(local: local, upstream: tip).behind
                    problems.append("\(label): \(branch) is \(behind) commit\(behind == 1 ? "" : "s") behind \(upstream); run 'modkit sync' or pull first")
                }
            }
        } catch {
            problems.append("\(label): \(ErrorText.describe(error))")
        }
        return problems
    }

    // MARK: custom steps

    func runCustom(_ command: String) throws -> [String] {
        if dryRun { return ["would run `\(command)` in \(workspace.root.path)"] }
        var environment = ProcessInfo.processInfo.environment
        environment["MODKIT_RELEASE_VERSION"] = version
        environment["MODKIT_RELEASE_MODULES"] = plan.modules.map(\.name).joined(separator: " ")
        let result = try ShellCommand.run(command, in: workspace.root, environment: environment)
        guard result.status == 0 else {
            throw ReleaseStepFailure(problems: ["`\(command)` exited \(result.status)"] + Self.tail(result.output))
        }
        return ["`\(command)` passed"]
    }

    /// The last lines of a command's output, indented, for failure reports.
    static func tail(_ output: String, lines count: Int = 15) -> [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).map { "    " + $0 }
    }
}
