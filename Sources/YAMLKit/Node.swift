/// How a scalar was written; quoted scalars are always strings.
public enum ScalarStyle: Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded
}

/// How a mapping or sequence was written: indented blocks or `{}` / `[]`.
public enum CollectionStyle: Sendable, Hashable {
    case block, flow
}

/// A scalar exactly as written (never converted), with its explicit tag if any.
public struct YAMLScalar: Sendable {
    public var value: String
    public var style: ScalarStyle
    public var tag: String?
    public var start: Mark
    public var end: Mark

    public init(value: String, style: ScalarStyle = .plain, tag: String? = nil, start: Mark, end: Mark) {
        self.value = value
        self.style = style
        self.tag = tag
        self.start = start
        self.end = end
    }
}

/// A mapping with every entry in source order, duplicate keys included, so a validator can report them.
public struct YAMLMapping: Sendable {
    public var entries: [(key: YAMLNode, value: YAMLNode)]
    public var style: CollectionStyle
    public var tag: String?
    public var start: Mark
    public var end: Mark

    public init(entries: [(key: YAMLNode, value: YAMLNode)], style: CollectionStyle = .block, tag: String? = nil, start: Mark, end: Mark) {
        self.entries = entries
        self.style = style
        self.tag = tag
        self.start = start
        self.end = end
    }

    /// The value of the first entry whose key is the scalar `key`.
    public subscript(key: String) -> YAMLNode? {
        entries.first { $0.key.scalar?.value == key }?.value
    }
}

/// A sequence with its items in order.
public struct YAMLSequence: Sendable {
    public var items: [YAMLNode]
    public var style: CollectionStyle
    public var tag: String?
    public var start: Mark
    public var end: Mark

    public init(items: [YAMLNode], style: CollectionStyle = .block, tag: String? = nil, start: Mark, end: Mark) {
        self.items = items
        self.style = style
        self.tag = tag
        self.start = start
        self.end = end
    }
}

/// A node of a YAML document; `~`, `null` and an empty value are scalars for which `isNull` is true.
public enum YAMLNode: Sendable {
    case scalar(YAMLScalar)
    case mapping(YAMLMapping)
    case sequence(YAMLSequence)

    public var start: Mark {
        switch self {
        case .scalar(let s): s.start
        case .mapping(let m): m.start
        case .sequence(let s): s.start
        }
    }

    public var end: Mark {
        switch self {
        case .scalar(let s): s.end
        case .mapping(let m): m.end
        case .sequence(let s): s.end
        }
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let s) = self { s } else { nil }
    }

    public var mapping: YAMLMapping? {
        if case .mapping(let m) = self { m } else { nil }
    }

    public var sequence: YAMLSequence? {
        if case .sequence(let s) = self { s } else { nil }
    }

    /// The value of the first entry with key `key` when this is a mapping.
    public subscript(key: String) -> YAMLNode? {
        mapping?[key]
    }

    /// What kind of node this is, for messages: "a string", "a mapping", "a sequence", "nothing".
    public var kindDescription: String {
        switch self {
        case .scalar(let s): s.isNull ? "nothing" : "a string"
        case .mapping: "a mapping"
        case .sequence: "a sequence"
        }
    }
}
