/// One problem a schema check found, at a place in the YAML text.
public struct YAMLProblem: Sendable {
    /// An error makes the file unusable; a warning says what is left out of another tool's file.
    public enum Severity: Sendable, Hashable {
        case error, warning
    }

    public var severity: Severity
    public var message: String
    public var mark: Mark
    public var hint: String?
    /// A related place, e.g. where a duplicated key is first given.
    public var note: YAMLNote?

    public init(_ severity: Severity = .error, message: String, mark: Mark, hint: String? = nil, note: YAMLNote? = nil) {
        self.severity = severity
        self.message = message
        self.mark = mark
        self.hint = hint
        self.note = note
    }
}

/// What `fields` does with a key the schema does not allow.
public enum YAMLUnknownKeys: Sendable {
    /// An error with a did-you-mean suggestion and the allowed keys: the file is modkit's own.
    case error
    /// A warning `message(key)` with a did-you-mean suggestion: another tool's file, whose other keys modkit does not carry over.
    case warning(@Sendable (String) -> String)
}

/// A related place printed under a problem.
public struct YAMLNote: Sendable {
    public var message: String
    public var mark: Mark

    public init(message: String, mark: Mark) {
        self.message = message
        self.mark = mark
    }
}

/// The entries of a mapping whose keys a schema allows: the first entry of each key, by name.
public struct YAMLFields: Sendable {
    public let mapping: YAMLMapping
    fileprivate var entries: [String: (key: YAMLScalar, value: YAMLNode)] = [:]

    /// The value of `key`, when given.
    public subscript(key: String) -> YAMLNode? { entries[key]?.value }
    public var start: Mark { mapping.start }
}

/// Reads YAML nodes against a schema and collects every problem with its position: unknown keys (with a suggestion),
/// duplicate keys, wrong types, missing keys. Decoders of modkit's files share it instead of repeating those checks.
public struct YAMLSchemaReader: Sendable {
    public private(set) var problems: [YAMLProblem] = []

    public init() {}

    /// True when any problem is an error.
    public var hasErrors: Bool { problems.contains { $0.severity == .error } }

    public mutating func report(_ message: String, at mark: Mark, hint: String? = nil, note: YAMLNote? = nil) {
        problems.append(YAMLProblem(message: message, mark: mark, hint: hint, note: note))
    }

    /// The explicit tags modkit's files may carry: the core schema's types it reads, and `!` (a plain string).
    public static let supportedTags = Set(["!"] + ["str", "int", "bool", "null", "seq", "map"].map { "tag:yaml.org,2002:" + $0 })

    /// Reports each node (keys included, an aliased one once) whose explicit tag is not supported: a `!!binary` or `!custom` value
    /// would otherwise be read as its plain text.
    public mutating func refuseUnsupportedTags(in root: YAMLNode) {
        var pending = [root]
        var seen = Set<Int>()
        while let node = pending.popLast() {
            let tag: String?
            switch node {
            case .scalar(let scalar): tag = scalar.tag
            case .mapping(let mapping):
                tag = mapping.tag
                for entry in mapping.entries.reversed() { pending += [entry.value, entry.key] }
            case .sequence(let sequence):
                tag = sequence.tag
                pending += sequence.items.reversed()
            }
            guard let tag, !Self.supportedTags.contains(tag), seen.insert(node.start.offset).inserted else { continue }
            let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
            report("unsupported YAML tag '\(shown)'", at: node.start, hint: "remove the tag: modkit reads strings, numbers, booleans, sequences and mappings as written")
        }
    }

    public mutating func warn(_ message: String, at mark: Mark, hint: String? = nil) {
        problems.append(YAMLProblem(.warning, message: message, mark: mark, hint: hint))
    }

