/// Where in its file a requirement is declared: which subspec, platform, target or `#if` branch.
public struct RequirementContext: Sendable, Hashable {
    /// The kind of CocoaPods spec block enclosing a dependency.
    public enum SpecBlock: String, Sendable, Hashable {
        case subspec, testSpec, appSpec
    }

    /// The enclosing spec block, nil at the root of a podspec.
    public var block: SpecBlock?
    /// The spec path below the root, e.g. `UI/Views` for nested subspecs, or the test/app spec name.
    public var specName: String?
    /// The platform of a platform-specific dependency (`ios` for `s.ios.dependency`).
    public var platform: String?
    /// Whether the declaration restricts itself to build configurations (`:configurations =>`).
    public var hasConfigurations: Bool
    /// The innermost Podfile `target` (or `abstract_target`) enclosing a `pod` line.
    public var target: String?
    /// The `#if` conditions enclosing a Package.swift declaration, joined with ` && `.
    public var condition: String?

    /// Creates a context; every field defaults to "none".
    public init(block: SpecBlock? = nil, specName: String? = nil, platform: String? = nil,
                hasConfigurations: Bool = false, target: String? = nil, condition: String? = nil) {
        self.block = block
        self.specName = specName
        self.platform = platform
        self.hasConfigurations = hasConfigurations
        self.target = target
        self.condition = condition
    }
}
