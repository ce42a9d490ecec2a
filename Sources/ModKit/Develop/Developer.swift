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
            manager.contents(atPath: store.url(of: file.path).path).map { [UInt8]($0) } != store.writtenBytes(file.path)
        }
        if !edited.isEmpty {
            throw ModKitError("\(edited.map(\.path).joined(separator: ", ")) changed since 'modkit develop' rewrote \(edited.count == 1 ? "it" : "them"); nothing was changed",
                              hint: "move your change aside (the original is in .modkit/develop/originals/), put back the overridden file, run the command again, then re-apply your change")
        }
        let developed = Set(active.map(\.module))
        var state = DevelopState()
        state.modules = active
        var bytes: [String: [UInt8]] = [:]
        var originals: [String: [UInt8]] = [:]
        var writes: [DevelopJournal.Write] = []
        var problems: [Diagnostic] = []

        // Files rewritten earlier stay in the plan even when the manifest no longer lists their module: they go back too.
        let recordedFiles = old.files.map { store.url(of: $0.path) }
        for consumer in podfiles(workspace, specs: specs, also: recordedFiles) {
            let path = relative(consumer, in: workspace)
            let current = manager.contents(atPath: consumer.path).map { [UInt8]($0) } ?? []
            let recorded = old.files.contains { $0.path == path }
            let original = recorded ? (store.original(path) ?? current) : current
            let target: [UInt8], modules: [String]
            do {
                (target, modules) = try overridden(original, podfile: consumer, developed: developed, specs: specs)
            } catch {
                problems.append(diagnostic(error, in: original, path: path))
                continue
            }
            if target != original {
                state.files.append(DevelopState.File(path: path, kind: "podfile", modules: modules))
                if !recorded { originals[DevelopState.key(path)] = original }
            }
            if target != current {
                bytes[DevelopState.key(path)] = target
                writes.append(DevelopJournal.Write(path: path))
            }
        }

        if !problems.isEmpty { throw ManifestError(diagnostics: problems) }
        let steps = try swiftSteps(developed: developed, old: old, state: &state, workspace, specs: specs,
                                   bytes: &bytes, originals: &originals)
        guard !writes.isEmpty || !steps.isEmpty || state != old else {
            return Result(state: old)
        }
        let entry = DevelopJournal.Entry(state: state, previousModules: old.modules.map(\.module), writes: writes,
                                         originals: Array(originals.keys).sorted(), swift: steps)
        try DevelopJournal.commit(entry, bytes: bytes, originals: originals, in: store)
        guard let outcome = try DevelopJournal.finish(in: store, swift: { runSwift($0, root: workspace.root) }) else {
            return Result(state: state)
        }
        return Result(state: outcome.state, written: writes.map(\.path), edited: steps, failures: outcome.failures)
    }

    /// The Podfiles of the modules and of the manifest repository.
    static func podfiles(_ workspace: Workspace, specs: WorkspaceSpecs, also recorded: [URL] = []) -> [URL] {
        var seen = Set<String>()
        var result: [URL] = []
        let rootPodfile = workspace.root.appendingPathComponent(SpecFileName.podfile)
        let candidates = specs.modules.flatMap(\.files).filter { $0.kind == .podfile }.map(\.url)
            + (FileManager.default.fileExists(atPath: rootPodfile.path) ? [rootPodfile] : []) + recorded
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
    static func diagnostic(_ error: SpecReadError, in bytes: [UInt8], path: String) -> Diagnostic {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let line = error.line - 1 < lines.count ? String(decoding: lines[error.line - 1].filter { $0 != 13 }, as: UTF8.self) : nil
        return .error(error.message, at: SourceLocation(file: path, line: error.line, column: error.column), sourceLine: line,
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

    static func closure(of start: String, _ graph: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = []
        var queue = Array(graph[start] ?? [])
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue.append(contentsOf: graph[next] ?? [])
        }
        seen.remove(start)
        return seen
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
