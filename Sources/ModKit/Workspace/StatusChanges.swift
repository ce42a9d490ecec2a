/// What `modkit status` says about a module, in parts a terminal may colour: the detail of its result.
public struct StatusPart: Sendable, Equatable {
    /// How a part reads: a warning (behind, not pushed), a problem (modified, conflicted), good news (staged), or quiet.
    public enum Tone: Sendable { case plain, warning, problem, good, quiet }
    public var text: String
    public var tone: Tone
}

extension ModuleStatus {
    /// Ahead/behind, unpushed and change counts (`ahead 1, 2 modified, 1 untracked`; `short`: `↑1 M2 ?1`), or why
    /// there are none; the parts are joined with ", " (short: " ").
    public func changeParts(short: Bool = false) -> [StatusPart] {
        switch state {
        case .notCloned: return [StatusPart(text: "run 'modkit sync'", tone: .quiet)]
        case .missing: return [StatusPart(text: "folder not found", tone: .quiet)]
        case .error: return [StatusPart(text: error ?? "", tone: .plain)]
        case .ok: break
        }
        var parts: [StatusPart] = []
        func add(_ long: String, _ brief: String, _ tone: StatusPart.Tone) { parts.append(StatusPart(text: short ? brief : long, tone: tone)) }
        if let ahead, ahead > 0 { add("ahead \(ahead)", "↑\(ahead)", .warning) }
        if let behind, behind > 0 { add("behind \(behind)", "↓\(behind)", .warning) }
        if let unpushed, unpushed > 0 { add("\(unpushed) commit\(unpushed == 1 ? "" : "s") not pushed", "⇡\(unpushed)", .warning) }
        if let behindBase, behindBase > 0 { add("\(behindBase) behind the manifest branch", "base↓\(behindBase)", .warning) }
        if conflicted > 0 { add("\(conflicted) conflicted", "U\(conflicted)", .problem) }
        if staged > 0 { add("\(staged) staged", "A\(staged)", .good) }
        if modified > 0 { add("\(modified) modified", "M\(modified)", .problem) }
        if untracked > 0 { add("\(untracked) untracked", "?\(untracked)", .plain) }
        if detached, atRevision != true, parts.isEmpty, !short { add("not at the manifest revision", "", .warning) }
        return parts.isEmpty ? [StatusPart(text: "clean", tone: .quiet)] : parts
    }

    /// The status as a result row: `clean` or `changed`, `notCloned`, `missing`, or `failed`; the detail is `changeParts`.
    /// The manifest repository's row has no name.
    func result(isManifest: Bool = false) -> ModuleResult<ModuleStatus> {
        let outcome: ModuleOutcome = switch state {
        case .ok: isClean ? .clean : .changed
        case .notCloned: .notCloned
        case .missing: .missing
        case .error: .failed
        }
        return ModuleResult(name: isManifest ? nil : name, path: path, outcome: outcome,
                            detail: changeParts().map(\.text).joined(separator: ", "),
                            diagnostics: state == .error ? [.error(error ?? "unreadable", module: name)] : [], facts: self)
    }
}
