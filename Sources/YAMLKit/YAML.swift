/// Entry points: YAML text in, node trees with positions out.
public enum YAML {
    /// The stream's only document; nil when the stream has no document or its document is empty, and an error when there is a second one.
    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        guard let root = try Parser(text: text).documents(single: true).first else { return nil }
        if let scalar = root.scalar, scalar.isNull, scalar.value.isEmpty, scalar.tag == nil { return nil }
        return root
    }

    /// Every document of the stream, in order.
    public static func parseDocuments(_ text: String) throws(YAMLError) -> [YAMLNode] {
        try Parser(text: text).documents(single: false)
    }
}
