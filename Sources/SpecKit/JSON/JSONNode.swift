/// A JSON value that remembers the byte range it was read from, so JSON spec files can be edited in place.
struct JSONNode: Sendable {
    /// The JSON value kinds, with members in file order.
    indirect enum Value: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    /// One `"key": value` member of an object.
    struct Member: Sendable {
        var key: String
        var value: JSONNode
    }

    /// The value.
    var value: Value
    /// The bytes from the value's first to its last character (brackets and quotes included).
    var range: Range<Int>

    /// The members of an object, or none.
    var members: [Member] {
        if case .object(let members) = value { return members }
        return []
    }

    /// The value of the first member called `key`.
    subscript(key: String) -> JSONNode? {
        members.first(where: { $0.key == key })?.value
    }

    /// The string value, when this is a string.
    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }
}
