/// What a declared requirement asks for, classified across all spec formats.
public enum RequirementKind: Sendable, Hashable, CustomStringConvertible {
    /// Exactly one version (`'1.0.1'`, `'= 1.0.1'`, `exact: "1.0.1"`, `== 1.0.1`).
    case exact(String)
    /// A range of versions, as written (`~> 1.0`, `>= 1.0, < 2.0`, `from: "1.0.0"`, `"1.0.0"..<"2.0.0"`).
    case range(String)
    /// A branch (`branch: "main"`, a Cartfile `"main"`, a Podfile `:branch`).
    case branch(String)
    /// A commit or other fixed git reference (`revision:`, a 40-hex Cartfile ref, a Podfile `:commit`/`:tag`).
    case revision(String)
    /// A local path or an explicit podspec location (`path:`, `:path`, `:podspec`).
    case path(String)
    /// No requirement at all (`s.dependency 'Core'`, `pod 'Core'`, a bare Cartfile line).
    case unconstrained

    /// Whether the requirement already fixes one build of the dependency (exact versions and revisions do).
    public var isPinned: Bool {
        switch self {
        case .exact, .revision: return true
        case .range, .branch, .path, .unconstrained: return false
        }
    }

    /// Whether the requirement admits more than one build: a range, a branch, or nothing at all.
    public var isLoose: Bool {
        switch self {
        case .range, .branch, .unconstrained: return true
        case .exact, .revision, .path: return false
        }
    }

    /// The exact version, when the requirement is exact.
    public var exactVersion: String? {
        if case .exact(let version) = self { return version }
        return nil
    }

    /// A short human form used in reports, e.g. `~> 1.0` or `branch main`.
    public var description: String {
        switch self {
        case .exact(let version): return version
        case .range(let text): return text
        case .branch(let name): return "branch \(name)"
        case .revision(let ref): return "revision \(ref)"
        case .path(let path): return "path \(path)"
        case .unconstrained: return "any version"
        }
    }
}
