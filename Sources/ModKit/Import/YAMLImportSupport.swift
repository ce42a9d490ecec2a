import YAMLKit

/// Shared reading of YAML inputs (west.yml, .repos): parse with positions, report by mark.
extension ImportSource {
    /// The document's root node; a syntax error or an empty document is an input error at its position.
    func yamlRoot(expecting what: String) throws(ManifestError) -> YAMLNode {
        let root: YAMLNode?
        do {
            root = try YAML.parse(text)
        } catch {
            throw ManifestError(diagnostics: [diagnostic(.error, "invalid YAML: \(error.message)", line: error.mark.line, column: error.mark.column)])
        }
        guard let root else {
            throw ManifestError(diagnostics: [diagnostic(.error, "\(displayPath) is empty; expected \(what)", line: 1)])
        }
        return root
    }
}

extension ImportProblems {
    mutating func warn(_ message: String, in source: ImportSource, at mark: Mark, hint: String? = nil) {
        warn(message, in: source, line: mark.line, column: mark.column, hint: hint)
    }

    mutating func error(_ message: String, in source: ImportSource, at mark: Mark, hint: String? = nil) {
        error(message, in: source, line: mark.line, column: mark.column, hint: hint)
    }

    /// The node's string, or nil after an error naming `key` (null counts as missing when `optional`).
    mutating func string(_ node: YAMLNode?, for key: String, in source: ImportSource, optional: Bool = true) -> String? {
        guard let node else { return nil }
        if node.isNull, optional { return nil }
        guard let scalar = node.scalar, let value = scalar.string else {
            error("expected a string for '\(key)', found \(node.kindDescription)", in: source, at: node.start)
            return nil
        }
        return value
    }

    /// A list of strings (or one string).
    mutating func strings(_ node: YAMLNode?, for key: String, in source: ImportSource) -> [String] {
        guard let node, !node.isNull else { return [] }
        if let sequence = node.sequence {
            return sequence.items.compactMap { string($0, for: key, in: source, optional: false) }
        }
        return string(node, for: key, in: source).map { [$0] } ?? []
    }

    /// The entries of a mapping whose keys are strings, reporting others.
    mutating func entries(of mapping: YAMLMapping, in source: ImportSource) -> [(key: String, keyMark: Mark, value: YAMLNode)] {
        var result: [(key: String, keyMark: Mark, value: YAMLNode)] = []
        for (key, value) in mapping.entries {
            guard let name = key.string else {
                error("expected a key name, found \(key.kindDescription)", in: source, at: key.start)
                continue
            }
            if result.contains(where: { $0.key == name }) {
                error("duplicate key '\(name)'", in: source, at: key.start)
                continue
            }
            result.append((name, key.start, value))
        }
        return result
    }
}
