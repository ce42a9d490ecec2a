/// Plans surgical rewrites of spec files: each loose or stale requirement becomes one exact version, nothing else moves.
public enum SpecRewriter {
    /// Plans the edits that pin each requested requirement of `text` and computes the new text.
    ///
    /// Requirements must have been read from this very `text`. Requirements that are not
    /// rewritable, and versions that cannot be written safely, are reported in `skipped`;
    /// requirements already exact at the version are reported in `unchanged`.
    public static func plan(_ text: String, pins: [PinRequest]) throws(TextEditError) -> RewritePlan {
        try plan(Array(text.utf8), pins: pins)
    }

    /// Plans the edits that pin each requested requirement of a file's bytes; only the requirement spans change.
    public static func plan(_ bytes: [UInt8], pins: [PinRequest]) throws(TextEditError) -> RewritePlan {
        let source = SourceText(bytes: bytes)
        var edits: [TextEdit] = []
        var rewritten: [PinRequest] = []
        var unchanged: [PinRequest] = []
        var skipped: [SkippedRequirement] = []
        var seen = Set<Range<Int>>()
        for pin in pins {
            let requirement = pin.requirement
            guard seen.insert(requirement.span.range).inserted else { continue }
            if !requirement.rawText.isEmpty,
               requirement.span.range.upperBound > source.count || source.text(requirement.span.range) != requirement.rawText {
                throw TextEditError(message: "the requirement at \(requirement.span) was not read from this text")
            }
            let version: String
            switch pin.asRevision ? .success(pin.version) : requirement.writableVersion(pin.version) {
            case .success(let written): version = written
            case .failure(let problem):
                skipped.append(SkippedRequirement(request: pin, reason: problem.reason))
                continue
            }
            if requirement.constraint == .exact(version) {
                unchanged.append(pin)
                continue
            }
            if pin.asRevision {
                guard let shape = requirement.revisionShape, version.utf8.allSatisfy(Byte.isHex), !version.isEmpty else {
                    skipped.append(SkippedRequirement(request: pin, reason: "'\(version)' is not a commit id to pin the branch to"))
                    continue
                }
                edits.append(TextEdit(range: shape.range, replacement: shape.prefix + version + shape.suffix))
                rewritten.append(pin)
                continue
            }
            guard requirement.rewritable, let shape = requirement.shape else {
                skipped.append(SkippedRequirement(request: pin, reason: requirement.reason ?? "not rewritable"))
                continue
            }
            guard isSafeVersion(version) else {
                skipped.append(SkippedRequirement(request: pin, reason: "the version '\(version)' cannot be written safely"))
                continue
            }
            edits.append(TextEdit(range: shape.range, replacement: shape.prefix + version + shape.suffix))
            edits += shape.deletions.map { TextEdit(range: $0, replacement: "") }
            rewritten.append(pin)
        }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        let newBytes = try TextEdit.apply(edits, to: bytes)
        return RewritePlan(edits: edits, newBytes: newBytes, rewritten: rewritten, unchanged: unchanged, skipped: skipped)
    }

    /// Reads `text` and pins every requirement whose dependency appears in `versions` (keyed by module name, pod name, identity or URL).
    ///
    /// Requirements already pinned (an exact version equal to the one asked, or a revision) are not requested.
    public static func plan(_ text: String, kind: SpecFileKind, versions: [String: String]) throws -> RewritePlan {
        try plan(Array(text.utf8), kind: kind, versions: versions)
    }

    /// Reads a file's bytes and pins every requirement whose dependency appears in `versions`.
    public static func plan(_ bytes: [UInt8], kind: SpecFileKind, versions: [String: String]) throws -> RewritePlan {
        let requirements = try SpecReader.read(bytes, kind: kind)
        let pins = requirements.compactMap { requirement -> PinRequest? in
            guard let version = version(for: requirement, in: versions), requirement.needsPin(to: version) else { return nil }
            return PinRequest(requirement: requirement, version: version)
        }
        return try plan(bytes, pins: pins)
    }

    /// The version `versions` holds for a requirement, matched by identity, name or canonical URL.
    public static func version(for requirement: Requirement, in versions: [String: String]) -> String? {
        if let exact = versions[requirement.name] { return exact }
        let canonical = canonicalRepositoryURL(requirement.name).lowercased()
        for key in versions.keys.sorted() where requirement.refers(to: key) || canonicalRepositoryURL(key).lowercased() == canonical {
            return versions[key]
        }
        return nil
    }

    /// Whether a version string can be written inside any quote style without escaping.
    static func isSafeVersion(_ version: String) -> Bool {
        !version.isEmpty && version.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || ".-+_".unicodeScalars.contains(scalar)
        }
    }
}
