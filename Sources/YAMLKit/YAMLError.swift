/// A YAML syntax error at a 1-based position, with libyaml's context ("while parsing a flow sequence") and where that context began.
public struct YAMLError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var mark: Mark
    public var context: String?
    public var contextMark: Mark?

    public init(message: String, mark: Mark, context: String? = nil, contextMark: Mark? = nil) {
        self.message = message
        self.mark = mark
        self.context = context
        self.contextMark = contextMark
    }

    /// `3:7: did not find expected ',' or ']' (while parsing a flow sequence started at 1:8)`.
    public var description: String {
        var text = "\(mark): \(message)"
        if let context {
            text += " (\(context)"
            if let contextMark { text += " started at \(contextMark)" }
            text += ")"
        }
        return text
    }
}
