/// One declared dependency requirement of a spec file, with where it is and how it may be rewritten.
public struct Requirement: Sendable, Hashable {
    /// The spec format the requirement was read from.
    public var fileKind: SpecFileKind
    /// The dependency as written: a pod name (`Core/UI`), a package URL, registry id or path, or a Cartfile `org/Repo` or URL.
    public var name: String
    /// Where the dependency comes from.
    public var origin: DependencyOrigin
    /// The legacy `name:` label of a `.package(name:url:…)`, when present.
    public var declaredName: String?
    /// The requirement, classified.
    public var constraint: RequirementKind
    /// The requirement exactly as it appears in the file (empty when there is none).
    public var rawText: String
    /// The requirement's span, or the insertion point for a new one when there is none.
    public var span: SourceSpan
    /// Whether SpecKit can rewrite this requirement safely.
    public var rewritable: Bool
    /// Why the requirement cannot be rewritten, when it cannot.
    public var reason: String?
    /// The subspec, platform, target or condition the declaration sits in.
    public var context: RequirementContext
    /// How to write a new exact version in place of the requirement; nil when not rewritable.
    var shape: RewriteShape?
    /// How to pin a git branch to a locked commit (`:branch` → `:commit`, `branch:` → `revision:`); nil when that is not possible.
    var revisionShape: RewriteShape?

    /// Whether the requirement is a git branch that pins to the commit its lock file records, not to a version.
    public var pinsToRevision: Bool { revisionShape != nil }

    /// Creates a requirement; readers fill `shape` so that the rewriter knows how to edit it.
    init(fileKind: SpecFileKind, name: String, origin: DependencyOrigin, declaredName: String? = nil,
         constraint: RequirementKind, rawText: String, span: SourceSpan,
         context: RequirementContext, shape: RewriteShape?, reason: String? = nil) {
        self.fileKind = fileKind
        self.name = name
        self.origin = origin
        self.declaredName = declaredName
        self.constraint = constraint
        self.rawText = rawText
        self.span = span
        self.context = context
        self.shape = reason == nil ? shape : nil
        self.rewritable = reason == nil && shape != nil
        self.reason = reason ?? (shape == nil ? "SpecKit does not rewrite this kind of requirement" : nil)
    }

    /// Whether the requirement is pinned (exact or a revision).
    public var isPinned: Bool { constraint.isPinned }

    /// Whether pinning to `version` changes this requirement: loose ones and stale exact ones do, revisions do not.
    public func needsPin(to version: String) -> Bool {
        switch constraint {
        case .exact(let current): return current != ((try? writableVersion(version).get()) ?? version)
        case .revision: return false
        case .range, .branch, .path, .unconstrained: return true
        }
    }

    /// A lowercased key for matching a requirement to a module: the root pod name, the package identity, or the Cartfile repository name.
    public var identity: String {
        switch fileKind {
        case .podspec, .podspecJSON, .podfile:
            return String(name.split(separator: "/", omittingEmptySubsequences: false).first ?? Substring(name)).lowercased()
        case .packageSwift:
            if origin == .registry { return name.lowercased() }
            return packageIdentity(forLocation: name)
        case .cartfile:
            let identity = packageIdentity(forLocation: name)
            return origin == .binary && identity.hasSuffix(".json") ? String(identity.dropLast(5)) : identity
        }
    }

    /// Whether this requirement refers to the module or dependency called `moduleName` (case-insensitive identity match).
    public func refers(to moduleName: String) -> Bool {
        identity == moduleName.lowercased() || name.lowercased() == moduleName.lowercased()
    }
}

/// Why a resolved version cannot be written into a requirement.
public struct UnwritableVersion: Error, Sendable, Hashable {
    /// The reason, for the report.
    public var reason: String
}

extension Requirement {
    /// The version as this file's grammar writes it: a Cartfile takes `9.2.1` for a `v9.2.1` tag and refuses a tag that is no version.
    public func writableVersion(_ version: String) -> Result<String, UnwritableVersion> {
        guard fileKind == .cartfile else { return .success(version) }
        let bare = version.first == "v" || version.first == "V" ? String(version.dropFirst()) : version
        let core = bare.prefix { $0 != "-" && $0 != "+" }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            return .failure(UnwritableVersion(reason: "the resolved tag '\(version)' is not a version, and Carthage accepts only a version after =="))
        }
        return .success(bare)
    }
}

/// How to replace a requirement with an exact version: text around the version at one range, plus ranges to delete.
struct RewriteShape: Sendable, Hashable {
    /// The byte range that receives `prefix + version + suffix`.
    var range: Range<Int>
    /// Text written before the version.
    var prefix: String
    /// Text written after the version.
    var suffix: String
    /// Byte ranges removed (extra requirements collapsed into one).
    var deletions: [Range<Int>] = []
}
