import Foundation
import GitKit

/// The tools `modkit export` writes manifests for.
public enum ExportFormat: String, Sendable, CaseIterable {
    case repo, west, vcstool
}

/// An exported manifest and what could not be said in it (warnings, each naming its module).
public struct ExportResult: Sendable {
    public var text: String
    public var warnings: [Diagnostic]
}

/// Why `export --exact` wrote nothing: each module whose commit it cannot name.
public struct ExportError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public var description: String { diagnostics.map { $0.rendered(colored: false) }.joined(separator: "\n") }
}

/// One repository module as the exporters see it: resolved url and the revision to write.
struct ExportedModule {
    var name: String
    /// The project name it was imported with (`project:`), which the other tool knows it by.
    var project: String?
    var url: String
    var path: String
    var revision: String?
    var groups: [String]
}

/// A remote shared by several modules: a url prefix and, per module, the rest of its url.
struct ExportedRemote {
    var name: String
    var base: String
}

/// Writes the workspace as a `repo`, `west` or vcstool manifest, so the same modules can be driven by the other tool.
public enum ManifestExporter {
    /// The manifest text for `modules`; with `exact`, every module at its checked-out HEAD commit (a module not cloned is an error naming it).
    public static func export(_ manifest: Manifest, modules: [Module], format: ExportFormat, exact: Bool) throws -> ExportResult {
        var warnings: [Diagnostic] = []
        var failures: [Diagnostic] = []
        var exported: [ExportedModule] = []
        for module in modules {
            guard module.kind == .repository, let url = manifest.url(of: module) else {
                warnings.append(.warning("a directory of the manifest repository, not a repository of its own; not exported", module: module.name))
                continue
            }
            let directory = manifest.directory(of: module).path
            let clone = Repository.isRepository(directory) ? try? Repository.open(directory) : nil
            var revision = manifest.revision(of: module)
            if exact {
                guard let clone else {
                    failures.append(.error("not cloned at \(module.path) (run 'modkit sync'); cannot export its exact commit", module: module.name))
                    continue
                }
                switch try? clone.head() {
                case .branch(_, let commit)?, .detached(let commit)?: revision = commit.hex
                default:
                    failures.append(.error("no commit checked out at \(module.path); cannot export its exact commit", module: module.name))
                    continue
                }
            } else if revision == nil {
                revision = (try? clone?.remoteDefaultBranch(remote: manifest.defaults.remote)) ?? nil
                if revision == nil, format != .vcstool {
                    warnings.append(.warning("follows its remote's default branch, which \(format.rawValue) cannot express and which is unknown until it is cloned; no revision written",
                                             module: module.name))
                }
            }
            if format == .repo, !exact, let name = revision, let clone,
               ((try? clone.reference("refs/tags/\(name)")) ?? nil) != nil, ((try? clone.branchTarget(name)) ?? nil) == nil {
                revision = "refs/tags/\(name)"
            }
            exported.append(ExportedModule(name: module.name, project: module.project, url: url, path: module.path, revision: revision, groups: module.groups))
        }
        if !failures.isEmpty {
            failures[failures.count - 1].hint = "clone the missing modules first, or export without --exact"
            throw ExportError(diagnostics: failures)
        }
        let defaultRevision = exact ? nil : manifest.defaults.revision
        let header = "Written by 'modkit export' (format \(format.rawValue)\(exact ? ", exact commits" : "")) from modkit.yml of workspace \(manifest.workspace)."
        let text = switch format {
        case .repo: RepoManifestWriter.render(exported, defaultRevision: defaultRevision, urlBase: manifest.defaults.urlBase, header: header, warnings: &warnings)
        case .west: WestManifestWriter.render(exported, defaultRevision: defaultRevision, urlBase: manifest.defaults.urlBase,
                                           groups: manifest.defaults.groups, header: header, warnings: &warnings)
        case .vcstool: VcstoolWriter.render(exported, header: header)
        }
        return ExportResult(text: text, warnings: warnings)
    }

    /// Splits urls into shared remotes: the workspace's `url-base` first, else each url's folder; the most used remote is `origin`.
    static func remotes(for modules: [ExportedModule], urlBase: String?) -> (remotes: [ExportedRemote], placement: [(remote: String, rest: String)]) {
        var base = urlBase
        while let b = base, b.count > 1, b.hasSuffix("/") { base = String(b.dropLast()) }
        let splits: [(String, String)] = modules.map { module in
            // A module that keeps its project name keeps the remote it came from: the url before the name.
            if let project = module.project, module.url.hasSuffix("/" + project), module.url.count > project.count + 1 {
                return (String(module.url.dropLast(project.count + 1)), project)
            }
            if let base, module.url.hasPrefix(base + "/") { return (base, String(module.url.dropFirst(base.count + 1))) }
            guard let slash = module.url.lastIndex(of: "/") else { return ("", module.url) }
            return (String(module.url[..<slash]), String(module.url[module.url.index(after: slash)...]))
        }
        var counts: [String: Int] = [:]
        var order: [String] = []
        for (prefix, _) in splits {
            if counts[prefix] == nil { order.append(prefix) }
            counts[prefix, default: 0] += 1
        }
        let ranked = order.enumerated().sorted { a, b in
            counts[a.element]! != counts[b.element]! ? counts[a.element]! > counts[b.element]! : a.offset < b.offset
        }.map(\.element)
        var names: [String: String] = [:]
        var remotes: [ExportedRemote] = []
        for (index, prefix) in ranked.enumerated() {
            let name = index == 0 ? "origin" : "remote\(index + 1)"
            names[prefix] = name
            remotes.append(ExportedRemote(name: name, base: prefix))
        }
        return (remotes, splits.map { (names[$0.0]!, $0.1) })
    }
}
