import Foundation
import GitKit

/// What one step did: its outcome (`ok`, `failed` or `skipped`), the lines that say what it changed (or would change),
/// and its problems and warnings as diagnostics, each naming the module it is about.
public struct StepOutcome: Sendable {
    public var step: ReleaseStepKind
    public var outcome: ModuleOutcome
    public var lines: [String]
    /// Why it failed (errors), and what it could not verify although it went through (warnings).
    public var diagnostics: [Diagnostic]
    /// Planned file changes as a unified diff (dry runs).
    public var diff: String = ""

    public init(step: ReleaseStepKind, outcome: ModuleOutcome, lines: [String], diagnostics: [Diagnostic] = [], diff: String = "") {
        self.step = step
        self.outcome = outcome
        self.lines = lines
        self.diagnostics = diagnostics
        self.diff = diff
    }

    /// Why a failed step failed: its first error; nil unless `outcome` is `failed`.
    public var error: Diagnostic? {
        guard outcome == .failed else { return nil }
        return diagnostics.first { $0.severity == .error } ?? .error("\(step.name) failed")
    }
}

/// A step that stopped the release, with every reason found and what it had done before it stopped.
public struct ReleaseStepFailure: Error, Sendable, CustomStringConvertible {
    public var problems: [Diagnostic]
    /// What the step did before it stopped (publish: the modules it published).
    public var lines: [String] = []

    init(_ found: [Diagnostic], lines: [String] = []) {
        problems = found
        self.lines = lines
    }

    init(_ message: String, module: String? = nil) {
        self.init([.error(message, module: module)])
    }

    public var description: String { problems.map { $0.rendered(colored: false) }.joined(separator: "\n") }
}

/// Carries out the steps of one release; in a dry run every change is planned in memory and nothing is written.
public final class ReleaseRun {
    public let workspace: Workspace
    public let plan: ReleasePlan
    public let dryRun: Bool
    let jobs: Int
    /// Requirements modkit cannot verify stop the pin step too (`--strict`), not only those with no version to pin to.
    public var strict = false
    /// Planned file changes: applied after each step in a real run, accumulated in a dry run.
    var edits = EditSet()
    /// Files this release changed so far (earlier runs included), relative to the workspace root.
    public private(set) var files: [String]
    /// Modules whose publish command succeeded (earlier runs included).
    public internal(set) var published: [String]
    /// Called with `files` before a step writes them, so a run killed while writing still commits them after `--resume`.
    public var willWrite: (([String]) throws -> Void)?
    /// What the running step could not verify although it goes on (reported with its outcome).
    var warnings: [Diagnostic] = []

    public init(workspace: Workspace, plan: ReleasePlan, dryRun: Bool, jobs: Int, state: ReleaseState? = nil) {
        self.workspace = workspace
        self.plan = plan
        self.dryRun = dryRun
        self.jobs = jobs
        files = state?.files ?? []
        published = state?.published ?? []
    }

    var manifest: Manifest { workspace.manifest }
    /// The release's name: the product snapshot it records.
    var name: String { plan.name }
    /// The version a released module is released at.
    func version(of module: Module) -> String { plan.entry(module.name)?.next ?? "" }
    /// Every released module at its new version, so later steps see it even before it is written.
    var plannedVersions: [String: String] { Dictionary(uniqueKeysWithValues: plan.released.map { ($0.name, $0.next) }) }

    /// The files of the release inside `directory` (absolute paths), changed in earlier steps or planned in this one.
    /// Files of a repository module nested below `directory` belong to that module, not to `directory`.
    func releaseFiles(below directory: URL) -> [URL] {
        let prefix = directory.path + "/"
        let nested = manifest.modules.filter { $0.kind == .repository }.map { manifest.directory(of: $0).path + "/" }
            .filter { $0.hasPrefix(prefix) && $0 != prefix }
        let urls = files.map { workspace.root.appendingPathComponent($0) } + edits.changed.map(\.url)
        var seen = Set<String>()
        return urls.filter { url in
            url.path.hasPrefix(prefix) && !nested.contains { url.path.hasPrefix($0) } && seen.insert(url.path).inserted
        }
    }

