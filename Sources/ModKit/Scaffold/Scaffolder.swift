import Foundation
import SpecKit

/// Plans `modkit new`: validates the request, renders the template in memory, plans the guard and the manifest edit.
public enum Scaffolder {
    /// The plan, or every problem found (a `TemplateError`); nothing is written.
    public static func plan(_ request: ScaffoldRequest, template: Template, manifest: Manifest) throws -> ScaffoldPlan {
        var problems: [Diagnostic] = []
        let kind = try moduleKind(request, manifest: manifest)
        let context = TemplateContext(request: request, template: template, manifest: manifest,
                                      gitURL: kind == .repository ? remoteURL(of: request.name, request: request, manifest: manifest) : nil,
                                      problems: &problems)
        let layout = try Layout(request, template: template, manifest: manifest, kind: kind, context: context, problems: &problems)
        var (files, allValues) = renderFiles(template, layout: layout, context: context, manifest: manifest, problems: &problems)
        var seen = Set<String>()
        for file in files where !seen.insert(file.path).inserted {
            problems.append(.error("two template files render to the same path '\(file.path)'"))
        }
        guard problems.isEmpty else { throw TemplateError(problems) }

        let modules = try newModules(layout, kind: kind, request: request, manifest: manifest, files: &files, problems: &problems)
        guard problems.isEmpty else { throw TemplateError(problems) }

        let original = try ManifestLoader.textForEditing(manifest.file)
        let updated = try editedManifest(original, adding: modules, manifest: manifest)
        let revision = manifest.defaults.revision
        let branch = revision.flatMap { $0.count == 40 && $0.allSatisfy(\.isHexDigit) ? nil : $0 }
        return ScaffoldPlan(template: template, modules: modules, files: files, values: allValues, manifestFile: manifest.file,
                            manifestDisplayPath: manifest.displayPath, originalManifest: original, newManifest: updated,
                            initialBranch: kind == .repository ? branch : nil, pushes: kind == .repository && request.remote != nil,
                            ignoredPaths: kind == .repository ? modules.map(\.path) : [], workspaceRoot: manifest.root)
    }

    /// Names and paths of the modules the template creates, checked against the workspace and each other.
    private struct Layout {
        var names: [String] = []
        /// The rendered `implements:` of each module.
        var implements: [String?] = []
        var paths: [String] = []
        /// The index of the module the request names.
        var primary = 0
        var interfaceNames: Set<String> = []
        /// The version the request asks for (`--var version=`, else 0.1.0).
        var requestedVersion: SemanticVersion

        init(_ request: ScaffoldRequest, template: Template, manifest: Manifest, kind: Module.Kind, context: TemplateContext,
             problems: inout [Diagnostic]) throws {
            requestedVersion = context.version
            let placeholders = Placeholders(values: context.values)
            for spec in template.modules {
                let name = placeholders.render(spec.name, file: spec.location?.file ?? template.displayPath, firstLine: spec.location?.line ?? 1, problems: &problems)
                names.append(name)
                implements.append(spec.implements.map { placeholders.render($0, file: spec.location?.file ?? template.displayPath, firstLine: spec.location?.line ?? 1, problems: &problems) })
            }
            for case let interface? in implements where !names.contains(interface) {
                problems.append(.error("a template module implements '\(interface)', which is not one of the template's modules (\(names.joined(separator: ", ")))", at: template.modules.first?.location))
            }
            checkNames([request.name] + names.filter { $0 != request.name }, manifest: manifest, problems: &problems)
            if template.modules.count > 1, template.modules.contains(where: { $0.folder.isEmpty }) {
                problems.append(.error("a template with several modules must give each its own 'folder'", at: template.modules[0].location))
            }
            primary = names.firstIndex(of: request.name) ?? 0
            let primaryPath = try modulePath(request.path, name: request.name, kind: kind, manifest: manifest)
            let parent = RelativePath.parent(of: primaryPath)
            paths = names.indices.map { $0 == primary ? primaryPath : (parent.isEmpty ? names[$0] : parent + "/" + names[$0]) }
            checkPaths(paths, names: names, kind: kind, manifest: manifest, problems: &problems)

            if kind == .repository, request.remote != nil, names.count > 1 {
                problems.append(.error("--remote names one repository, but template '\(template.name)' creates \(names.count) modules (\(names.joined(separator: ", ")))",
                                       hint: "set 'defaults: url-base:' so each gets <url-base>/<Name>.git, or use --dir"))
            }
            interfaceNames = Set(implements.compactMap { $0 })
        }

