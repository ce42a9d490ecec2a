import Foundation

/// docs/json.md read as data: each command's field table, the shared objects and the outcome vocabulary, so a test
/// can check what a command prints against the document.
struct JSONContract {
    /// One documented key: its type (`string`, `error[]`, …) and whether it may be missing or null.
    struct Field: Equatable {
        var type: String
        var optional: Bool
    }

    /// Field tables by command name (`sync`) and by shared object name (`error`), keyed by dotted path.
    private(set) var commands: [String: [String: Field]] = [:]
    private(set) var objects: [String: [String: Field]] = [:]
    private(set) var outcomes: Set<String> = []

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/json.md")

    init(text: String) {
        var section: (name: String, isCommand: Bool)?
        var inOutcomes = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") {
                let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                inOutcomes = title == "Outcomes"
                section = nil
                let inner = title.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                if title.hasPrefix("`"), inner.hasPrefix("modkit ") {
                    section = (String(inner.dropFirst("modkit ".count)), true)
                } else if title.hasPrefix("`"), !inner.contains(" ") {
                    section = (inner, false)
                }
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { continue }
            let key = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            if inOutcomes { outcomes.insert(key); continue }
            guard let section else { continue }
            let type = cells[2]
            let field = Field(type: type.hasSuffix("?") ? String(type.dropLast()) : type, optional: type.hasSuffix("?"))
            if section.isCommand { commands[section.name, default: [:]][key] = field } else { objects[section.name, default: [:]][key] = field }
        }
    }

    /// Every way `value`, printed by `command`, departs from the document; empty when it keeps to it.
    func violations(of value: Any, command: String) -> [String] {
        guard let table = commands[command] else { return ["docs/json.md has no section for `modkit \(command)`"] }
        guard let object = value as? [String: Any] else { return ["\(command): the output is not one JSON object"] }
        var problems: [String] = []
        if object["schema"] as? Int != 1 { problems.append("\(command): schema is not 1") }
        if object["command"] as? String != command { problems.append("\(command): command is \(object["command"] ?? "missing")") }
        let envelope = objects["report"] ?? [:]
        let isErrorReport = object["errors"] != nil && table["errors"] == nil
        let merged = isErrorReport ? envelope : table.merging(envelope) { own, _ in own }
        check(object, table: merged, prefix: "", at: command, requireAll: !isErrorReport, into: &problems)
        return problems
    }

    private func check(_ object: [String: Any], table: [String: Field], prefix: String, at place: String, requireAll: Bool,
                       into problems: inout [String]) {
        for (key, value) in object {
            let path = prefix + key
            guard key.range(of: "^[a-z][a-zA-Z0-9]*$", options: .regularExpression) != nil else {
                problems.append("\(place): key '\(path)' is not lowerCamelCase")
                continue
            }
            guard let field = table[path] else {
                problems.append("\(place): key '\(path)' is not in docs/json.md")
                continue
            }
            if value is NSNull {
                if !field.optional { problems.append("\(place): '\(path)' is null but not optional") }
                continue
            }
            check(value, field: field, path: path, table: table, at: place, into: &problems)
        }
        guard requireAll else { return }
        for (path, field) in table where !field.optional && path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            if !rest.contains("."), !rest.contains("["), object[String(rest)] == nil {
                problems.append("\(place): documented key '\(path)' is missing")
            }
        }
    }

    private func check(_ value: Any, field: Field, path: String, table: [String: Field], at place: String, into problems: inout [String]) {
        func wrong(_ expected: String) { problems.append("\(place): '\(path)' should be \(expected): \(value)") }
        switch field.type {
        case "string":
            guard value is String else { return wrong("a string") }
            if path.hasSuffix("path") || path == "path", let text = value as? String, text.hasPrefix("/"), !path.hasPrefix("templates") {
                problems.append("\(place): '\(path)' is absolute, not relative to the workspace: \(text)")
            }
        case "integer": if !(value is Int) || Self.isBoolean(value) { wrong("an integer") }
        case "boolean": if !Self.isBoolean(value) { wrong("a boolean") }
        case "outcome":
            guard let text = value as? String, outcomes.contains(text) else { return wrong("an outcome of docs/json.md") }
        case "[string]": if !((value as? [Any])?.allSatisfy { $0 is String } ?? false) { wrong("a list of strings") }
        case "map": if !(value is [String: Any]) { wrong("an object") }
        case "counts":
            guard let counts = value as? [String: Any] else { return wrong("an object of counts") }
            for (key, count) in counts where !outcomes.contains(key) || !(count is Int) { problems.append("\(place): '\(path).\(key)' is not an outcome count") }
        case "object":
            guard let object = value as? [String: Any] else { return wrong("an object") }
            check(object, table: table, prefix: path + ".", at: place, requireAll: true, into: &problems)
        case "array":
            guard let array = value as? [Any] else { return wrong("a list") }
            for element in array {
                guard let object = element as? [String: Any] else { wrong("a list of objects"); continue }
                check(object, table: table, prefix: path + "[].", at: place, requireAll: true, into: &problems)
            }
        case let named where named.hasSuffix("[]"):
            guard let array = value as? [Any] else { return wrong("a list") }
            for element in array { check(element, object: String(named.dropLast(2)), path: path + "[]", at: place, into: &problems) }
        default:
            check(value, object: field.type, path: path, at: place, into: &problems)
        }
    }

    /// JSONSerialization gives numbers and booleans both as NSNumber; a boolean's type code is "c".
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private func check(_ value: Any, object name: String, path: String, at place: String, into problems: inout [String]) {
        guard let table = objects[name] else { return problems.append("\(place): '\(path)' has the undocumented type \(name)") }
        guard let object = value as? [String: Any] else { return problems.append("\(place): '\(path)' should be \(name)") }
        check(object, table: table, prefix: "", at: "\(place) \(path)", requireAll: true, into: &problems)
    }
}
