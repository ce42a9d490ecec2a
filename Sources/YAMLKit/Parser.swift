internal import CYAML

/// Owns a libyaml parser and the bytes it reads, and turns libyaml's event stream into node trees with 1-based marks.
final class Parser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private var lines: LineTable
    /// The bytes of a leading UTF-8 byte order mark kept from libyaml: 3 or 0.
    private let skipped: Int
    private var anchors: [String: YAMLNode] = [:]
    private var depth = 0
    /// Deeper nesting than this is refused instead of overflowing the stack.
    static let maximumDepth = 1_000

    /// A leading byte order mark is read as if absent (libyaml, told the encoding, would count it as a column of line 1);
    /// marks still count offsets in the whole text, so edits and reader errors land where they are.
    init(text: String) {
        let bytes = Array(text.utf8)
        lines = LineTable(bytes)
        skipped = lines.starts[0]
        let body = bytes[skipped...]
        input = .allocate(capacity: max(body.count, 1))
        _ = input.initialize(from: body)
        parser = .allocate(capacity: 1)
        // Fails only when out of memory; libyaml zeroes the struct first, so deinit may still delete it.
        precondition(yaml_parser_initialize(parser) == 1, "libyaml could not allocate a parser")
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, body.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// Every document of the stream; with `single`, a second document is an error.
    func documents(single: Bool) throws(YAMLError) -> [YAMLNode] {
        guard case .streamStart = try next() else { preconditionFailure("libyaml did not start a stream") }
        var result: [YAMLNode] = []
        while true {
            switch try next() {
            case .streamEnd:
                return result
            case .documentStart(let mark):
                if single, !result.isEmpty {
                    throw YAMLError(message: "expected a single document, found a second one; remove the '---' or split the file", mark: mark)
                }
                anchors = [:]
                result.append(try node(from: try next()))
                guard case .documentEnd = try next() else { preconditionFailure("libyaml did not end a document") }
            default:
                preconditionFailure("libyaml produced an event outside a document")
            }
        }
    }

    private func node(from event: Event) throws(YAMLError) -> YAMLNode {
        switch event {
        case .alias(let name, let mark):
            guard let target = anchors[name] else {
                throw YAMLError(message: "unknown alias '\(name)'; define it first with '&\(name)'", mark: mark)
            }
            return target
        case .scalar(let scalar, let anchor):
            return remember(.scalar(scalar), as: anchor)
        case .sequenceStart(let anchor, let tag, let style, let start):
            try enter(at: start)
            var items: [YAMLNode] = []
            while true {
                let event = try next()
                if case .sequenceEnd(let end) = event {
                    depth -= 1
                    return remember(.sequence(YAMLSequence(items: items, style: style, tag: tag, start: start, end: end)), as: anchor)
                }
                items.append(try node(from: event))
            }
        case .mappingStart(let anchor, let tag, let style, let start):
            try enter(at: start)
            var entries: [(key: YAMLNode, value: YAMLNode)] = []
            while true {
                let event = try next()
                if case .mappingEnd(let end) = event {
                    depth -= 1
                    return remember(.mapping(YAMLMapping(entries: entries, style: style, tag: tag, start: start, end: end)), as: anchor)
                }
                let key = try node(from: event)
                let value = try node(from: try next())
                entries.append((key, value))
            }
        default:
            preconditionFailure("libyaml produced \(event) where a node belongs")
        }
    }

    private func enter(at mark: Mark) throws(YAMLError) {
        depth += 1
        if depth > Parser.maximumDepth {
            throw YAMLError(message: "nesting deeper than \(Parser.maximumDepth) levels", mark: mark)
        }
    }

    private func remember(_ node: YAMLNode, as anchor: String?) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }

    // MARK: Events

    /// A libyaml event copied out of C memory.
    enum Event {
        case streamStart, streamEnd, documentEnd
        case documentStart(Mark)
        case alias(String, Mark)
        case scalar(YAMLScalar, anchor: String?)
        case sequenceStart(anchor: String?, tag: String?, CollectionStyle, Mark)
        case sequenceEnd(Mark)
        case mappingStart(anchor: String?, tag: String?, CollectionStyle, Mark)
        case mappingEnd(Mark)
    }

    /// The next event; every libyaml call that can fail goes through here and becomes a `YAMLError`.
    private func next() throws(YAMLError) -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw currentError() }
        defer { yaml_event_delete(&event) }
        let start = mark(event.start_mark)
        let end = mark(event.end_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart(start)
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(string(event.data.alias.anchor) ?? "", start)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let style: ScalarStyle = switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: .literal
            case YAML_FOLDED_SCALAR_STYLE: .folded
            default: .plain
            }
            let scalar = YAMLScalar(value: value, style: style, tag: string(data.tag), start: start, end: end)
            return .scalar(scalar, anchor: string(data.anchor))
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            let style: CollectionStyle = data.style == YAML_FLOW_SEQUENCE_STYLE ? .flow : .block
            return .sequenceStart(anchor: string(data.anchor), tag: string(data.tag), style, start)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd(end)
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            let style: CollectionStyle = data.style == YAML_FLOW_MAPPING_STYLE ? .flow : .block
            return .mappingStart(anchor: string(data.anchor), tag: string(data.tag), style, start)
        case YAML_MAPPING_END_EVENT: return .mappingEnd(end)
        default:
            throw YAMLError(message: "unexpected libyaml event \(event.type.rawValue)", mark: start)
        }
    }

    private func currentError() -> YAMLError {
        let p = parser.pointee
        let message = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        let at: Mark = p.error == YAML_READER_ERROR
            ? lines.mark(offset: p.problem_offset + skipped)
            : mark(p.problem_mark)
        let context = p.context.map { String(cString: $0) }
        return YAMLError(message: message, mark: at, context: context, contextMark: context == nil ? nil : mark(p.context_mark))
    }

    private func mark(_ m: yaml_mark_t) -> Mark {
        lines.mark(line: Int(m.line), column: Int(m.column), index: Int(m.index))
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