        /// An interface module of the template (one another implements) is versioned x.y: `{{version}}` renders as 0.1 in its files.
        func version(of name: String) -> SemanticVersion {
            guard interfaceNames.contains(name) else { return requestedVersion }
            let v = requestedVersion
            return SemanticVersion(major: v.major, minor: v.minor, patch: 0, prerelease: v.prerelease, isTwoPart: true)
        }
    }

    /// Every file of every module, rendered, and the placeholder values of the request's module.
    private static func renderFiles(_ template: Template, layout: Layout, context: TemplateContext, manifest: Manifest,
                                    problems: inout [Diagnostic]) -> (files: [ScaffoldPlan.File], values: [String: String]) {
        let names = layout.names, paths = layout.paths
        var files: [ScaffoldPlan.File] = []
        var allValues = context.values
        for (index, spec) in template.modules.enumerated() where index < names.count {
            let generated = GuardWriter.directory(module: names[index], moduleDirectory: manifest.directory(of: Module(name: names[index], path: paths[index])),
                                                  generatedDir: manifest.defaults.generatedDir)
            var values = context.values
            values["module"] = names[index]
            if layout.interfaceNames.contains(names[index]) { values["version"] = layout.version(of: names[index]).description }
            values["generated_dir"] = GuardWriter.displayPath(generated, relativeTo: manifest.root.appendingPathComponent(paths[index]))
            if index == layout.primary { allValues = values }
            let folder = spec.folder.isEmpty ? template.directory : template.directory.appendingPathComponent(spec.folder, isDirectory: true)
            let shownFolder = spec.folder.isEmpty ? template.displayPath : template.displayPath + "/" + spec.folder
            let entries: [TemplateEntry]
            do { entries = try TemplateFiles.entries(in: folder, isTemplateRoot: spec.folder.isEmpty) } catch {
                problems.append(.error("cannot read template folder \(shownFolder): \(error.localizedDescription)"))
                continue
            }
            for entry in entries where !template.skip.contains(where: { Glob.matches($0, path: (spec.folder.isEmpty ? "" : spec.folder + "/") + entry.path) }) {
                if let file = TemplateFiles.render(entry, displayFolder: shownFolder, modulePath: paths[index], template: template,
                                                   placeholders: Placeholders(values: values), problems: &problems) {
                    files.append(file)
                }
            }
        }
        return (files, allValues)
    }

