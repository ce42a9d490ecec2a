import Foundation
import Testing

/// Whether modkit may write work trees itself (its default) or must leave every work-tree write to git.
enum FastPathMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case fastPathsOn, fastPathsOff

    var testDescription: String { rawValue }

    /// `MODKIT_FAST_PATHS=0` turns them off; the default (unset) leaves them on.
    var environment: [String: String] { self == .fastPathsOff ? ["MODKIT_FAST_PATHS": "0"] : [:] }
}

/// Issue "git-exact": what `modkit sync` (clone, then fetch + fast-forward), `modkit checkout SNAPSHOT` and
/// `modkit status` leave in and say about a repository equals what `git clone`, `git pull --ff-only`,
/// `git checkout --detach` and `git status --porcelain` leave and say, for each repository feature in
/// `GitExactCase`, with modkit's fast paths on and off. Every step compares the two work trees byte for byte
/// (paths as bytes, contents, modes, symlink targets), the index (`ls-files -s`, `-v`, `--debug` flags and stat
/// data), `git status`, HEAD and the hooks that ran; and checks contents both sides must hold.
@Suite struct GitExactDifferentialTests {
    @Test(arguments: GitExactCase.allCases, FastPathMode.allCases)
    func modkitLeavesWhatGitLeaves(_ feature: GitExactCase, _ mode: FastPathMode) throws {
        if feature == .lfs && !GitExactCase.lfsAvailable {
            Issue.record("git-lfs is not installed (scripts/test.sh installs it)")
            return
        }
        let run = try DifferentialRun(feature: feature, mode: mode, origin: try GitExactOrigins.shared.origin(for: feature))

        let sync = try run.modkit("sync")
        #expect(sync.status == 0, "modkit sync (clone): \(sync.text)\(sync.err)")
        try run.gitB(["clone", "-q", run.url, run.sideB.path], in: run.sandbox.root)
        try run.compare(.clone)
        if let command = feature.afterClone {
            try run.gitA(command)
            try run.gitB(command)
            try run.compare(.sparse)
        }
        try run.gitA(["add", "-A"], in: run.workspace)
        try run.gitA(["commit", "-qm", "manifest"], in: run.workspace)
        let tag = try run.modkit("tag", "v1")
        #expect(tag.status == 0 && !(tag.text + tag.err).contains("uncommitted changes"), "modkit tag v1: \(tag.text)\(tag.err)")
        if tag.status != 0 {
            // Recorded above; the snapshot is still made, so the snapshot checkout at the end is tested on its own.
            let forced = try run.modkit("tag", "v1", "--allow-dirty")
            #expect(forced.status == 0, "modkit tag v1 --allow-dirty: \(forced.text)\(forced.err)")
        }

        for step in [GitExactStep.smallUpdate, .largeUpdate] {
            try run.publish(step.commit)
            let update = try run.modkit("sync")
            #expect(update.status == 0, "modkit sync (\(step.rawValue)): \(update.text)\(update.err)")
            try run.gitB(["pull", "-q", "--ff-only"])
            try run.compare(step)
        }

        let checkout = try run.modkit("checkout", "v1")
        #expect(checkout.status == 0, "modkit checkout v1: \(checkout.text)\(checkout.err)")
        try run.gitB(["checkout", "-q", "--detach", run.origin.commits[0]])
        try run.compare(.snapshot)
    }
}

/// One case in one mode: a sandbox with the case's global config, a bare origin fed from the case's source repository,
/// modkit's workspace (side A, `ws/Libs/Mod`) and git's clone (side B, `ref/Libs/Mod`: the same last path component,
/// so hooks that log `basename "$PWD"` log the same on both sides).
final class DifferentialRun {
    let feature: GitExactCase
    let mode: FastPathMode
    let origin: GitExactOrigin
    let sandbox: Sandbox
    let workspace: URL
    let sideA: URL
    let sideB: URL
    let url: String
    let environmentA: [String: String]
    let environmentB: [String: String]
    let logA: URL
    let logB: URL
    /// How many lines of each side's hook log earlier steps have compared.
    private var hooksSeen = (a: 0, b: 0)
    /// How many packs each side's object store held after the previous step.
    private var packs = (a: 0, b: 0)

