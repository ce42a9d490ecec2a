import Foundation
import YAMLKit

/// A module template: a folder with `template.yml` and the files to render.
public struct Template: Sendable {
    /// Where a template came from, for `--list-templates` and messages.
    public enum Origin: String, Sendable, Encodable {
        case builtin = "built-in", workspace, path, git
    }

    /// A variable of the template, given with `--var KEY=VALUE` or taken from its default.
    public struct Variable: Sendable {
        public var name: String
        public var description: String?
        /// May hold the built-in placeholders, e.g. `"{{Name}} for iOS"`.
        public var defaultValue: String?
        /// A regular expression the whole value must match.
        public var pattern: String?
        public var location: SourceLocation
    }

    /// One module a template creates: its name (with placeholders) and the template folder holding its files.
    public struct ModuleSpec: Sendable {
        public var name: String
        /// Relative to the template folder; "" means the whole folder.
        public var folder: String
        public var location: SourceLocation?
        /// `implements:`: the (rendered) name of the template's interface module this one implements.
        public var implements: String? = nil
    }

    public static let fileName = "template.yml"

    public var name: String
    public var directory: URL
    /// How diagnostics name the template folder, e.g. `Templates/swift-package`.
    public var displayPath: String
    public var origin: Origin
    public var description: String
    public var variables: [Variable]
    /// Path patterns of template files not to copy.
    public var skip: [String]
    /// Path patterns (of rendered paths) of files to make executable.
    public var executable: [String]
    /// At least one; a template without `modules:` creates one module from its whole folder.
    public var modules: [ModuleSpec]

    /// Reads `template.yml` in `directory`; every problem is reported at once with its line and column.
    public static func load(from directory: URL, name: String, displayPath: String, origin: Origin) throws(TemplateError) -> Template {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw TemplateError([.error("\(displayPath) is not a template: it has no \(fileName)",
                                        hint: "a template is a folder with template.yml and the files to render")])
        }
        return try decode([UInt8](data), directory: directory, name: name, displayPath: displayPath, origin: origin)
    }

    /// Decodes the bytes of `template.yml` (a template may come from any git url, so they are untrusted input).
    static func decode(_ bytes: [UInt8], directory: URL, name: String, displayPath: String, origin: Origin) throws(TemplateError) -> Template {
        let shown = displayPath + "/" + fileName
        let text: String
        switch YAMLFileDiagnostics.text(of: bytes, displayPath: shown) {
        case .success(let decoded): text = decoded
        case .failure(let diagnostic): throw TemplateError([diagnostic])
        }
        let diagnostics = YAMLFileDiagnostics(displayPath: shown, text: text)
        let root: YAMLNode?
        do { root = try YAML.parse(text) } catch { throw TemplateError([diagnostics.syntaxError(error)]) }
        var template = Template(name: name, directory: directory, displayPath: displayPath, origin: origin, description: "",
                                variables: [], skip: [], executable: [], modules: [])
        var reader = TemplateFileReader(file: diagnostics)
        reader.decode(root, into: &template)
        if !reader.schema.problems.isEmpty { throw TemplateError(diagnostics.diagnostics(reader.schema)) }
        if template.modules.isEmpty { template.modules = [ModuleSpec(name: "{{name}}", folder: "", location: nil)] }
        return template
    }
}

/// Problems with a template or with what it would create; all of them, each with its file:line where there is one.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Decodes `template.yml` with the shared schema reader; a template may come from any git url, so its folders must stay inside it.
struct TemplateFileReader {
    static let keys = ["description", "variables", "skip", "executable", "modules"]
    static let variableKeys = ["description", "default", "pattern"]
    static let moduleKeys = ["name", "folder", "implements"]

    let file: YAMLFileDiagnostics
    var schema = YAMLSchemaReader()

    mutating func decode(_ root: YAMLNode?, into template: inout Template) {
        guard let root, let fields = schema.fields(root, allowed: Self.keys, in: "template.yml") else { return }
        template.description = fields["description"].flatMap { schema.string($0, for: "description", nullAllowed: true, emptyAllowed: true) } ?? ""
        if let node = fields["variables"] { template.variables = variables(node) }
        if let node = fields["skip"] { template.skip = schema.strings(node, for: "skip", nullAllowed: true).map(\.value) }
        if let node = fields["executable"] { template.executable = schema.strings(node, for: "executable", nullAllowed: true).map(\.value) }
        if let node = fields["modules"] { template.modules = modules(node) }
    }

    mutating func variables(_ node: YAMLNode) -> [Template.Variable] {
        var result: [Template.Variable] = []
        for (name, key, value) in schema.namedEntries(node, for: "variables", item: "variable") {
            guard Identifier.isValid(name) else {
                schema.report("variable name '\(name)' is not an identifier", at: key.start, hint: "use letters, digits and '_', not starting with a digit")
                continue
            }
            if TemplateContext.reservedNames.contains(name) {
                schema.report("variable '\(name)' is a built-in placeholder; choose another name", at: key.start)
                continue
            }
            var variable = Template.Variable(name: name, location: file.location(key.start))
            if value.mapping != nil {
                guard let fields = schema.fields(value, allowed: Self.variableKeys, in: "variable '\(name)'") else { continue }
                variable.description = fields["description"].flatMap { schema.string($0, for: "description", nullAllowed: true, emptyAllowed: true) }
                variable.defaultValue = fields["default"].flatMap { schema.string($0, for: "default", nullAllowed: true, emptyAllowed: true) }
                if let patternNode = fields["pattern"], let pattern = schema.string(patternNode, for: "pattern", nullAllowed: true) {
                    if (try? NSRegularExpression(pattern: pattern)) == nil {
                        schema.report("'\(pattern)' is not a valid regular expression", at: patternNode.start)
                    } else {
                        variable.pattern = pattern
                    }
                }
            } else {
                variable.defaultValue = schema.string(value, for: name, nullAllowed: true, emptyAllowed: true)
            }
            result.append(variable)
        }
        return result
    }

    mutating func modules(_ node: YAMLNode) -> [Template.ModuleSpec] {
        guard let sequence = schema.sequence(node, for: "modules", example: "'- name: …' with 'folder: …'") else { return [] }
        var result: [Template.ModuleSpec] = []
        for item in sequence.items {
            guard let fields = schema.fields(item, allowed: Self.moduleKeys, in: "a template module") else { continue }
            guard let name = schema.requiredString(fields, "name", in: "a template module"),
                  let folderNode = schema.required(fields, "folder", in: "a template module"),
                  let folder = schema.string(folderNode, for: "folder") else { continue }
            guard case .success(let normal) = RelativePath.normalize(folder), !normal.split(separator: "/").contains(".git") else {
                schema.report("module folder '\(folder)' must be a path inside the template", at: folderNode.start)
                continue
            }
            var spec = Template.ModuleSpec(name: name, folder: normal, location: file.location(item.start))
            if let node = fields["implements"] { spec.implements = schema.string(node, for: "implements") }
            result.append(spec)
        }
        return result
    }
}
