import Foundation
import GitKit

/// A template ready to render; a template cloned from git lives in a temporary folder until `discard()`.
public struct ResolvedTemplate: Sendable {
    public var template: Template
    public var temporaryDirectory: URL?

    /// Removes the clone of a git template; nothing for a folder template.
    public func discard() {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }
}

/// A line of `modkit new --list-templates`.
public struct TemplateSummary: Sendable, Encodable {
    public var name: String
    public var origin: Template.Origin
    public var description: String
    public var path: String
}

/// Finds templates: the workspace's `templates:` folder, the built-in ones shipped with modkit, a folder path or a git url.
public enum TemplateLibrary {
    /// Environment variable naming the built-in templates folder, overriding every other place.
    public static let environmentVariable = "MODKIT_TEMPLATES"

    /// The built-in templates: `$MODKIT_TEMPLATES`, else `../share/modkit/Templates` next to the (resolved) executable,
    /// else the `Templates/` folder of the package a development build was built in.
    public static func builtinDirectory(executable: URL?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment[environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL }
        guard let executable else { return nil }
        let binDirectory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = binDirectory.deletingLastPathComponent().appendingPathComponent("share/modkit/Templates", isDirectory: true)
        if isDirectory(installed) { return installed.standardizedFileURL }
        // A development build: <package>/.build/<triple>/<configuration>/modkit.
        var candidate = binDirectory
        for _ in 0..<6 {
            let templates = candidate.appendingPathComponent("Templates", isDirectory: true)
            if isDirectory(templates), FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path) {
                return templates.standardizedFileURL
            }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }

    /// The workspace's own templates folder, when `templates:` names one.
    public static func workspaceDirectory(_ manifest: Manifest) -> URL? {
        manifest.templates.map { manifest.root.appendingPathComponent($0, isDirectory: true).standardizedFileURL }
    }

    /// Every template by name: workspace templates first (they hide built-in ones of the same name), then built-in ones.
    public static func list(builtin: URL?, manifest: Manifest?) -> [TemplateSummary] {
        var result: [TemplateSummary] = []
        let folders: [(URL?, Template.Origin)] = [(manifest.flatMap(workspaceDirectory), .workspace), (builtin, .builtin)]
        for (folder, origin) in folders {
            guard let folder else { continue }
            for name in templateNames(in: folder) where !result.contains(where: { $0.name == name }) {
                let directory = folder.appendingPathComponent(name, isDirectory: true)
                let description = (try? Template.load(from: directory, name: name, displayPath: name, origin: origin))?.description
                result.append(TemplateSummary(name: name, origin: origin, description: description ?? "(template.yml has problems)", path: directory.path))
            }
        }
        return result
    }

    /// Resolves `--template`: a git url (optionally `#ref`), a folder path, or a name of a workspace or built-in template.
    public static func resolve(_ reference: String, builtin: URL?, manifest: Manifest, workingDirectory: URL) throws -> ResolvedTemplate {
        if isGitURL(reference) { return try clone(reference) }
        if reference.contains("/") || reference.hasPrefix(".") || reference.hasPrefix("~") {
            let home = FileManager.default.homeDirectoryForCurrentUser.path
            let path = reference == "~" ? home : reference.hasPrefix("~/") ? home + reference.dropFirst() : reference
            let directory = URL(fileURLWithPath: path, isDirectory: true, relativeTo: workingDirectory).standardizedFileURL
            guard isDirectory(directory) else { throw ModKitError.input("template folder '\(reference)' does not exist") }
            let template = try Template.load(from: directory, name: directory.lastPathComponent, displayPath: reference, origin: .path)
            return ResolvedTemplate(template: template)
        }
        let available = list(builtin: builtin, manifest: manifest)
        guard let found = available.first(where: { $0.name == reference }) else {
            let names = available.map(\.name)
            throw ModKitError.input("no template named '\(reference)'\(DidYouMean.suffix(for: reference, among: names))",
                                    hint: names.isEmpty ? "no templates found; set \(environmentVariable) or reinstall modkit" : "templates: \(names.joined(separator: ", ")) ('modkit new --list-templates')")
        }
        let directory = URL(fileURLWithPath: found.path, isDirectory: true)
        let shown = found.origin == .workspace ? "\(manifest.templates ?? "")/\(found.name)" : "Templates/\(found.name)"
        return ResolvedTemplate(template: try Template.load(from: directory, name: found.name, displayPath: shown, origin: found.origin))
    }

    /// `scheme://…` or `user@host:path`, as git would clone it.
    static func isGitURL(_ reference: String) -> Bool {
        let url = reference.split(separator: "#", maxSplits: 1).first.map(String.init) ?? reference
        switch ModuleURL.classify(url) {
        case .remote, .scpLike: return true
        default: return false
        }
    }

    /// Clones `url#ref` into a temporary folder with libgit2 and checks out `ref` (a branch, tag or commit) when given.
    static func clone(_ reference: String) throws -> ResolvedTemplate {
        let parts = reference.split(separator: "#", maxSplits: 1).map(String.init)
        let url = parts[0], ref = parts.count > 1 ? parts[1] : nil
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-template-\(UUID().uuidString.prefix(8))", isDirectory: true)
        let checkout = temporary.appendingPathComponent("template", isDirectory: true)
        do {
            let repository = try Repository.clone(url: url, to: checkout.path)
            if let ref {
                let commit = try (try? repository.resolveCommit("refs/remotes/origin/\(ref)")) ?? repository.resolveCommit(ref)
                try repository.checkoutDetached(commit)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ModKitError.input("cannot fetch template \(Redact.secrets(in: reference)): \(ErrorText.describe(error))")
        }
        let name = RelativePath.deletingExtension(RelativePath.lastComponent(of: url))
        do {
            let template = try Template.load(from: checkout, name: name, displayPath: Redact.secrets(in: reference), origin: .git)
            return ResolvedTemplate(template: template, temporaryDirectory: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Subfolders of `folder` that hold a `template.yml`, sorted.
    static func templateNames(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            !name.hasPrefix(".") && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).appendingPathComponent(Template.fileName).path)
        }.sorted()
    }

    static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
