import Foundation
import SpecKit

/// `modkit develop`: points every consumer in the workspace at the local checkouts of some modules (CocoaPods `:path`
/// lines, SwiftPM edit mode), and back. Plans everything first, records it in a journal, then changes the files.
public enum Developer {
    /// What one run did.
    public struct Result: Sendable {
        /// The overrides now active.
        public var state: DevelopState
        /// Consumer files written (relative to the workspace root).
        public var written: [String] = []
        /// Of `written`, the files that did not exist before (an Xcode workspace's contents).
        public var created: Set<String> = []
        /// Files `develop` had created and removed again.
        public var removed: [String] = []
        /// What the user should know although the run went through (a checkout Xcode will not take for its package).
        public var warnings: [Diagnostic] = []
        /// SwiftPM packages put in or taken out of edit mode.
        public var edited: [DevelopJournal.SwiftStep] = []
        /// SwiftPM steps that failed, with SwiftPM's message.
        public var failures: [(step: DevelopJournal.SwiftStep, message: String)] = []
        /// Whether an interrupted run was finished first.
        public var recovered = false
    }

    /// Finishes a run that was killed after writing its journal, and drops a journal draft (a run killed before).
    public static func recover(_ workspace: Workspace) throws -> DevelopJournal.Outcome? {
        let store = DevelopStore(workspaceRoot: workspace.root)
        DevelopJournal.discardDraft(in: store)
        return try DevelopJournal.finish(in: store) { runSwift($0, root: workspace.root) }
    }

    /// Turns overrides on for `modules` (keeping those already on).
    public static func on(_ modules: [Module], _ workspace: Workspace, specs: WorkspaceSpecs) throws -> Result {
        let store = DevelopStore(workspaceRoot: workspace.root)
        let old = try store.load()
        for module in modules where !FileManager.default.fileExists(atPath: workspace.manifest.directory(of: module).path) {
            throw ModKitError.input("\(module.name) is not cloned (\(module.path)); modkit develop uses the local checkout",
                                    hint: "run 'modkit sync \(module.name)' first")
        }
        var active = old.modules
        let now = ISO8601DateFormatter().string(from: Date())
        for module in modules where !active.contains(where: { $0.module == module.name }) {
            active.append(DevelopState.Override(module: module.name, path: module.path, since: now))
        }
        return try change(to: active, old: old, workspace, specs: specs, store: store)
    }

    /// Turns overrides off for `modules`, or for every module when nil.
    public static func off(_ modules: [Module]?, _ workspace: Workspace, specs: WorkspaceSpecs) throws -> Result {
        let store = DevelopStore(workspaceRoot: workspace.root)
        let old = try store.load()
        let names = modules.map { Set($0.map(\.name)) }
        let active = old.modules.filter { override in names.map { !$0.contains(override.module) } ?? false }
        return try change(to: active, old: old, workspace, specs: specs, store: store)
    }

