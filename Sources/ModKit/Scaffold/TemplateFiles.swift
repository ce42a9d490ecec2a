import Foundation

/// A file found in a template folder, not yet rendered.
struct TemplateEntry {
    enum Kind { case file, symlink(String) }
    /// Relative to the module's template folder.
    var path: String
    var url: URL
    var kind: Kind
    var executable: Bool
}

/// Walks template folders and renders their paths and contents for one module.
enum TemplateFiles {
    /// Files below `folder` (never following symbolic links), skipping `.git` and, at the template root, `template.yml`.
    static func entries(in folder: URL, isTemplateRoot: Bool) throws -> [TemplateEntry] {
        var result: [TemplateEntry] = []
        func walk(_ directory: URL, _ prefix: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                if name == ".git" || (prefix.isEmpty && isTemplateRoot && name == Template.fileName) { continue }
                let url = directory.appendingPathComponent(name)
                let relative = prefix.isEmpty ? name : prefix + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                switch attributes[.type] as? FileAttributeType {
                case .typeDirectory?:
                    try walk(url, relative)
                case .typeSymbolicLink?:
                    let target = try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
                    result.append(TemplateEntry(path: relative, url: url, kind: .symlink(target), executable: false))
                case .typeRegular?:
                    let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
                    result.append(TemplateEntry(path: relative, url: url, kind: .file, executable: mode & 0o111 != 0))
                default:
                    continue
                }
            }
        }
        try walk(folder, "")
        return result
    }

    /// Renders one entry into a module: the path must stay inside the module folder, and so must a symbolic link's target.
    static func render(_ entry: TemplateEntry, displayFolder: String, modulePath: String, template: Template,
                       placeholders: Placeholders, problems: inout [Diagnostic]) -> ScaffoldPlan.File? {
        let shown = displayFolder + "/" + entry.path
        let rendered = placeholders.render(entry.path, file: shown + " (path)", problems: &problems)
        guard case .success(let relative) = RelativePath.normalize(rendered), !relative.isEmpty,
              !relative.split(separator: "/").contains(".git") else {
            problems.append(.error("template path '\(entry.path)' renders to '\(rendered)', which is outside the new module's folder",
                                   at: SourceLocation(file: shown, line: 1, column: 1),
                                   hint: "template paths (and the variables in them) must stay inside the module"))
            return nil
        }
        let executable = entry.executable || template.executable.contains { Glob.matches($0, path: relative) || Glob.matches($0, path: entry.path) }
        let path = modulePath + "/" + relative
        switch entry.kind {
        case .symlink(let target):
            let renderedTarget = placeholders.render(target, file: shown + " (link)", problems: &problems)
            let base = RelativePath.parent(of: relative)
            let joined = base.isEmpty ? renderedTarget : base + "/" + renderedTarget
            guard !renderedTarget.hasPrefix("/"), case .success = RelativePath.normalize(joined) else {
                problems.append(.error("symbolic link '\(entry.path)' points to '\(target)', outside the new module's folder",
                                       at: SourceLocation(file: shown, line: 1, column: 1), hint: "a template's links must point inside the module"))
                return nil
            }
            return ScaffoldPlan.File(path: path, content: .symlink(renderedTarget), executable: false, isGuard: false)
        case .file:
            guard let data = FileManager.default.contents(atPath: entry.url.path) else {
                problems.append(.error("cannot read template file \(shown)"))
                return nil
            }
            // Binary files are copied as they are.
            guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
                return ScaffoldPlan.File(path: path, content: .data(data), executable: executable, isGuard: false)
            }
            let output = placeholders.render(text, file: shown, language: TemplateLanguage(path: relative), problems: &problems)
            return ScaffoldPlan.File(path: path, content: .data(Data(output.utf8)), executable: executable, isGuard: false)
        }
    }
}
