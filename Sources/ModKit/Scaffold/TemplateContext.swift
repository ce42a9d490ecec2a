import Foundation
import GitKit

/// The built-in placeholders of a template and the template's own variables, resolved for one `modkit new`.
struct TemplateContext {
    /// Names a template cannot use for its own variables.
    static let reservedNames = ["name", "Name", "name_snake", "name_kebab", "name_identifier", "version", "author", "year", "workspace", "module", "generated_dir", "git_url"]
    /// Built-ins that `--var` may set.
    static let settable = ["version", "author"]
    static let defaultVersion = "0.1.0"

    /// Values for all placeholders but the per-module ones (`module`, `generated_dir`).
    var values: [String: String]
    var version: SemanticVersion

    /// Resolves every value; each problem (a missing variable, a value not matching its pattern, an unknown `--var`) is added to `problems`.
    /// `gitURL` is the new repository's origin when known; `{{git_url}}` falls back to `<homepage>.git`.
    init(request: ScaffoldRequest, template: Template, manifest: Manifest, gitURL: String?, problems: inout [Diagnostic]) {
        let name = request.name
        var values = [
            "name": name, "Name": NameForms.upperCamel(name), "name_snake": NameForms.snake(name), "name_kebab": NameForms.kebab(name),
            "name_identifier": Identifier.derived(from: name),
            "year": String(Calendar(identifier: .gregorian).component(.year, from: request.date)),
            "workspace": manifest.workspace,
        ]
        values["author"] = request.variables["author"] ?? TemplateContext.author(near: manifest.root)
        let versionText = request.variables["version"] ?? TemplateContext.defaultVersion
        if let version = SemanticVersion(versionText) {
            self.version = version
        } else {
            problems.append(.error("version '\(versionText)' is not a semantic version", hint: "pass --var version=MAJOR.MINOR.PATCH, e.g. 1.0.0"))
            self.version = SemanticVersion(TemplateContext.defaultVersion)!
        }
        values["version"] = versionText

        let builtins = Placeholders(values: values)
        for variable in template.variables {
            let described = variable.description.map { " (\($0))" } ?? ""
            var value = request.variables[variable.name]
            if value == nil, let defaultValue = variable.defaultValue {
                value = builtins.render(defaultValue, file: variable.location.file, firstLine: variable.location.line, problems: &problems)
            }
            guard let value else {
                problems.append(.error("variable '\(variable.name)'\(described) has no value and no default", at: variable.location,
                                       hint: "pass --var \(variable.name)=VALUE"))
                continue
            }
            if let pattern = variable.pattern, let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$"),
               regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) == nil {
                problems.append(.error("value '\(value)' of variable '\(variable.name)' does not match its pattern '\(pattern)'", at: variable.location,
                                       hint: variable.description.map { "\(variable.name): \($0)" }))
            }
            values[variable.name] = value
        }
        let known = template.variables.map(\.name) + TemplateContext.settable
        for key in request.variables.keys.sorted() where !known.contains(key) {
            let message = TemplateContext.reservedNames.contains(key)
                ? "'\(key)' is a built-in placeholder and cannot be set with --var"
                : "template '\(template.name)' has no variable '\(key)'\(DidYouMean.suffix(for: key, among: known))"
            problems.append(.error(message, hint: template.variables.isEmpty ? "this template has no variables"
                                   : "its variables: \(template.variables.map(\.name).joined(separator: ", "))"))
        }
        values["git_url"] = gitURL ?? values["homepage"].map { $0 + ".git" } ?? ""
        self.values = values
    }

    /// The user's name for `{{author}}`: `GIT_AUTHOR_NAME`, else git's `user.name` as seen from `directory`, else "Unknown".
    static func author(near directory: URL) -> String {
        if let name = ProcessInfo.processInfo.environment["GIT_AUTHOR_NAME"], !name.isEmpty { return name }
        if let repository = try? Repository.discover(from: directory.path),
           let name = try? repository.configString("user.name"), !name.isEmpty {
            return name
        }
        // Outside a repository, the global configuration is read through a throwaway one.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-config-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        if let repository = try? Repository.create(at: scratch.path), let name = try? repository.configString("user.name"), !name.isEmpty {
            return name
        }
        return "Unknown"
    }
}
