import SpecKit
import YAMLKit

/// The language of a rendered template file, so a value lands in it escaped for where it stands: inside a Ruby, Swift, JSON
/// or YAML string literal, or as a whole YAML value. `--var summary="Tencent's COS SDK"` must not end a podspec's string.
enum TemplateLanguage: Equatable {
    case ruby, swift, json, yaml, plain

    init(path: String) {
        let name = RelativePath.lastComponent(of: path)
        // Spec files are named by SpecKit's registry, the one place that knows them.
        switch SpecFileKind(fileName: name) {
        case .podspec?, .podfile?: self = .ruby; return
        case .podspecJSON?: self = .json; return
        case .packageSwift?: self = .swift; return
        case .cartfile?: self = .plain; return
        case nil: break
        }
        if name.hasSuffix(".json") { self = .json }
        else if name.hasSuffix(".rb") || ["Gemfile", "Fastfile", "Rakefile", "Dangerfile"].contains(name) { self = .ruby }
        else if name.hasSuffix(".swift") { self = .swift }
        else if name.hasSuffix(".yml") || name.hasSuffix(".yaml") { self = .yaml }
        else { self = .plain }
    }

    /// `value` as it must be written between `before` and `after` on a template line.
    func escape(_ value: String, before: Substring, after: Substring) -> String {
        switch (self, openQuote(before: before)) {
        case (.plain, _): return value
        case (.ruby, "'"): return StringEscaping.rubySingleQuoted(value)
        case (.ruby, "\""): return StringEscaping.rubyDoubleQuoted(value)
        case (.swift, "\""): return StringEscaping.swift(value)
        case (.json, "\""): return StringEscaping.json(value)
        case (.yaml, "'"): return StringEscaping.yamlSingleQuoted(value)
        case (.yaml, "\""): return StringEscaping.yamlDoubleQuoted(value)
        case (.yaml, nil):
            // A placeholder that is a whole value (`key: {{x}}`, `- {{x}}`) becomes a scalar that reads back as the value.
            let key = before.trimmingSuffixSpaces
            let rest = after.drop { $0 == " " }
            let wholeValue = (key.hasSuffix(":") || key.hasSuffix("-") || key.isEmpty) && (rest.isEmpty || rest.hasPrefix("#"))
            return wholeValue ? YAML.scalar(value) : value
        default: return value
        }
    }

    /// The quote character of the string literal the line leaves open before a placeholder, or nil outside one (or in a comment).
    func openQuote(before prefix: Substring) -> Character? {
        var quote: Character?
        var escaped = false
        var previous: Character = " "
        for c in prefix {
            defer { previous = c }
            if let open = quote {
                if escaped { escaped = false; continue }
                if c == "\\", !(self == .yaml && open == "'") { escaped = true; continue }
                if c == open { quote = nil }
                continue
            }
            switch c {
            case "#" where self == .ruby || (self == .yaml && previous == " "): return nil
            case "/" where self == .swift && previous == "/": return nil
            case "\"": quote = c
            case "'" where self == .ruby || self == .yaml: quote = c
            default: break
            }
        }
        return quote
    }
}

extension Substring {
    fileprivate var trimmingSuffixSpaces: Substring {
        var text = self
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
