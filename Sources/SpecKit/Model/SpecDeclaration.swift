/// A value a spec declares about its own pod (`s.name`, `s.version`, or the JSON keys), with where it is written.
public struct DeclaredValue: Sendable, Hashable {
    /// The value when it is a plain string literal; nil for an expression modkit does not evaluate.
    public var literal: String?
    /// The right-hand side as written.
    public var expression: String
    /// The whole value (quotes included).
    public var span: SourceSpan
    /// The bytes between the quotes of a literal: what a version bump replaces.
    public var contentRange: Range<Int>?
}

/// What a podspec or podspec.json says about the pod it defines.
public struct SpecDeclaration: Sendable, Hashable {
    /// The spec's `name`.
    public var name: DeclaredValue?
    /// The spec's `version`.
    public var version: DeclaredValue?
}