    private static func change(to active: [DevelopState.Override], old: DevelopState, _ workspace: Workspace,
                               specs: WorkspaceSpecs, store: DevelopStore) throws -> Result {
        let manager = FileManager.default
        // Files changed by hand since develop rewrote them would be lost by a restore: refuse before anything changes.
        let edited = old.files.filter { file in
            let current = manager.contents(atPath: store.url(of: file.path).path).map { [UInt8]($0) }
            return current != store.writtenBytes(file.path) && !(file.created == true && current == nil)
        }
        if !edited.isEmpty {
            let verb = edited.contains { $0.created == true } ? "wrote" : "rewrote"
            throw ModKitError("\(edited.map(\.path).joined(separator: ", ")) changed since 'modkit develop' \(verb) \(edited.count == 1 ? "it" : "them"); nothing was changed",
                              hint: edited.contains { $0.created == true }
                                ? "an Xcode workspace modkit wrote is modkit's: copy what you changed in it elsewhere, delete the .modkit-develop.xcworkspace folder, and run the command again"
                                : "move your change aside (the original is in .modkit/develop/originals/), put back the overridden file, run the command again, then re-apply your change")
        }
        let developed = Set(active.map(\.module))
        var plan = Plan()
        plan.state.modules = active
        let tracked = DevelopConsumers.tracked(workspace) { DevelopConsumers.isPodfile($0) || XcodeFile(path: $0) != nil }

        // Files rewritten earlier stay in the plan even when the manifest no longer lists their module: they go back too.
        let recordedFiles = old.files.filter { $0.kind == "podfile" }.map { store.url(of: $0.path) }
        for consumer in podfiles(workspace, specs: specs, tracked: tracked, also: recordedFiles) {
            let path = relative(consumer, in: workspace)
            let current = manager.contents(atPath: consumer.path).map { [UInt8]($0) } ?? []
            let recorded = old.files.contains { $0.path == path }
            let original = recorded ? (store.original(path) ?? current) : current
            do {
                let (target, modules) = try overridden(original, podfile: consumer, developed: developed, specs: specs)
                plan.add(path, kind: "podfile", modules: modules, current: current, original: original, target: target, recorded: recorded)
            } catch {
                plan.problems.append(diagnostic(error, in: original, path: path))
            }
        }
        xcodeWorkspaces(developed: developed, old: old, tracked: tracked, workspace, specs: specs, store: store, plan: &plan)

        if !plan.problems.isEmpty { throw ManifestError(diagnostics: plan.problems) }
        let steps = try swiftSteps(developed: developed, old: old, state: &plan.state, workspace, specs: specs,
                                   bytes: &plan.bytes, originals: &plan.originals)
        let state = plan.state
        guard !plan.writes.isEmpty || !steps.isEmpty || state != old else {
            return Result(state: old, warnings: plan.warnings.sorted().map { Diagnostic.warning($0) })
        }
        let entry = DevelopJournal.Entry(state: state, previousModules: old.modules.map(\.module), writes: plan.writes,
                                         originals: Array(plan.originals.keys).sorted(), swift: steps)
        try DevelopJournal.commit(entry, bytes: plan.bytes, originals: plan.originals, in: store)
        guard let outcome = try DevelopJournal.finish(in: store, swift: { runSwift($0, root: workspace.root) }) else {
            return Result(state: state, warnings: plan.warnings.sorted().map { Diagnostic.warning($0) })
        }
        return Result(state: outcome.state, written: plan.writes.filter { $0.removes != true }.map(\.path), created: plan.created,
                      removed: plan.writes.filter { $0.removes == true }.map(\.path), warnings: plan.warnings.sorted().map { Diagnostic.warning($0) },
                      edited: steps, failures: outcome.failures)
    }

    /// What a run will do, gathered before anything changes: the state after it, the bytes to write and to keep, the problems.
    struct Plan {
        var state = DevelopState()
        var bytes: [String: [UInt8]] = [:]
        var originals: [String: [UInt8]] = [:]
        var writes: [DevelopJournal.Write] = []
        /// Files written that did not exist.
        var created: Set<String> = []
        /// What the user should know although nothing stops the run.
        var warnings: Set<String> = []
        var problems: [Diagnostic] = []

        /// One consumer file: `original` is what it held before `develop` (nil: it did not exist), `target` what it holds
        /// after this run (nil: it goes), `recorded` whether an earlier run already overrides it.
        mutating func add(_ path: String, kind: String, modules: [String], current: [UInt8]?, original: [UInt8]?,
                          target: [UInt8]?, recorded: Bool) {
            if target != original {
                state.files.append(DevelopState.File(path: path, kind: kind, modules: modules, created: original == nil ? true : nil))
                if !recorded, let original { originals[DevelopState.key(path)] = original }
            }
            guard target != current else { return }
            if let target {
                bytes[DevelopState.key(path)] = target
                writes.append(DevelopJournal.Write(path: path))
                if current == nil { created.insert(path) }
            } else {
                writes.append(DevelopJournal.Write(path: path, removes: true))
            }
        }
    }

    /// The Podfiles of the modules and of the manifest repository: those at a module's root (or its `specs:`) and at
    /// the workspace root, and every Podfile git tracks below them (`ios/Podfile`), never one under `Pods/`.
    static func podfiles(_ workspace: Workspace, specs: WorkspaceSpecs, tracked: [URL], also recorded: [URL] = []) -> [URL] {
        var seen = Set<String>()
        var result: [URL] = []
        let rootPodfile = workspace.root.appendingPathComponent(SpecFileName.podfile)
        let candidates = specs.modules.flatMap(\.files).filter { $0.kind == .podfile }.map(\.url)
            + (FileManager.default.fileExists(atPath: rootPodfile.path) ? [rootPodfile] : [])
            + tracked.filter { DevelopConsumers.isPodfile($0.path) } + recorded
        for url in candidates where seen.insert(url.standardizedFileURL.path).inserted { result.append(url) }
        return result
    }