    /// The allowed entries of a mapping; nil (reported) when `node` is not a mapping. `place` names it: "the snapshot", "module 'Core'".
    public mutating func fields(_ node: YAMLNode, allowed: [String], in place: String, unknown: YAMLUnknownKeys = .error) -> YAMLFields? {
        guard let mapping = node.mapping else {
            report("expected a mapping for \(place), found \(node.kindDescription)", at: node.start, hint: "allowed keys: \(allowed.joined(separator: ", "))")
            return nil
        }
        var fields = YAMLFields(mapping: mapping)
        for (keyNode, value) in mapping.entries {
            guard let key = keyNode.scalar, let name = key.string else {
                report("expected a key name in \(place), found \(keyNode.kindDescription)", at: keyNode.start)
                continue
            }
            if let first = fields.entries[name] {
                report("duplicate key '\(name)' in \(place); remove one of them", at: key.start,
                       note: YAMLNote(message: "'\(name)' is first given here", mark: first.key.start))
            } else if allowed.contains(name) {
                fields.entries[name] = (key, value)
            } else if case .warning(let message) = unknown {
                warn(message(name) + DidYouMean.suffix(for: name, among: allowed), at: key.start)
            } else {
                report("unknown key '\(name)' in \(place)\(DidYouMean.suffix(for: name, among: allowed))", at: key.start,
                       hint: "allowed here: \(allowed.joined(separator: ", "))")
            }
        }
        return fields
    }

    /// The value of a key the schema requires; reported at the mapping when missing.
    public mutating func required(_ fields: YAMLFields, _ key: String, in place: String) -> YAMLNode? {
        guard let node = fields[key] else {
            report("missing key '\(key)' in \(place)", at: fields.start)
            return nil
        }
        return node
    }

    /// A non-empty string; nil (reported) for anything else. With `nullAllowed`, a null value is nil without a report.
    public mutating func string(_ node: YAMLNode, for key: String, nullAllowed: Bool = false, emptyAllowed: Bool = false) -> String? {
        if nullAllowed, node.isNull { return nil }
        guard let value = node.string else {
            report("expected a string for '\(key)', found \(node.kindDescription)", at: node.start,
                   hint: node.isNull ? "give '\(key)' a value or remove the key" : nil)
            return nil
        }
        if !emptyAllowed, value.isEmpty {
            report("'\(key)' is empty; give it a value or remove the key", at: node.start)
            return nil
        }
        return value
    }

    /// A required non-empty string.
    public mutating func requiredString(_ fields: YAMLFields, _ key: String, in place: String) -> String? {
        required(fields, key, in: place).flatMap { string($0, for: key) }
    }

    /// A sequence of strings, or one string standing for a list of one; null is an empty list when `nullAllowed`.
    public mutating func strings(_ node: YAMLNode, for key: String, nullAllowed: Bool = false) -> [(value: String, mark: Mark)] {
        if nullAllowed, node.isNull { return [] }
        if let sequence = node.sequence {
            return sequence.items.compactMap { item in string(item, for: key).map { ($0, item.start) } }
        }
        if node.mapping != nil || node.isNull {
            report("expected a list of strings for '\(key)', found \(node.kindDescription)", at: node.start)
            return []
        }
        return string(node, for: key).map { [($0, node.start)] } ?? []
    }

    /// A non-empty sequence; nil (reported) otherwise.
    public mutating func sequence(_ node: YAMLNode, for key: String, example: String) -> YAMLSequence? {
        guard let sequence = node.sequence, !sequence.items.isEmpty else {
            report("expected a non-empty list for '\(key)' (\(example)), found \(node.kindDescription)", at: node.start)
            return nil
        }
        return sequence
    }

    /// The entries of a mapping keyed by names (`modules:` of a snapshot, `variables:` of a template); repeated and non-string keys are
    /// reported, null is no entries. `item` names one entry in messages: "module", "variable".
    public mutating func namedEntries(_ node: YAMLNode, for key: String, item: String) -> [(name: String, key: YAMLScalar, value: YAMLNode)] {
        if node.isNull { return [] }
        guard let mapping = node.mapping else {
            report("expected a mapping of \(item)s for '\(key)', found \(node.kindDescription)", at: node.start)
            return []
        }
        var result: [(name: String, key: YAMLScalar, value: YAMLNode)] = []
        var seen: [String: Mark] = [:]
        for (keyNode, value) in mapping.entries {
            guard let scalar = keyNode.scalar, let name = scalar.string, !name.isEmpty else {
                report("expected a \(item) name, found \(keyNode.kindDescription)", at: keyNode.start)
                continue
            }
            if let first = seen[name] {
                report("\(item) '\(name)' is listed twice", at: scalar.start, note: YAMLNote(message: "'\(name)' is first given here", mark: first))
                continue
            }
            seen[name] = scalar.start
            result.append((name, scalar, value))
        }
        return result
    }
}
