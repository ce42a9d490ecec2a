import {{name_identifier}}Interface

/// The {{name}} behind `{{Name}}Service`. {{summary}}
public final class {{Name}}: {{Name}}Service {
    public init() {}

    public var version: String { {{name_identifier}}ModuleVersion.string }
}
