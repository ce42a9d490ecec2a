import Foundation
import GitKit

/// `modkit sync`: every selected repository module brought to its manifest revision, in parallel.
public enum Syncer {
    /// Syncs `modules` with at most `jobs` at once; one module's failure never stops the others.
    /// Directory modules are reported as skipped: they come with the manifest repository. `depth` overrides each
    /// module's `depth:` for new clones; `engine` (default: `fetch.engine`) clones and fetches; `limits` bounds
    /// transfers per host and the work on this machine within the `jobs` workers.
    public static func sync(
        _ modules: [Module],
        in workspace: Workspace,
        jobs: Int,
        limits: TransferLimits? = nil,
        depth: Int? = nil,
        engine: (any TransferEngine)? = nil,
        observe: @escaping @Sendable (SyncEvent) -> Void = { _ in }
    ) -> [ModuleResult<SyncFacts>] {
        let manifest = workspace.manifest
        let stamp = backupStamp(Date())
        let chosen = engine ?? (try? FetchEngineSetting.engine()) ?? Libgit2Engine()
        let cache = chosen is Libgit2Engine ? nil : ObjectCache.configured()
        let share = chosen is Libgit2Engine ? nil : SSHConnectionShare.forSync(urls: modules.compactMap { module in
            module.kind == .repository ? manifest.url(of: module).map(LocalRepositoryURL.resolve) : nil
        }, jobs: jobs)
        defer { share?.close() }
        let engine = share.map(chosen.sharingSSHConnections) ?? chosen
        let gates = limits.map { TransferGates($0, sshShare: share) }
        let weigh: (Module) -> SyncOrder = { module in
            let mirror = manifest.url(of: module).flatMap { url in cache.map { $0.mirrorPath(for: LocalRepositoryURL.resolve(url)) } }
            return SyncOrder.of(directory: manifest.directory(of: module).path, remote: manifest.defaults.remote, mirror: mirror)
        }
        return NestedModules.inWaves(modules, of: manifest) { wave in Parallel.map(wave.map { ($0, weigh($0)) }, jobs: jobs, heaviestFirst: \.1) { module, order in
            guard module.kind == .repository, let url = manifest.url(of: module).map(LocalRepositoryURL.resolve) else {
                let result = ModuleResult<SyncFacts>(name: module.name, path: module.path, outcome: .skipped,
                                                     detail: "directory module (comes with the manifest repository)", facts: SyncFacts())
                observe(.finished(result))
                return result
            }
            // Checked again here, wave by wave: a module cloned in an earlier wave may hold a link a nested module's path goes through.
            if let problem = ContainedPath.problem(module.path, in: workspace.root) {
                let result = ModuleResult<SyncFacts>(name: module.name, path: module.path, outcome: .failed, detail: problem.message, facts: SyncFacts())
                observe(.finished(result))
                return result
            }
            var syncer = ModuleSyncer(
                module: module, directory: manifest.directory(of: module), url: url,
                remote: manifest.defaults.remote, revision: manifest.revision(of: module),
                backupStamp: stamp, depth: depth ?? module.depth ?? 0, engine: engine, cache: cache, observe: observe
            )
            syncer.gates = gates
            syncer.likelyMoved = order.likelyMoved
            return syncer.run()
        } }
    }

    /// Adds module repositories that the manifest repository does not ignore yet to its `.gitignore`,
    /// so the manifest repository stays clean. Returns the paths added.
    @discardableResult
    public static func ignoreModuleRepositories(in workspace: Workspace) throws -> [String] {
        let root = workspace.root
        guard Repository.isRepository(root.path), let repository = try? Repository.open(root.path) else { return [] }
        let paths = try workspace.manifest.modules.filter { $0.kind == .repository }.map(\.path).filter { path in
            !(try repository.isIgnored(path + "/"))
        }
        return try GitIgnore.add(paths, to: root.appendingPathComponent(".gitignore"))
    }

    static func backupStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
