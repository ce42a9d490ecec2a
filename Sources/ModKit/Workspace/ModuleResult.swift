/// What one operation did (or, with --check and --dry-run, would do) to one module or to the manifest repository: the one
/// result every per-module operation returns and the one row every command reports (docs/json.md, `moduleResult`).
/// `Facts` holds what only that operation knows (sync's commits, tag's tag, forall's exit status); it has no outcome of
/// its own, and its keys follow the shared ones flat in JSON. Its fields read as the result's own (`result.commit`).
@dynamicMemberLookup
public struct ModuleResult<Facts: Sendable & Encodable & Equatable>: Sendable, Encodable, Equatable {
    /// nil on the manifest repository's row.
    public var name: String?
    /// Relative to the workspace root; "." for the manifest repository.
    public var path: String
    public var outcome: ModuleOutcome
    /// One line for people: "fast-forwarded develop by 3 commits", "kept: local changes", …
    public var detail: String
    /// Warnings and errors about this module beside its outcome, each naming the module.
    public var diagnostics: [Diagnostic]
    public var facts: Facts

    public init(name: String?, path: String, outcome: ModuleOutcome, detail: String, diagnostics: [Diagnostic] = [], facts: Facts) {
        self.name = name
        self.path = path
        self.outcome = outcome
        self.detail = detail
        self.diagnostics = diagnostics
        self.facts = facts
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Facts, Value>) -> Value {
        get { facts[keyPath: keyPath] }
        set { facts[keyPath: keyPath] = newValue }
    }

    /// The name a text report shows: the module's, or `(manifest repository)`.
    public var label: String { name ?? "(manifest repository)" }

    /// Whether this result makes the command exit 1 (kept or failed).
    public var needsAttention: Bool { outcome.needsAttention }

    /// Why a failed result failed: its first error diagnostic, else its detail; nil unless `outcome` is `failed`.
    public var error: Diagnostic? {
        guard outcome == .failed else { return nil }
        return diagnostics.first { $0.severity == .error } ?? .error(detail, module: name)
    }

    /// Records a warning about this module.
    public mutating func warn(_ message: String, hint: String? = nil) {
        diagnostics.append(.warning(message, hint: hint, module: name))
    }

    private enum Key: String, CodingKey { case name, path, outcome, detail, error }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(path, forKey: .path)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(error.map { ErrorJSON($0, namingModule: false) }, forKey: .error)
        try facts.encode(to: encoder)
    }
}

/// The facts of an operation that reports nothing beyond the shared keys.
public struct NoFacts: Sendable, Encodable, Equatable {
    public init() {}
}

/// The branch a topic-branch operation concerns: start, push, abandon, prune and `sync --rebase`.
public struct BranchFacts: Sendable, Encodable, Equatable {
    public var branch: String?
    public init(branch: String?) { self.branch = branch }
}
