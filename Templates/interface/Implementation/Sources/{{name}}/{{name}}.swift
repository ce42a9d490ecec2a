import {{name}}Interface

/// The {{name}} behind `{{Name}}Service`. {{summary}}
public final class {{Name}}: {{Name}}Service {
    public init() {}

    public var version: String { {{name}}ModuleVersion.string }
}