    init(feature: GitExactCase, mode: FastPathMode, origin: GitExactOrigin) throws {
        self.feature = feature
        self.mode = mode
        self.origin = origin
        sandbox = try Sandbox()
        workspace = sandbox.url("ws")
        sideA = sandbox.url("ws/Libs/Mod")
        sideB = sandbox.url("ref/Libs/Mod")
        url = "file://" + sandbox.url("remotes/Mod.git").path
        logA = sandbox.url("hooks-modkit.log")
        logB = sandbox.url("hooks-git.log")
        let base = sandbox.environment.filter { !$0.key.hasPrefix("MODKIT_") }
        environmentA = base.merging(mode.environment) { _, new in new }.merging(["HOOK_LOG": logA.path]) { _, new in new }
        environmentB = base.merging(["HOOK_LOG": logB.path]) { _, new in new }
        try feature.prepareHome(sandbox.home, environment: base)
        try Exec.git(["init", "-q", "--bare", sandbox.url("remotes/Mod.git").path], in: sandbox.root, environment: base)
        try publish(0)
        try sandbox.writeManifest([("Mod", nil)])
        try gitA(["init", "-q", "-b", "main"], in: workspace)
    }

    /// Moves the origin's main to the case's commit `stage`, as a push from the source repository (LFS objects included).
    func publish(_ stage: Int) throws {
        try Exec.git(["push", "-q", url, "\(origin.commits[stage]):refs/heads/main"], in: origin.source, environment: environmentB)
    }

    func modkit(_ arguments: String...) throws -> Exec.Result {
        try Exec.run(Sandbox.modkitBinary.path, arguments, in: workspace, environment: environmentA)
    }

    @discardableResult
    func gitA(_ arguments: [String], in directory: URL? = nil) throws -> Exec.Result {
        try Exec.git(arguments, in: directory ?? sideA, environment: environmentA)
    }

    @discardableResult
    func gitB(_ arguments: [String], in directory: URL? = nil) throws -> Exec.Result {
        try Exec.git(arguments, in: directory ?? sideB, environment: environmentB)
    }

