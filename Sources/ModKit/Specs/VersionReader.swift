import Foundation

/// Where a module's version was found.
public enum VersionSource: Sendable, Hashable {
    case manifest
    /// The podspec (or podspec.json) path relative to the workspace root.
    case podspec(String)
    case versionFile
    case none
}

/// A module's version as found; `raw` is the text as written, `version` nil when it is not semantic or not a literal.
public struct ModuleVersion: Sendable {
    public var version: SemanticVersion?
    public var raw: String?
    public var source: VersionSource
    public var location: SourceLocation?

    public init(version: SemanticVersion?, raw: String?, source: VersionSource, location: SourceLocation?) {
        self.version = version
        self.raw = raw
        self.source = source
        self.location = location
    }

    public static let none = ModuleVersion(version: nil, raw: nil, source: .none, location: nil)
}

/// Reads a module's version in SPEC order: manifest `version:`, the podspec's `s.version`, `*.podspec.json`, a `VERSION` file.
public enum VersionReader {
    public static func read(module: Module, in manifest: Manifest) -> ModuleVersion {
        if let raw = module.version {
            return ModuleVersion(version: SemanticVersion(raw), raw: raw, source: .manifest, location: module.versionLocation)
        }
        // Plain paths and reads: `modkit status` asks this for every module, and URL building showed in its profile.
        let directory = manifest.directory(of: module).path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return .none }
        let prefix = module.path.isEmpty ? "" : module.path + "/"
        func contents(of name: String) -> Data? { FileManager.default.contents(atPath: directory + "/" + name) }
        func text(of name: String) -> String? { contents(of: name).flatMap { String(validating: $0, as: UTF8.self) } }
        // A podspec whose version is not a literal (e.g. read from VERSION) lets the later sources answer; it is returned only when none does.
        var unresolved: ModuleVersion?

        if let name = pick(names, suffix: ".podspec", preferred: module.name),
           let text = text(of: name),
           let found = PodspecVersion.find(in: text) {
            let result = ModuleVersion(version: found.literal.flatMap(SemanticVersion.init), raw: found.literal ?? found.expression,
                                       source: .podspec(prefix + name),
                                       location: SourceLocation(file: prefix + name, line: found.line, column: found.column))
            if found.literal != nil { return result }
            unresolved = result
        }
        if let name = pick(names, suffix: ".podspec.json", preferred: module.name),
           let data = contents(of: name),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let raw = object["version"] as? String {
            let text = String(decoding: data, as: UTF8.self)
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"version\"") }.map { $0 + 1 } ?? 1
            return ModuleVersion(version: SemanticVersion(raw), raw: raw, source: .podspec(prefix + name),
                                 location: SourceLocation(file: prefix + name, line: line, column: 1))
        }
        if names.contains("VERSION"), let text = text(of: "VERSION") {
            let raw = String(text.trimmingWhitespace)
            if !raw.isEmpty {
                return ModuleVersion(version: SemanticVersion(raw), raw: raw, source: .versionFile,
                                     location: SourceLocation(file: prefix + "VERSION", line: 1, column: 1))
            }
        }
        return unresolved ?? .none
    }

    /// `<preferred><suffix>` if present, else the only file with that suffix.
    static func pick(_ names: [String], suffix: String, preferred: String) -> String? {
        if names.contains(preferred + suffix) { return preferred + suffix }
        // "X.podspec" must not match "X.podspec.json" and vice versa.
        let matches = names.filter { $0.hasSuffix(suffix) && $0.count > suffix.count }
        return matches.count == 1 ? matches[0] : nil
    }
}

extension VersionReader {
    /// Finds `X.version = '1.0.1'` in a podspec, where X is the block variable of `Pod::Spec.new do |X|`.
    enum PodspecVersion {
        struct Found: Equatable {
            /// The version string when the value is a plain string literal.
            var literal: String?
            /// The right-hand side as written, when it is not a literal.
            var expression: String?
            /// 1-based position of the value.
            var line: Int
            var column: Int
        }

