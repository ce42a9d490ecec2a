/// An error as every JSON report spells it (docs/json.md, `error`): the message and, where there is one, the file
/// position and a hint.
public struct ErrorJSON: Encodable, Sendable, Equatable {
    public var message: String
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The diagnostic's message, after `Module: ` when it names one, unless the object it goes in names the module (a row's `error`).
    public init(_ diagnostic: Diagnostic, namingModule: Bool = true) {
        message = namingModule ? diagnostic.messageNamingModule : diagnostic.message
        file = diagnostic.location?.file
        line = diagnostic.location?.line
        column = diagnostic.location?.column
        hint = diagnostic.hint
    }

    /// A per-module error text, or nil.
    public static func optional(_ message: String?) -> ErrorJSON? { message.map { ErrorJSON($0) } }
}
