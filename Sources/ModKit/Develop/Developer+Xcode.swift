import Foundation
import SpecKit

/// Xcode consumers: a project that depends on a developed module as a remote Swift package (its `project.pbxproj`, its
/// Package.resolved, or that of a workspace) gets a workspace of modkit's own beside it, `<Name>.modkit-develop.xcworkspace`,
/// which lists the project (or every item of the user's workspace of that project) and the developed modules' checkouts.
/// A local package in the workspace replaces the remote package of the same name: Xcode's own override. The user's
/// files are never edited; `--off` removes the workspace again.
extension Developer {
    /// What ends the name of the workspace modkit writes: `App.modkit-develop.xcworkspace`.
    public static let workspaceSuffix = ".modkit-develop.xcworkspace"
    public static let workspaceContents = "contents.xcworkspacedata"

    /// The workspace one consumer gets, by the path of its contents file.
    private struct WorkspaceOutput {
        var folder: URL
        /// The user's workspace whose items it repeats, if the project has one.
        var userWorkspace: URL?
        /// The project it lists when there is no user's workspace (or that one does not list it).
        var project: String?
        var modules: Set<String> = []
    }

    /// Plans the Xcode workspaces for `developed`, and the removal of those an earlier run wrote that are no longer needed.
    static func xcodeWorkspaces(developed: Set<String>, old: DevelopState, tracked: [URL], _ workspace: Workspace,
                                specs: WorkspaceSpecs, store: DevelopStore, plan: inout Plan) {
        let manager = FileManager.default
        var outputs: [String: WorkspaceOutput] = [:]
        if !developed.isEmpty {
            let graph = packageGraph(specs).graph
            for (container, direct) in xcodeContainers(tracked: tracked, workspace, plan: &plan) {
                let reached = reachable(from: direct, graph).intersection(developed)
                guard !reached.isEmpty else { continue }
                let user: URL?
                do {
                    user = try container.isProject ? userWorkspace(of: container.name, in: container.folder, workspace) : container.url
                } catch {
                    plan.problems.append(error)
                    continue
                }
                let name = user.map { $0.deletingPathExtension().lastPathComponent } ?? container.name
                let folder = container.folder.appendingPathComponent(name + workspaceSuffix, isDirectory: true)
                let path = relative(folder.appendingPathComponent(workspaceContents), in: workspace)
                var output = outputs[path] ?? WorkspaceOutput(folder: folder, userWorkspace: user)
                if container.isProject { output.project = container.name + ".xcodeproj" }
                output.modules.formUnion(reached)
                outputs[path] = output
            }
        }
        let recorded = old.files.filter { $0.kind == "xcworkspace" }.map(\.path)
        for path in Set(outputs.keys).union(recorded).sorted() {
            let current = manager.contents(atPath: store.url(of: path).path).map { [UInt8]($0) }
            let earlier = old.files.first { $0.path == path }
            // What the file held before develop: nothing when develop created it.
            let original: [UInt8]?
            if let earlier {
                original = earlier.created == true ? nil : store.original(path) ?? current
            } else {
                original = current
            }
            var target = original
            var modules: [String] = []
            if let output = outputs[path] {
                modules = output.modules.sorted()
                plan.warnings.formUnion(modules.compactMap { identityWarning($0, workspace) })
                do throws(Diagnostic) {
                    var items: [XMLElementNode] = []
                    if let user = output.userWorkspace { items = try workspaceItems(user, workspace) }
                    let packages = modules.compactMap { name in
                        workspace.manifest.module(named: name).map {
                            "group:" + relativePath(from: output.folder.deletingLastPathComponent(), to: workspace.manifest.directory(of: $0))
                        }
                    }
                    target = Array(XcodeWorkspaceDocument.render(items: items, project: output.project, packages: packages).utf8)
                } catch {
                    plan.problems.append(error)
                    continue
                }
            }
            plan.add(path, kind: "xcworkspace", modules: modules, current: current, original: original, target: target, recorded: earlier != nil)
        }
    }

    /// Why Xcode would not take a module's checkout for its remote package: it matches them by package identity, which
    /// is a folder's name for a local package and the url's last component for a remote one; nil when they agree.
    private static func identityWarning(_ name: String, _ workspace: Workspace) -> String? {
        guard let module = workspace.manifest.module(named: name), let url = workspace.manifest.url(of: module) else { return nil }
        let remote = packageIdentity(forLocation: url)
        let local = workspace.manifest.directory(of: module).lastPathComponent.lowercased()
        guard remote != local else { return nil }
        return "Xcode takes \(module.path) for the package '\(local)', not '\(remote)' (the identity of \(url)), so it keeps using the remote package; "
            + "give the checkout a folder named '\(remote)' (the module's path: in modkit.yml) for Xcode's override to work"
    }

    /// An Xcode project (`App.xcodeproj`) or workspace (`App.xcworkspace`) and the workspace modules it names as remote packages.
    private struct XcodeContainer: Hashable {
        var folder: URL
        var name: String
        var isProject: Bool
        var url: URL { folder.appendingPathComponent(name + (isProject ? ".xcodeproj" : ".xcworkspace"), isDirectory: true) }
    }

