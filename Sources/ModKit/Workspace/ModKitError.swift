/// An error modkit explains to the user: what went wrong and, where it can, what to do next.
public struct ModKitError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?
    /// Bad input or usage (exit 2) rather than an operation that failed (exit 1).
    public var isInputError: Bool

    public init(_ message: String, hint: String? = nil, isInputError: Bool = false) {
        self.message = message
        self.hint = hint
        self.isInputError = isInputError
    }

    public static func input(_ message: String, hint: String? = nil) -> ModKitError {
        ModKitError(message, hint: hint, isInputError: true)
    }

    public var description: String { message }
}
