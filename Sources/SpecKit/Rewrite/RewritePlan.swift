/// A request to pin one requirement to one exact version.
public struct PinRequest: Sendable, Hashable {
    /// The requirement, as read from the file being rewritten.
    public var requirement: Requirement
    /// The exact version to write, e.g. `1.0.1`, or the commit for a revision pin.
    public var version: String
    /// Whether `version` is a commit that replaces a git branch (`:commit =>`, `revision:`).
    public var asRevision: Bool

    /// Creates a request.
    public init(requirement: Requirement, version: String, asRevision: Bool = false) {
        self.requirement = requirement
        self.version = version
        self.asRevision = asRevision
    }
}

/// A requirement the rewriter left byte-identical, and why.
public struct SkippedRequirement: Sendable, Hashable {
    /// The request that was not carried out.
    public var request: PinRequest
    /// Why it was not carried out (a variable version, a local path, an unsafe version string, …).
    public var reason: String
}

/// The outcome of planning a rewrite: the edits, the new text, and what was changed, already right, or skipped.
public struct RewritePlan: Sendable, Hashable {
    /// The edits, sorted by position, non-overlapping.
    public var edits: [TextEdit]
    /// The file's bytes after applying `edits`.
    public var newBytes: [UInt8]
    /// The new contents as UTF-8 text (for display and tests; files are written from `newBytes`).
    public var newText: String { String(decoding: newBytes, as: UTF8.self) }
    /// The requests that change the file.
    public var rewritten: [PinRequest]
    /// The requests whose requirement is already exact at the requested version.
    public var unchanged: [PinRequest]
    /// The requests SpecKit could not carry out, each with its reason.
    public var skipped: [SkippedRequirement]

    /// Whether applying the plan changes the file.
    public var hasChanges: Bool { !edits.isEmpty }
}
