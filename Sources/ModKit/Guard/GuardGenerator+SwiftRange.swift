/// Swift checks for the `minimum` and `interface` guard modes: the dependency's version spelled as types is matched
/// against overloads that accept every spelling in range (digit slots constrained by file-private protocols that the
/// dependency's digit types are made to conform to); any other spelling reaches only the generic overload, whose marker fails.
extension GuardGenerator {
    /// One digit position of a number pattern: a fixed digit, any digit, or a digit above / at least one.
    enum Slot: Hashable {
        case exact(Character), any, above(Character), atLeast(Character)
    }

    /// Patterns of the numbers of up to three digits that are above `n` (`strict`) or at least `n`.
    static func patterns(atLeast n: Int, strict: Bool) -> [[Slot]] {
        let digits = Array(String(n))
        var result: [[Slot]] = []
        for length in (digits.count + 1)...max(digits.count + 1, 3) where length <= 3 {
            result.append(Array(repeating: .any, count: length))
        }
        for i in digits.indices {
            let last = i == digits.count - 1
            let slot: Slot = last && !strict ? .atLeast(digits[i]) : .above(digits[i])
            var pattern: [Slot] = digits[..<i].map { Slot.exact($0) }
            pattern.append(slot)
            pattern += Array(repeating: Slot.any, count: digits.count - i - 1)
            result.append(pattern)
        }
        return result
    }

    static func exactPattern(_ n: Int) -> [Slot] { String(n).map { .exact($0) } }
    static let anyNumber: [[Slot]] = [[.any], [.any, .any], [.any, .any, .any]]

    /// The (major, minor, patch) patterns a dependency's version may take in `mode`, required `v`.
    static func versionPatterns(_ v: SemanticVersion, mode: VersionGuardMode) -> [[Slot]] {
        func join(_ a: [[Slot]], _ b: [[Slot]], _ c: [[Slot]]) -> [[Slot]] {
            var result: [[Slot]] = []
            let dot: [Slot] = [.exact(".")]
            for x in a {
                for y in b {
                    for z in c {
                        var pattern: [Slot] = x
                        pattern += dot
                        pattern += y
                        pattern += dot
                        pattern += z
                        result.append(pattern)
                    }
                }
            }
            return result
        }
        switch mode {
        case .exact:
            return [Array(GuardVersion.text(v)).map { .exact($0) }]
        case .interface:
            return join([exactPattern(v.major)], patterns(atLeast: v.minor, strict: false), anyNumber)
        case .minimum:
            return join(patterns(atLeast: v.major, strict: true), anyNumber, anyNumber)
                + join([exactPattern(v.major)], patterns(atLeast: v.minor, strict: true), anyNumber)
                + join([exactPattern(v.major)], [exactPattern(v.minor)], patterns(atLeast: v.patch, strict: false))
        }
    }

    /// The protocol a digit slot's type must conform to, e.g. `PaymentsReachesPaymentsInterfaceAbove3`.
    static func protocolName(module: String, dependency: String, _ slot: Slot) -> String? {
        switch slot {
        case .above(let d): return "\(module)Reaches\(dependency)Above\(d)"
        case .atLeast(let d): return "\(module)Reaches\(dependency)AtLeast\(d)"
        default: return nil
        }
    }

    /// Lines of the file-private protocols, the digit conformances and the accepting overloads of one dependency.
    static func rangeCheck(module m: String, dependency: GuardDependency) -> (declarations: [String], overloads: [String]) {
        let d = dependency.name
        let guardType = "\(d)ModuleVersionGuard"
        let patterns = versionPatterns(dependency.version, mode: dependency.mode)
        let slots = Set(patterns.flatMap { $0 })
        var declarations: [String] = []
        for slot in slots.sorted(by: { "\($0)" < "\($1)" }) {
            guard let name = protocolName(module: m, dependency: d, slot) else { continue }
            let digits: [Character]
            switch slot {
            case .above(let c): digits = Array("0123456789").filter { $0 > c }
            case .atLeast(let c): digits = Array("0123456789").filter { $0 >= c }
            default: digits = []
            }
            declarations.append("fileprivate protocol \(name) {}")
            declarations += digits.map { "extension \(guardType).\(characterName($0)): \(name) {}" }
        }
        var overloads: [String] = []
        for pattern in patterns {
            var generics: [String] = []
            var elements: [String] = []
            for slot in pattern {
                switch slot {
                case .exact(let c): elements.append("\(guardType).\(characterName(c))")
                case .any:
                    generics.append("T\(generics.count)")
                    elements.append(generics.last!)
                case .above, .atLeast:
                    generics.append("T\(generics.count): \(protocolName(module: m, dependency: d, slot)!)")
                    elements.append("T\(generics.count - 1)")
                }
            }
            let generic = generics.isEmpty ? "" : "<" + generics.joined(separator: ", ") + ">"
            overloads.append("    static func require\(d)\(generic)(_: \(guardType).Spelling<(\(elements.joined(separator: ", ")))>.Type) -> Accepted.Type { Accepted.self }")
        }
        return (declarations, overloads)
    }
}
