import Foundation
import SpecKit

/// Every module's spec files and versions, and which requirement refers to which workspace module:
/// the one source of truth that pin, guard, graph and release share.
public struct WorkspaceSpecs: Sendable {
    /// One module with what modkit read about it.
    public struct ModuleSpecs: Sendable {
        public var module: Module
        public var directory: URL
        public var version: ModuleVersion
        public var files: [SpecFile]
        public var problems: [SpecFileProblem]
        /// Versions from the module's lock files (next to its spec files, at its root) over the workspace root's.
        public var resolved: ResolvedVersions
    }

    /// A requirement of a module's spec file on another workspace module.
    public struct Edge: Sendable {
        public var from: String
        public var to: String
        public var file: URL
        public var requirement: Requirement
    }

    /// A pod defined by one podspec of a module; a module directory may hold several (firebase-ios-sdk).
    public struct Pod: Sendable {
        public var name: String
        public var module: String
        public var file: URL
        /// The podspec's literal `s.version`, else the module's version.
        public var version: String?
    }

    public let workspace: Workspace
    public let modules: [ModuleSpecs]
    public let edges: [Edge]
    /// Every pod of every module, by lowercased pod name.
    public let pods: [String: Pod]
    private let aliases: [String: String]

    /// Reads every module of the workspace (in parallel); modules not on disk have no spec files.
    /// `overlay` supplies planned file contents and `versions` planned module versions (a release's dry run).
    public static func load(_ workspace: Workspace, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                            overlay: EditSet? = nil, versions: [String: String] = [:]) -> WorkspaceSpecs {
        let manifest = workspace.manifest
        let rootResolved = SpecFiles.resolvedVersions(in: workspace.root)
        let modules = Parallel.map(manifest.modules, jobs: jobs) { module -> ModuleSpecs in
            let directory = manifest.directory(of: module)
            var files: [SpecFile] = []
            var problems: [SpecFileProblem] = []
            for url in SpecFiles.find(in: directory, listed: module.specs) {
                switch SpecFiles.read(url, overlay: overlay) {
                case .success(let file): files.append(file)
                case .failure(let problem): problems.append(problem)
                }
            }
            var version = VersionReader.read(module: module, in: manifest)
            if let planned = versions[module.name] {
                version = ModuleVersion(version: SemanticVersion(planned, twoParts: manifest.isInterface(module.name)), raw: planned, source: version.source, location: version.location)
            }
            // The nearest lock file wins: a spec file's own folder, then the module's root, then the workspace root.
            var resolved = rootResolved.versions
            problems += rootResolved.problems
            for folder in [directory] + lockDirectories(of: files, in: directory) {
                let locks = SpecFiles.resolvedVersions(in: folder)
                resolved = resolved.merging(locks.versions)
                problems += locks.problems
            }
            return ModuleSpecs(module: module, directory: directory, version: version, files: files, problems: problems, resolved: resolved)
        }
        return WorkspaceSpecs(workspace: workspace, modules: modules)
    }

    /// The folders of spec files below the module's root (`Example/Podfile`): their lock files sit next to them.
    static func lockDirectories(of files: [SpecFile], in directory: URL) -> [URL] {
        var seen = Set([directory.standardizedFileURL.path])
        return files.map { $0.url.deletingLastPathComponent().standardizedFileURL }.filter { seen.insert($0.path).inserted }
    }

    init(workspace: Workspace, modules: [ModuleSpecs]) {
        self.workspace = workspace
        self.modules = modules
        var aliases: [String: String] = [:]
        var pods: [String: Pod] = [:]
        for specs in modules {
            let module = specs.module
            aliases[module.name.lowercased()] = module.name
            for file in specs.files {
                guard let pod = file.podName else { continue }
                aliases[pod.lowercased()] = aliases[pod.lowercased()] ?? module.name
                let version = file.declaration?.version?.literal ?? specs.version.version?.description
                if pods[pod.lowercased()] == nil {
                    pods[pod.lowercased()] = Pod(name: pod, module: module.name, file: file.url, version: version)
                }
            }
            if let url = workspace.manifest.url(of: module) {
                aliases["url:" + canonicalRepositoryURL(url).lowercased()] = module.name
                let last = packageIdentity(forLocation: url)
                aliases[last] = aliases[last] ?? module.name
            }
            aliases["dir:" + specs.directory.standardizedFileURL.path] = module.name
        }
        self.aliases = aliases
        self.pods = pods
        var edges: [Edge] = []
        for specs in modules {
            for file in specs.files {
                for requirement in file.requirements {
                    guard let target = WorkspaceSpecs.module(for: requirement, in: file, aliases: aliases),
                          target != specs.module.name else { continue }
                    edges.append(Edge(from: specs.module.name, to: target, file: file.url, requirement: requirement))
                }
            }
        }
        self.edges = edges
    }

    /// The workspace module a requirement refers to, if any: by local path, repository url, pod or package name.
    public func module(for requirement: Requirement, in file: SpecFile) -> String? {
        WorkspaceSpecs.module(for: requirement, in: file, aliases: aliases)
    }

    static func module(for requirement: Requirement, in file: SpecFile, aliases: [String: String]) -> String? {
        if case .path(let path) = requirement.constraint {
            let base = file.url.deletingLastPathComponent()
            let target = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
            return aliases["dir:" + target]
        }
        if requirement.name.contains("/") && (requirement.name.contains(":") || requirement.name.hasPrefix("git@")) {
            if let byURL = aliases["url:" + canonicalRepositoryURL(requirement.name).lowercased()] { return byURL }
        }
        return aliases[requirement.identity] ?? aliases[requirement.name.lowercased()]
    }

    /// The pod of the workspace a CocoaPods requirement names (`FirebaseCore`, `FirebaseCore/Logger`), if any.
    public func pod(for requirement: Requirement) -> Pod? {
        guard [.podspec, .podspecJSON, .podfile].contains(requirement.fileKind) else { return nil }
        return pods[requirement.identity]
    }

    /// For a module with several podspecs, each pod with the other pods of the module it depends on, in file order.
    public func podDependencies(of name: String) -> [(pod: String, dependencies: [String])] {
        guard let module = specs(of: name) else { return [] }
        let files = module.files.filter { $0.podName != nil }
        guard files.count > 1 else { return [] }
        return files.map { file in
            var seen = Set<String>()
            let dependencies = file.requirements.compactMap { pod(for: $0) }
                .filter { $0.module == name && $0.file != file.url }
                .map(\.name).filter { seen.insert($0).inserted }
            return (file.podName!, dependencies)
        }
    }

    public func specs(of name: String) -> ModuleSpecs? { modules.first { $0.module.name == name } }

    /// The dependencies of a module on other workspace modules, without duplicates, in first-seen order.
    public func dependencies(of name: String) -> [String] {
        var seen = Set<String>()
        return edges.filter { $0.from == name }.map(\.to).filter { seen.insert($0).inserted }
    }
}