    /// Each new module with its version, dependencies (read from its rendered spec files) and url; its guard files are
    /// added to `files`.
    private static func newModules(_ layout: Layout, kind: Module.Kind, request: ScaffoldRequest, manifest: Manifest,
                                   files: inout [ScaffoldPlan.File], problems: inout [Diagnostic]) throws -> [ScaffoldPlan.NewModule] {
        let names = layout.names, paths = layout.paths, implements = layout.implements
        let rendered = Set(files.map(\.path))
        var modules: [ScaffoldPlan.NewModule] = []
        for (index, name) in names.enumerated() {
            let directory = manifest.root.appendingPathComponent(paths[index], isDirectory: true)
            let dependencies = dependencyNames(of: paths[index], files: files, candidates: names.filter { $0 != name } + manifest.modules.map(\.name))
            let spec = GuardSpec(name: name, version: layout.version(of: name), dependencies: dependencies.compactMap { dependency in
                // The guard `modkit guard` would write: interface mode for the module this one implements.
                let mode: VersionGuardMode = implements[index] == dependency ? .interface : .exact
                if names.contains(dependency) { return GuardDependency(name: dependency, version: layout.version(of: dependency), mode: mode) }
                guard let module = manifest.module(named: dependency), let version = VersionReader.read(module: module, in: manifest).version else { return nil }
                return GuardDependency(name: dependency, version: version, languages: GuardLanguage.set(from: module.guardLanguages), mode: mode)
            })
            let guardPlan = try GuardWriter.plan(spec, moduleDirectory: directory, generatedDir: manifest.defaults.generatedDir)
            for file in guardPlan.files {
                let path = GuardWriter.displayPath(file.url, relativeTo: manifest.root)
                if rendered.contains(path) {
                    problems.append(.error("template file '\(path)' is where modkit writes the module's version guard", hint: "remove it from the template"))
                }
                files.append(ScaffoldPlan.File(path: path, content: .data(Data(file.expected.utf8)), executable: false, isGuard: true))
            }
            var url: String?
            if kind == .repository {
                url = request.remote.map { manifestURL(for: $0, manifest: manifest) } ?? "\(name).git"
                if request.remote == nil, manifest.defaults.urlBase == nil {
                    problems.append(.error("a repository module needs a url, and this workspace has no 'url-base'",
                                           hint: "pass --remote URL (the new repository's origin), set 'defaults: url-base:', or use --dir"))
                }
            }
            let entry = Module(name: name, url: url, path: paths[index])
            modules.append(ScaffoldPlan.NewModule(name: name, path: paths[index], kind: kind, url: url, remoteURL: manifest.url(of: entry),
                                                  version: layout.version(of: name), dependencies: spec.dependencies.map(\.name), guardPlan: guardPlan,
                                                  implements: index < implements.count ? implements[index] : nil))
        }
        return modules
    }

    /// Where a new repository module's origin will be: `--remote`, else `<url-base>/<name>.git`; nil without either.
    static func remoteURL(of name: String, request: ScaffoldRequest, manifest: Manifest) -> String? {
        if let remote = request.remote { return remote }
        guard manifest.defaults.urlBase != nil else { return nil }
        return manifest.url(of: Module(name: name, url: "\(name).git", path: name))
    }

    /// The manifest text with the new entries, read back and checked before anything is written.
    static func editedManifest(_ original: String, adding modules: [ScaffoldPlan.NewModule], manifest: Manifest) throws -> String {
        let entries = modules.map { ManifestAppender.Entry(name: $0.name, path: $0.path, url: $0.url, implements: $0.implements) }
        let updated: String
        do { updated = try ManifestAppender.append(entries, to: original) } catch {
            throw ModKitError.input("cannot add the module to \(manifest.displayPath): \(error.description)")
        }
        let reread: Manifest
        do { reread = try ManifestLoader.parse(text: updated, file: manifest.file, displayPath: manifest.displayPath) } catch {
            throw ModKitError.input("adding the module would make \(manifest.displayPath) invalid; nothing was written",
                                    hint: error.diagnostics.first.map(\.description))
        }
        let added = reread.modules.filter { !reread.importedModules.contains($0.name) }.suffix(entries.count).map { ManifestAppender.Entry(name: $0.name, path: $0.path, url: $0.url, implements: $0.implements) }
        guard reread.modules.count == manifest.modules.count + entries.count, Array(added) == entries else {
            throw ModKitError.input("cannot add the module to \(manifest.displayPath): the edited file does not read back as expected; nothing was written")
        }
        return updated
    }

    /// Workspace or sibling modules named by the rendered Package.swift or podspec at the module's root.
    static func dependencyNames(of modulePath: String, files: [ScaffoldPlan.File], candidates: [String]) -> [String] {
        var names: [String] = []
        for file in files where RelativePath.parent(of: file.path) == modulePath {
            guard case .data(let data) = file.content, let kind = SpecFileKind(fileName: RelativePath.lastComponent(of: file.path)),
                  kind == .packageSwift || kind == .podspec,
                  let requirements = try? SpecReader.read([UInt8](data), kind: kind) else { continue }
            for requirement in requirements {
                if let name = candidates.first(where: { requirement.refers(to: $0) }), !names.contains(name) { names.append(name) }
            }
        }
        return names
    }
}
