/// {{summary}}
public enum {{Name}} {
    /// The version of the pod, from its version guard.
    public static var version: String { {{name_identifier}}ModuleVersion.string }
}