        static func find(in text: String) -> Found? {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
            var variable: Substring?
            for (index, line) in lines.enumerated() {
                let code = stripComment(line)
                if variable == nil {
                    variable = blockVariable(code)
                    continue
                }
                guard let variable, let found = assignment(in: code, variable: variable) else { continue }
                let column = line.distance(from: line.startIndex, to: found.start) + 1
                return Found(literal: found.literal, expression: found.literal == nil ? String(found.rest) : nil, line: index + 1, column: column)
            }
            return nil
        }

        /// `s` in `Pod::Spec.new do |s|` or `Pod::Spec.new { |s|`.
        static func blockVariable(_ line: Substring) -> Substring? {
            guard let range = line.range(of: "Pod::Spec.new") else { return nil }
            let rest = line[range.upperBound...]
            guard let open = rest.firstIndex(of: "|") else { return nil }
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "|") else { return nil }
            let name = after[..<close].trimmingSpaces
            return name.isEmpty ? nil : name
        }

        /// The value of `variable.version = …` on this line: a quoted or %q literal, or any other expression.
        static func assignment(in line: Substring, variable: Substring) -> (literal: String?, rest: Substring, start: Substring.Index)? {
            var rest = line.trimmingLeadingSpaces
            guard rest.hasPrefix(variable + ".") else { return nil }
            rest = rest.dropFirst(variable.count + 1)
            guard rest.hasPrefix("version") else { return nil }
            rest = rest.dropFirst("version".count)
            // `s.version_x =` or `s.versions` are other keys.
            if let next = rest.first, next.isLetter || next.isNumber || next == "_" { return nil }
            rest = rest.trimmingLeadingSpaces
            guard rest.first == "=", rest.dropFirst().first != "=" else { return nil }
            rest = rest.dropFirst().trimmingLeadingSpaces
            let value = rest.trimmingSpaces
            return (literal(value), value, rest.startIndex)
        }

        /// `'1.0'`, `"1.0"`, `%q{1.0}`, `%Q(1.0)`, `%(1.0)`; nil for anything else (interpolation included).
        static func literal(_ value: Substring) -> String? {
            guard let first = value.first else { return nil }
            if first == "'" || first == "\"" {
                guard value.count >= 2, value.last == first else { return nil }
                let inner = value.dropFirst().dropLast()
                if inner.contains(first) || inner.contains("\\") || (first == "\"" && inner.contains("#{")) { return nil }
                return String(inner)
            }
            if first == "%" {
                var body = value.dropFirst()
                if body.first == "q" || body.first == "Q" { body = body.dropFirst() }
                let pairs: [Character: Character] = ["{": "}", "(": ")", "[": "]", "<": ">"]
                guard let open = body.first, let close = pairs[open], body.last == close, body.count >= 2 else { return nil }
                let inner = body.dropFirst().dropLast()
                if inner.contains("#{") || inner.contains(open) || inner.contains(close) { return nil }
                return String(inner)
            }
            return nil
        }

        /// The line without a trailing `# comment` outside quotes.
        static func stripComment(_ line: Substring) -> Substring {
            var quote: Character?
            for index in line.indices {
                let c = line[index]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == "'" || c == "\"" {
                    quote = c
                } else if c == "#" {
                    // `#{` starts an interpolation inside double quotes only, handled above; here it is a comment.
                    return line[..<index]
                }
            }
            return line
        }
    }
}

extension String {
    /// Without leading and trailing white space and line breaks (Foundation's `trimmingCharacters` bridges to NSString).
    fileprivate var trimmingWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return self[first...last]
    }
}

extension Substring {
    fileprivate var trimmingLeadingSpaces: Substring { drop { $0 == " " || $0 == "\t" } }
    fileprivate var trimmingSpaces: Substring {
        var s = trimmingLeadingSpaces
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