    /// A Podfile's bytes with the developed pods pointing at their checkouts, and the developed modules it now points at.
    static func overridden(_ original: [UInt8], podfile: URL, developed: Set<String>,
                           specs: WorkspaceSpecs) throws(SpecReadError) -> ([UInt8], [String]) {
        guard !developed.isEmpty else { return (original, []) }
        let direct = try PodfileOverride.pods(original)
        let folder = podfile.deletingLastPathComponent()
        var paths: [String: String] = [:]
        var spelling: [String: String] = [:]
        var moduleOfPod: [String: String] = [:]
        for (key, pod) in specs.pods where developed.contains(pod.module) {
            paths[key] = relativePath(from: folder, to: pod.file.deletingLastPathComponent())
            spelling[key] = pod.name
            moduleOfPod[key] = pod.module
        }
        // A pod line that already points at the checkout (`pod 'Core', :path => '../'` in Core's Example/Podfile) stays as written.
        for requirement in try SpecReader.read(original, kind: .podfile) {
            guard case .path(let path) = requirement.constraint, let wanted = paths[requirement.identity] else { continue }
            if URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL.path == folder.appendingPathComponent(wanted).standardizedFileURL.path {
                paths[requirement.identity] = nil
            }
        }
        let dependencies = podDependencies(specs)
        var transitive: [String: Set<String>] = [:]
        for root in Set(direct) where specs.pods[root] != nil {
            for reached in closure(of: root, dependencies) where paths[reached] != nil && !direct.contains(reached) {
                transitive[reached, default: []].insert(root)
            }
        }
        let touched = Set(direct.filter { paths[$0] != nil } + transitive.keys)
        guard !touched.isEmpty else { return (original, []) }
        let request = PodfileOverride.Request(paths: paths.filter { touched.contains($0.key) }, transitive: transitive, spelling: spelling)
        let target = try PodfileOverride.apply(original, request)
        let modules = Set(touched.compactMap { moduleOfPod[$0] }).sorted()
        return (target, modules)
    }

    /// A consumer file that does not read, as `path:line:col: error: …` with its source line.
    /// `error.column` counts bytes (SpecKit's readers) unless `columnInScalars` (the XML reader's).
    static func diagnostic(_ error: SpecReadError, in bytes: [UInt8], path: String, columnInScalars: Bool = false) -> Diagnostic {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let lineBytes = error.line - 1 < lines.count ? Array(lines[error.line - 1].filter { $0 != 13 }) : nil
        let line = lineBytes.map { String(decoding: $0, as: UTF8.self) }
        // SpecKit counts columns in bytes; a diagnostic counts characters (Unicode scalars), as its excerpt does.
        let column = columnInScalars ? error.column : lineBytes.map { SourceExcerpt.scalarColumn(ofByteColumn: error.column, in: $0) } ?? error.column
        return .error(error.message, at: SourceLocation(file: path, line: error.line, column: column), sourceLine: line,
                      hint: "modkit develop reads every consumer first and changes nothing while one does not read")
    }

    /// Each workspace pod (lowercased) with the workspace pods its podspec depends on.
    static func podDependencies(_ specs: WorkspaceSpecs) -> [String: Set<String>] {
        var files: [String: SpecFile] = [:]
        for file in specs.modules.flatMap(\.files) { files[file.url.standardizedFileURL.path] = file }
        var result: [String: Set<String>] = [:]
        for (key, pod) in specs.pods {
            guard let file = files[pod.file.standardizedFileURL.path] else { continue }
            result[key] = Set(file.requirements.compactMap { specs.pod(for: $0)?.name.lowercased() }.filter { $0 != key })
        }
        return result
    }

    /// What `start` depends on, directly or through others, without `start` itself.
    static func closure(of start: String, _ graph: [String: Set<String>]) -> Set<String> {
        reachable(from: graph[start] ?? [], graph).subtracting([start])
    }

    /// `nodes` and every node they lead to in `graph` (App → Feature → Core).
    static func reachable(from nodes: Set<String>, _ graph: [String: Set<String>]) -> Set<String> {
        var reached: Set<String> = []
        var queue = Array(nodes)
        while let next = queue.popLast() {
            guard reached.insert(next).inserted else { continue }
            queue.append(contentsOf: graph[next] ?? [])
        }
        return reached
    }

    /// `file` relative to the workspace root, as the state records it.
    static func relative(_ file: URL, in workspace: Workspace) -> String {
        let base = workspace.root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }

    /// `to` relative to the folder `from` (`../Core`), or `.` for the same folder.
    static func relativePath(from: URL, to: URL) -> String {
        let source = from.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let target = to.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(source.count, target.count) && source[common] == target[common] { common += 1 }
        let parts = Array(repeating: "..", count: source.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
