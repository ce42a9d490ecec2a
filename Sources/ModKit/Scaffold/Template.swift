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
        let shown = displayPath + "/" + fileName
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw TemplateError([.error("\(displayPath) is not a template: it has no \(fileName)",
                                        hint: "a template is a folder with template.yml and the files to render")])
        }
        let text = String(decoding: data, as: UTF8.self)
        var reader = TemplateFileReader(text: text, displayPath: shown)
        let root: YAMLNode?
        do { root = try YAML.parse(text) } catch {
            reader.error("invalid YAML: \(error.message)", at: error.mark)
            throw TemplateError(reader.problems)
        }
        var template = Template(name: name, directory: directory, displayPath: displayPath, origin: origin, description: "",
                                variables: [], skip: [], executable: [], modules: [])
        reader.decode(root, into: &template)
        if !reader.problems.isEmpty { throw TemplateError(reader.problems) }
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

/// Decodes `template.yml`, collecting problems with positions.
struct TemplateFileReader {
    static let keys = ["description", "variables", "skip", "executable", "modules"]
    static let variableKeys = ["description", "default", "pattern"]

    let source: SourceText
    let displayPath: String
    var problems: [Diagnostic] = []

    init(text: String, displayPath: String) {
        source = SourceText(text)
        self.displayPath = displayPath
    }

    func location(_ mark: Mark) -> SourceLocation { SourceLocation(file: displayPath, line: mark.line, column: mark.column) }

    mutating func error(_ message: String, at mark: Mark, hint: String? = nil) {
        problems.append(.error(message, at: location(mark), sourceLine: source.line(mark.line), hint: hint))
    }

    mutating func decode(_ root: YAMLNode?, into template: inout Template) {
        guard let root else { return }
        guard let top = root.mapping else {
            error("expected a mapping (description, variables, skip, executable, modules), found \(root.kindDescription)", at: root.start)
            return
        }
        for (key, value) in top.entries {
            guard let name = key.string else { error("expected a key name", at: key.start); continue }
            switch name {
            case "description": template.description = string(value, for: name) ?? ""
            case "variables": template.variables = variables(value)
            case "skip": template.skip = strings(value, for: name)
            case "executable": template.executable = strings(value, for: name)
            case "modules": template.modules = modules(value)
            default:
                error("unknown key '\(name)'\(DidYouMean.suffix(for: name, among: Self.keys))", at: key.start,
                      hint: "allowed: \(Self.keys.joined(separator: ", "))")
            }
        }
    }

    mutating func string(_ node: YAMLNode, for key: String) -> String? {
        if node.isNull { return nil }
        guard let value = node.string else {
            error("expected a string for '\(key)', found \(node.kindDescription)", at: node.start)
            return nil
        }
        return value
    }

    mutating func strings(_ node: YAMLNode, for key: String) -> [String] {
        if node.isNull { return [] }
        guard let sequence = node.sequence else { return string(node, for: key).map { [$0] } ?? [] }
        return sequence.items.compactMap { string($0, for: key) }
    }

    mutating func variables(_ node: YAMLNode) -> [Template.Variable] {
        if node.isNull { return [] }
        guard let mapping = node.mapping else {
            error("expected a mapping of variables, found \(node.kindDescription)", at: node.start,
                  hint: "write each as 'NAME: {description: …, default: …, pattern: …}'")
            return []
        }
        var result: [Template.Variable] = []
        for (key, value) in mapping.entries {
            guard let name = key.string, Identifier.isValid(name) else {
                error("variable name '\(key.string ?? "")' is not an identifier", at: key.start)
                continue
            }
            if TemplateContext.reservedNames.contains(name) {
                error("variable '\(name)' is a built-in placeholder; choose another name", at: key.start)
                continue
            }
            if result.contains(where: { $0.name == name }) {
                error("duplicate variable '\(name)'", at: key.start)
                continue
            }
            var variable = Template.Variable(name: name, location: location(key.start))
            if let fields = value.mapping {
                for (fieldKey, fieldValue) in fields.entries {
                    switch fieldKey.string ?? "" {
                    case "description": variable.description = string(fieldValue, for: "description")
                    case "default": variable.defaultValue = string(fieldValue, for: "default")
                    case "pattern":
                        variable.pattern = string(fieldValue, for: "pattern")
                        if let pattern = variable.pattern, (try? NSRegularExpression(pattern: pattern)) == nil {
                            error("'\(pattern)' is not a valid regular expression", at: fieldValue.start)
                        }
                    default:
                        let word = fieldKey.string ?? ""
                        error("unknown key '\(word)' in variable '\(name)'\(DidYouMean.suffix(for: word, among: Self.variableKeys))",
                              at: fieldKey.start, hint: "allowed: \(Self.variableKeys.joined(separator: ", "))")
                    }
                }
            } else if !value.isNull {
                variable.defaultValue = string(value, for: name)
            }
            result.append(variable)
        }
        return result
    }

    mutating func modules(_ node: YAMLNode) -> [Template.ModuleSpec] {
        guard let sequence = node.sequence, !sequence.items.isEmpty else {
            error("expected a non-empty list of modules ('- name: …' with 'folder: …'), found \(node.kindDescription)", at: node.start)
            return []
        }
        var result: [Template.ModuleSpec] = []
        for item in sequence.items {
            guard let mapping = item.mapping else {
                error("expected a module ('name' and 'folder'), found \(item.kindDescription)", at: item.start)
                continue
            }
            var name: String?, folder: String?
            for (key, value) in mapping.entries {
                switch key.string ?? "" {
                case "name": name = string(value, for: "name")
                case "folder":
                    folder = string(value, for: "folder")
                    if let text = folder, case .failure = RelativePath.normalize(text) {
                        error("module folder '\(text)' must be a path inside the template", at: value.start)
                        folder = nil
                    }
                default:
                    error("unknown key '\(key.string ?? "")' in a template module", at: key.start, hint: "allowed: name, folder")
                }
            }
            guard let name, let folder else {
                if problems.isEmpty { error("a template module needs 'name' and 'folder'", at: item.start) }
                continue
            }
            result.append(Template.ModuleSpec(name: name, folder: (try? RelativePath.normalize(folder).get()) ?? folder, location: location(item.start)))
        }
        return result
    }
}