    /// Runs one step and reports it; a failure is reported, not thrown.
    public func run(_ step: ReleaseStepKind) -> StepOutcome {
        warnings = []
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
            case .publish: lines = try publish()
            case .run(let command): lines = try runCustom(command)
            }
            var outcome = StepOutcome(step: step, outcome: .ok, lines: lines, diagnostics: warnings)
            if dryRun {
                let after = edits.diff()
                outcome.diff = after.hasPrefix(before) ? String(after.dropFirst(before.count)) : after
            } else {
                let root = workspace.root.path + "/"
                for file in edits.changed where file.url.path.hasPrefix(root) {
                    let relative = String(file.url.path.dropFirst(root.count))
                    if !files.contains(relative) { files.append(relative) }
                }
                try willWrite?(files)
                try edits.apply()
                edits = EditSet()
            }
            return outcome
        } catch let failure as ReleaseStepFailure {
            return StepOutcome(step: step, outcome: .failed, lines: failure.lines, diagnostics: failure.problems + warnings)
        } catch {
            return StepOutcome(step: step, outcome: .failed, lines: [], diagnostics: [.error(ErrorText.describe(error))] + warnings)
        }
    }

    // MARK: preflight

    /// Every involved repository clean, on its branch, not behind its remote; and no tag to create exists anywhere.
    func preflight() throws -> [String] {
        guard !plan.released.isEmpty else {
            throw ReleaseStepFailure("no module has changes since its last version; nothing to release (override with NAME=VERSION)")
        }
        var problems: [Diagnostic] = []
        var checked = 0
        for module in manifest.modules where module.kind == .repository {
            let directory = manifest.directory(of: module)
            guard Repository.isRepository(directory.path), let repository = try? Repository.open(directory.path) else {
                problems.append(.error("not cloned at \(module.path) (run 'modkit sync')", module: module.name))
                continue
            }
            guard plan.entry(module.name) != nil else {
                // Not released, but the snapshot tags it at its HEAD: that must be committed.
                do {
                    if !(try repository.status(untracked: false).isClean) {
                        problems.append(.error("uncommitted changes in \(module.path); the snapshot records its HEAD, so commit or stash them", module: module.name))
                    }
                } catch {
                    problems.append(.error("its status cannot be read (\(ErrorText.describe(error))); fix the repository at \(module.path)", module: module.name))
                }
                continue
            }
            let expected = try expectedBranch(of: module, in: repository)
            problems += check(repository, module: module.name, branch: expected, remote: manifest.defaults.remote, paths: [])
            checked += 1
        }
        let manifestRepository = try ManifestRepository.open(workspace, for: "modkit release")
        let remote = try manifestRepository.pushRemote(branch: nil)?.remote
        problems += check(manifestRepository.repository, module: nil, branch: nil, remote: remote, paths: [])
        problems += tagConflicts(manifestRepository: manifestRepository)
        if !problems.isEmpty { throw ReleaseStepFailure(problems) }
        return ["\(checked + 1) repositor\(checked == 0 ? "y" : "ies") clean, on branch, up to date with their remotes",
                "none of the \(plan.tags.count) tags to create exists locally or on a remote"]
    }

    /// Each tag of the plan that already exists in its repository or on that repository's remote, named with both.
    func tagConflicts(manifestRepository: ManifestRepository) -> [Diagnostic] {
        let groups = Dictionary(grouping: plan.tags, by: \.repository).sorted { $0.key < $1.key }
        let manifestRemote = (try? manifestRepository.pushRemote(branch: nil))??.remote
        let root = manifest.root
        let remote = manifest.defaults.remote
        let found = Parallel.map(groups.map { ($0.key, $0.value) }, jobs: jobs) { repositoryPath, tags -> [Diagnostic] in
            let isManifest = repositoryPath == "."
            let directory = isManifest ? root : root.appendingPathComponent(repositoryPath, isDirectory: true)
            guard let repository = try? isManifest ? Repository.discover(from: directory.path) : Repository.open(directory.path) else {
                return []
            }
            var problems: [Diagnostic] = []
            for tag in tags where (try? repository.tagTarget(tag.name)) != nil {
                problems.append(.error("tag \(tag.name) already exists in \(tag.place); \(Self.conflictAdvice(tag))", module: tag.module))
            }
            guard let remoteName = isManifest ? manifestRemote : remote else { return problems }
            do {
                let advertised = Set(try repository.remoteReferences(remoteName).map(\.name))
                for tag in tags where advertised.contains("refs/tags/\(tag.name)") {
                    problems.append(.error("tag \(tag.name) already exists on the remote '\(remoteName)' of \(tag.place); \(Self.conflictAdvice(tag))",
                                           module: tag.module))
                }
            } catch {
                problems.append(.error("\(tags.first?.place ?? repositoryPath): cannot reach remote '\(remoteName)': \(ErrorText.describe(error))"))
            }
            return problems
        }
        return found.flatMap { $0 }
    }

    static func conflictAdvice(_ tag: ReleaseTag) -> String {
        switch tag.kind {
        case .version: return "release \(tag.module ?? "the module") at another version (\(tag.module ?? "NAME")=VERSION)"
        case .snapshot: return "choose another release name"
        }
    }

    /// The branch a module must be on: the release branch once cut, else its manifest revision when that is a branch
    /// of the remote; nil accepts any branch.
    func expectedBranch(of module: Module, in repository: Repository) throws -> String? {
        if let branch = plan.branch, case .branch(branch, _) = try repository.head() { return branch }
        guard let revision = manifest.revision(of: module) else { return nil }
        if try repository.remoteBranchTarget(remote: manifest.defaults.remote, branch: revision) != nil { return revision }
        throw ReleaseStepFailure("its revision '\(revision)' is not a branch; a release commits on a branch", module: module.name)
    }

    /// What keeps a repository from being released: `module` names it, nil for the manifest repository.
    func check(_ repository: Repository, module: String?, branch expected: String?, remote: String?, paths: [String]) -> [Diagnostic] {
        func problem(_ message: String) -> Diagnostic {
            module.map { .error(message, module: $0) } ?? .error("manifest repository: " + message)
        }
        var problems: [Diagnostic] = []
        do {
            guard case .branch(let branch, let local) = try repository.head() else {
                return [problem("HEAD is not on a branch; check out \(expected ?? "a branch") first")]
            }
            if let expected, branch != expected { problems.append(problem("on branch \(branch), but the manifest says \(expected)")) }
            // Untracked files (build output) are never staged by a release, so they do not count.
            let status = try repository.status(paths: paths, untracked: false)
            if !status.isClean {
                problems.append(problem("has uncommitted changes (\(status.staged) staged, \(status.modified) modified); commit or stash them"))
            }
            guard let remote else { return problems + [problem("has no remote to push to")] }
            let upstream = try repository.upstream(ofBranch: branch)
            if upstream == nil, branch == plan.branch { return problems }
            guard let upstream, upstream.hasPrefix(remote + "/") else {
                return problems + [problem("branch \(branch) has no upstream on '\(remote)'; push it once with 'git push -u \(remote) \(branch)'")]
            }
            // Asking the remote what its branch points at reaches it like a push would, and writes nothing (dry runs too).
            let remoteBranch = "refs/heads/" + upstream.dropFirst(remote.count + 1)
            let advertised: [RemoteReference]
            do {
                advertised = try repository.remoteReferences(remote)
            } catch {
                return problems + [problem("cannot reach remote '\(remote)': \(ErrorText.describe(error))")]
            }
            guard let tip = advertised.first(where: { $0.name == remoteBranch })?.target else {
                return problems + [problem("the remote has no \(remoteBranch); push it once with 'git push -u \(remote) \(branch)'")]
            }
            if tip != local {
                if !repository.hasCommit(tip) {
                    problems.append(problem("\(upstream) has commits this clone does not have; run 'modkit sync' or pull first"))
                } else if try !repository.isDescendant(local, of: tip) {
                    let behind = try repository.aheadBehind(local: local, upstream: tip).behind
                    problems.append(problem("\(branch) is \(behind) commit\(behind == 1 ? "" : "s") behind \(upstream); run 'modkit sync' or pull first"))
                }
            }
        } catch {
            problems.append(problem(ErrorText.describe(error)))
        }
        return problems
    }

    // MARK: custom steps

    func runCustom(_ command: String) throws -> [String] {
        if dryRun { return ["would run `\(command)` in \(workspace.root.path)"] }
        var environment = ProcessInfo.processInfo.environment
        environment["MODKIT_RELEASE"] = name
        environment["MODKIT_RELEASE_MODULES"] = plan.released.map { "\($0.name)=\($0.next)" }.joined(separator: " ")
        let result = try ShellCommand.run(command, in: workspace.root, environment: environment)
        guard result.status == 0 else {
            throw ReleaseStepFailure([Self.exited(command, result)])
        }
        return ["`\(command)` passed"]
    }

    /// A command that failed, with the last lines of its output, indented.
    static func exited(_ command: String, _ result: ShellCommand.Result, module: String? = nil, lines count: Int = 15) -> Diagnostic {
        let tail = result.output.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).map { "\n    " + $0 }
        return .error("`\(command)` exited \(result.status)" + tail.joined(), module: module)
    }
}