    /// Compares both sides after `step` and records one issue per kind of difference, each listing every differing
    /// path or line. Index contents are read before any status command can refresh the index.
    func compare(_ step: GitExactStep, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let label = "\(feature.rawValue), \(mode.rawValue), after the \(step.rawValue)"
        let indexA = try IndexView.read(sideA, environment: environmentA)
        let indexB = try IndexView.read(sideB, environment: environmentB)
        let report = try modkit("status", "--json")
        let text = try modkit("status", "-q")
        let porcelain = try Exec.run("/usr/bin/env", ["git", "status", "--porcelain"], in: sideA, environment: environmentA).lines
        let a = try SideState.read(sideA, index: indexA, environment: environmentA)
        let b = try SideState.read(sideB, index: indexB, environment: environmentB)

        let differences = SideState.differences(a, b)
        if !differences.isEmpty {
            Issue.record("\(label): modkit's repository differs from git's:\n\(differences.joined(separator: "\n"))",
                         sourceLocation: sourceLocation)
        }
        #expect(a.head == origin.commits[step.commit] && b.head == origin.commits[step.commit],
                "\(label): HEAD should be \(origin.commits[step.commit]): modkit \(a.head), git \(b.head)", sourceLocation: sourceLocation)
        var wrong: [String] = []
        for check in feature.checks(step) {
            if let problem = check.problem(a.tree[check.path]) { wrong.append("modkit: \(problem)") }
            if let problem = check.problem(b.tree[check.path]) { wrong.append("git: \(problem)") }
        }
        if !wrong.isEmpty { Issue.record("\(label):\n\(wrong.joined(separator: "\n"))", sourceLocation: sourceLocation) }
        try expectHooks(step, label: label, sourceLocation: sourceLocation)
        expectPacks(step, label: label, sourceLocation: sourceLocation)
        try expectStatus(report: report, text: text, porcelain: porcelain, step: step, label: label, sourceLocation: sourceLocation)
    }

    /// `modkit status` says the module is clean exactly when `git status --porcelain` in it prints nothing. After the
    /// snapshot checkout the module is detached away from its manifest revision, which modkit reports on purpose, so
    /// there only its counts of local changes are compared.
    private func expectStatus(report: Exec.Result, text: Exec.Result, porcelain: [String], step: GitExactStep, label: String,
                              sourceLocation: SourceLocation) throws {
        let object = try JSONSerialization.jsonObject(with: report.out) as? [String: Any]
        let row = (object?["modules"] as? [[String: Any]])?.first { $0["name"] as? String == "Mod" }
        guard let row else {
            Issue.record("\(label): no row for Mod in modkit status --json: \(report.text)\(report.err)", sourceLocation: sourceLocation)
            return
        }
        let gitClean = porcelain.isEmpty
        let changes = ["staged", "modified", "untracked", "conflicted"].reduce(0) { $0 + ((row[$1] as? Int) ?? 0) }
        #expect((changes == 0) == gitClean, "\(label): modkit status counts \(changes) local changes (\(row["detail"] ?? "")), git status --porcelain: \(porcelain)",
                sourceLocation: sourceLocation)
        guard step != .snapshot else { return }
        #expect((row["outcome"] as? String == "clean") == gitClean,
                "\(label): modkit status --json says \(row["outcome"] ?? "nothing") (\(row["detail"] ?? "")), git status --porcelain: \(porcelain)",
                sourceLocation: sourceLocation)
        let listed = text.lines.contains { $0.contains("Libs/Mod") }
        #expect(listed != gitClean, "\(label): modkit status -q \(listed ? "lists" : "does not list") Mod:\n\(text.text)\(text.err)git status --porcelain: \(porcelain)",
                sourceLocation: sourceLocation)
    }

    /// An update stores its objects as git's fetch does: loose below `fetch.unpackLimit` objects, one new pack above.
    /// (The clone is not compared: modkit clones a local origin by hard-linking its objects, as `git clone PATH` does.)
    private func expectPacks(_ step: GitExactStep, label: String, sourceLocation: SourceLocation) {
        let count = { (side: URL) in
            ((try? FileManager.default.contentsOfDirectory(atPath: side.appendingPathComponent(".git/objects/pack").path)) ?? [])
                .filter { $0.hasSuffix(".pack") }.count
        }
        let now = (a: count(sideA), b: count(sideB))
        defer { packs = now }
        guard step == .smallUpdate || step == .largeUpdate else { return }
        let added = (a: now.a - packs.a, b: now.b - packs.b)
        #expect(added.b == (step == .largeUpdate ? 1 : 0),
                "\(label): git's fetch added \(added.b) packs; the fixture no longer takes the path it is meant to", sourceLocation: sourceLocation)
        #expect(added.a == added.b, "\(label): the fetch added \(added.a) packs to modkit's repository, \(added.b) to git's",
                sourceLocation: sourceLocation)
    }

    /// The hooks that ran on each side during `step`, with their arguments and directory, are the same; git's side
    /// ran what git runs (so the comparison cannot pass with no hooks at all). The manifest repository's own hooks
    /// (`ws`) have no counterpart in git's clone.
    private func expectHooks(_ step: GitExactStep, label: String, sourceLocation: SourceLocation) throws {
        let read = { (log: URL) in
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter { !$0.hasSuffix(" ws") }
        }
        let (allA, allB) = (read(logA), read(logB))
        let (linesA, linesB) = (Array(allA.dropFirst(hooksSeen.a)), Array(allB.dropFirst(hooksSeen.b)))
        hooksSeen = (allA.count, allB.count)
        #expect(linesA == linesB, "\(label): hooks that ran:\nmodkit: \(linesA)\ngit:    \(linesB)", sourceLocation: sourceLocation)
        guard feature == .hooks else { return }
        let c = origin.commits
        let expected: [String]
        switch step {
        case .clone: expected = ["post-checkout \(String(repeating: "0", count: 40)) \(c[0]) 1 Mod"]
        case .sparse: expected = []
        case .smallUpdate, .largeUpdate: expected = ["post-merge 0 Mod"]
        case .snapshot: expected = ["post-checkout \(c[2]) \(c[0]) 1 Mod"]
        }
        #expect(linesB == expected, "\(label): git's hooks log is not what git runs: \(linesB)", sourceLocation: sourceLocation)
    }
}