    /// Every Xcode project and workspace of the workspace (tracked by git, or at the root of a module or of the
    /// manifest repository) with the modules its pbxproj or Package.resolved names by repository URL.
    private static func xcodeContainers(tracked: [URL], _ workspace: Workspace, plan: inout Plan) -> [(XcodeContainer, Set<String>)] {
        let manifest = workspace.manifest
        var byURL: [String: String] = [:]
        for module in manifest.modules {
            if let url = manifest.url(of: module) { byURL[canonicalRepositoryURL(url).lowercased()] = module.name }
        }
        let roots = [workspace.root] + manifest.modules.map { manifest.directory(of: $0) }
        var seen = Set<String>()
        let files = (tracked + roots.flatMap(XcodeFile.atRoot)).compactMap { XcodeFile(path: $0.standardizedFileURL.path) }
            .filter { seen.insert($0.path).inserted }
        var result: [XcodeContainer: Set<String>] = [:]
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: file.path).map({ [UInt8]($0) }) else { continue }
            let urls: [String]
            if file.isResolved {
                do { urls = try ResolvedVersions.packageResolved(String(decoding: bytes, as: UTF8.self)).packages.map(\.location) } catch {
                    plan.problems.append(diagnostic(error, in: bytes, path: relative(URL(fileURLWithPath: file.path), in: workspace)))
                    continue
                }
            } else {
                urls = XcodeProjectReader.remotePackageURLs(bytes)
            }
            let container = XcodeContainer(folder: URL(fileURLWithPath: file.folder, isDirectory: true), name: file.name, isProject: file.isProject)
            result[container, default: []].formUnion(urls.compactMap { byURL[canonicalRepositoryURL($0).lowercased()] })
        }
        return result.map { ($0.key, $0.value) }.sorted { $0.0.url.path < $1.0.url.path }
    }

    /// The user's workspace of a project: `App.xcworkspace` beside `App.xcodeproj`, else the one there that lists it.
    private static func userWorkspace(of project: String, in folder: URL, _ workspace: Workspace) throws(Diagnostic) -> URL? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".xcworkspace") && !$0.hasSuffix(workspaceSuffix) }.sorted()
        if names.contains(project + ".xcworkspace") { return folder.appendingPathComponent(project + ".xcworkspace", isDirectory: true) }
        for name in names {
            let url = folder.appendingPathComponent(name, isDirectory: true)
            if XcodeWorkspaceDocument.folderPaths(of: try workspaceItems(url, workspace)).contains(project + ".xcodeproj") { return url }
        }
        return nil
    }

    /// The items (FileRefs, Groups) of a workspace's `contents.xcworkspacedata`; none when it has no such file.
    static func workspaceItems(_ xcworkspace: URL, _ workspace: Workspace) throws(Diagnostic) -> [XMLElementNode] {
        let file = xcworkspace.appendingPathComponent(workspaceContents)
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        do throws(XMLTree.SyntaxError) {
            let root = try XMLTree.parse(String(decoding: data, as: UTF8.self))
            guard root.name == "Workspace" else {
                throw XMLTree.SyntaxError(message: "the root element is <\(root.name)>, not <Workspace>", line: root.line, column: root.column)
            }
            return root.children
        } catch {
            let bytes = [UInt8](data)
            throw diagnostic(SpecReadError(line: error.line, column: error.column, message: error.message), in: bytes, path: relative(file, in: workspace),
                             columnInScalars: true)
        }
    }
}

/// A file that says which remote packages an Xcode project or workspace uses, recognised by its path.
struct XcodeFile {
    var path: String
    /// The folder that holds the `.xcodeproj` or `.xcworkspace`.
    var folder: String
    /// The project's or workspace's name without its extension.
    var name: String
    var isProject: Bool
    /// A Package.resolved rather than a project.pbxproj.
    var isResolved: Bool

    /// `…/App.xcodeproj/project.pbxproj`, `…/App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved`
    /// or `…/App.xcworkspace/xcshareddata/swiftpm/Package.resolved` (never one of modkit's own workspaces); nil for any other path.
    init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let resolvedTail = ["xcshareddata", "swiftpm", SpecFileName.packageResolved]
        // How many components follow the .xcodeproj or .xcworkspace folder.
        let count: Int
        if parts.count >= 2, parts[parts.count - 1] == "project.pbxproj" {
            count = 1
        } else if parts.count >= 5, parts.suffix(4).map(String.init) == ["project.xcworkspace"] + resolvedTail {
            count = 4
        } else if parts.count >= 4, parts.suffix(3).map(String.init) == resolvedTail {
            count = 3
        } else {
            return nil
        }
        let container = parts[parts.count - 1 - count]
        isResolved = count != 1
        if count != 3, container.hasSuffix(".xcodeproj") {
            isProject = true
        } else if count == 3, container.hasSuffix(".xcworkspace"), !container.hasSuffix(Developer.workspaceSuffix) {
            isProject = false
        } else {
            return nil
        }
        guard container.count > ".xcodeproj".count else { return nil }
        self.path = path
        name = String(container.prefix(upTo: container.lastIndex(of: ".")!))
        folder = parts.dropLast(count + 1).joined(separator: "/")
    }

    /// The pbxproj and Package.resolved files of the projects and workspaces directly in `folder`, as found on disk.
    static func atRoot(_ folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var files: [URL] = []
        for name in names.sorted() {
            let container = folder.appendingPathComponent(name, isDirectory: true)
            if name.hasSuffix(".xcodeproj") {
                files.append(container.appendingPathComponent("project.pbxproj"))
                files.append(container.appendingPathComponent("project.xcworkspace/xcshareddata/swiftpm/Package.resolved"))
            } else if name.hasSuffix(".xcworkspace") {
                files.append(container.appendingPathComponent("xcshareddata/swiftpm/Package.resolved"))
            }
        }
        return files
    }
}
