/// One entry of `imports:`: a module whose own west manifest lists more modules, read again each time modkit.yml is
/// loaded, so the workspace follows that manifest as it changes (west's `import:`). Until the module is cloned, the
/// import adds nothing; `modkit sync` clones it, then syncs the modules it brings.
public struct ManifestImport: Sendable, Hashable {
    /// The module (by modkit name) holding the manifest; nil for the manifest repository itself (west's `self: import:`).
    public var module: String?
    /// The manifest file inside the module (or, without one, relative to the workspace root), `west.yml` by default;
    /// a directory stands for the `.yml` files in it, in name order.
    public var file: String
    /// west's filters: a project is taken when it is named in `nameAllowlist` or its path matches a glob of
    /// `pathAllowlist`; without either list, when it is neither named in `nameBlocklist` nor matched by `pathBlocklist`.
    public var nameAllowlist: [String]?
    public var pathAllowlist: [String]?
    public var nameBlocklist: [String]?
    public var pathBlocklist: [String]?
    /// Put before every imported path.
    public var pathPrefix: String?

    public init(module: String?, file: String = "west.yml", nameAllowlist: [String]? = nil, pathPrefix: String? = nil) {
        self.module = module
        self.file = file
        self.nameAllowlist = nameAllowlist
        self.pathPrefix = pathPrefix
    }
}
