import Foundation
import SpecKit

/// SwiftPM consumers: never edited; their dependency on a developed module is put in SwiftPM's own edit mode
/// (`swift package edit NAME --path DIR`, state under `.build`), and Package.resolved is put back byte for byte after.
extension Developer {
    /// The edit and unedit steps that bring every consumer package to `developed`; fills `state.packages` and the bytes to keep.
    static func swiftSteps(developed: Set<String>, old: DevelopState, state: inout DevelopState, _ workspace: Workspace,
                           specs: WorkspaceSpecs, bytes: inout [String: [UInt8]], originals: inout [String: [UInt8]]) throws -> [DevelopJournal.SwiftStep] {
        let manifest = workspace.manifest
        let (graph, declaredIdentity) = packageGraph(specs)
        var identity = declaredIdentity
        var consumers: [(path: String, dependsOn: Set<String>)] = []
        for module in specs.modules {
            let root = module.directory.standardizedFileURL.path
            guard module.files.contains(where: { $0.kind == .packageSwift && $0.url.deletingLastPathComponent().standardizedFileURL.path == root })
            else { continue }
            consumers.append((module.module.path, graph[module.module.name] ?? []))
        }
        if !consumers.contains(where: { $0.path.isEmpty }), case .success(let file) = SpecFiles.read(workspace.root.appendingPathComponent(SpecFileName.packageManifest)) {
            var direct: Set<String> = []
            for requirement in file.requirements where requirement.origin != .path {
                if let target = specs.module(for: requirement, in: file) {
                    direct.insert(target)
                    identity[target] = identity[target] ?? requirement.identity
                }
            }
            consumers.append(("", direct))
        }

        var desired: [DevelopState.Package] = []
        for consumer in consumers {
            let reached = reachable(from: consumer.dependsOn, graph)
            for module in developed.sorted() where reached.contains(module) {
                guard let declared = manifest.module(named: module), declared.path != consumer.path else { continue }
                let dependency = identity[module] ?? manifest.url(of: declared).map { packageIdentity(forLocation: $0) } ?? module.lowercased()
                let before = old.packages.first { $0.path == consumer.path }
                let hadResolved = before?.hadResolved
                    ?? FileManager.default.fileExists(atPath: DevelopStore(workspaceRoot: workspace.root).url(of: consumer.path).appendingPathComponent(SpecFileName.packageResolved).path)
                desired.append(DevelopState.Package(path: consumer.path, dependency: dependency, module: module, hadResolved: hadResolved))
            }
        }
        state.packages = desired
        let store = DevelopStore(workspaceRoot: workspace.root)
        var steps: [DevelopJournal.SwiftStep] = []
        for package in desired where !old.packages.contains(package) {
            if !old.packages.contains(where: { $0.path == package.path }), package.hadResolved,
               let resolved = FileManager.default.contents(atPath: store.url(of: package.path).appendingPathComponent(SpecFileName.packageResolved).path) {
                originals[DevelopState.resolvedKey(package.path)] = [UInt8](resolved)
            }
            let target = manifest.module(named: package.module)?.path ?? package.module
            steps.append(DevelopJournal.SwiftStep(edit: true, package: package.path, dependency: package.dependency, module: package.module,
                                                  target: target, hadResolved: package.hadResolved))
        }
        for package in old.packages where !desired.contains(package) {
            let last = !desired.contains { $0.path == package.path }
            if last, package.hadResolved {
                guard let saved = store.original((package.path.isEmpty ? "" : package.path + "/") + SpecFileName.packageResolved) else {
                    throw ModKitError("the Package.resolved saved for \(package.path.isEmpty ? "." : package.path) is missing from .modkit/develop/originals/")
                }
                bytes[DevelopState.resolvedKey(package.path)] = saved
            }
            steps.append(DevelopJournal.SwiftStep(edit: false, package: package.path, dependency: package.dependency, module: package.module,
                                                  target: package.path, hadResolved: package.hadResolved && last, restores: last))
        }
        return steps
    }

    /// Module → the modules its Package.swift depends on by url, registry or name (a path dependency is local already),
    /// and the package identity by which each module is depended on.
    static func packageGraph(_ specs: WorkspaceSpecs) -> (graph: [String: Set<String>], identity: [String: String]) {
        var graph: [String: Set<String>] = [:]
        var identity: [String: String] = [:]
        for edge in specs.edges where edge.requirement.fileKind == .packageSwift && edge.requirement.origin != .path {
            graph[edge.from, default: []].insert(edge.to)
            identity[edge.to] = identity[edge.to] ?? edge.requirement.identity
        }
        return (graph, identity)
    }

    /// Runs one step with the `swift` found on PATH; nil when it worked (or was already done: steps run again after a kill).
    static func runSwift(_ step: DevelopJournal.SwiftStep, root: URL) -> String? {
        let store = DevelopStore(workspaceRoot: root)
        let directory = store.url(of: step.package)
        let environment = ProcessInfo.processInfo.environment
        if step.edit {
            let link = directory.appendingPathComponent("Packages/\(step.dependency)").path
            let target = store.url(of: step.target).standardizedFileURL.path
            if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
               URL(fileURLWithPath: destination).standardizedFileURL.path == target { return nil }
            let command = "swift package edit \(quote(step.dependency)) --path \(quote(target))"
            guard let result = try? ShellCommand.run(command, in: directory, environment: environment) else { return "cannot run '\(command)'" }
            return result.status == 0 ? nil : "'\(command)' failed: \(lastLines(result.output))"
        }
        let command = "swift package unedit \(quote(step.dependency))"
        guard let result = try? ShellCommand.run(command, in: directory, environment: environment) else { return "cannot run '\(command)'" }
        if result.status == 0 || result.output.contains("not in edit mode") { return nil }
        return "'\(command)' failed: \(lastLines(result.output))"
    }

    private static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    private static func lastLines(_ output: String) -> String {
        output.split(separator: "\n").suffix(3).joined(separator: " / ")
    }
}
