/// {{summary}}
public enum {{Name}} {
    /// The version of {{name}}, from its version guard.
    public static var version: String { {{name_identifier}}ModuleVersion.string }
}
