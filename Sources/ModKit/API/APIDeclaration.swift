import Foundation

/// One public declaration of a module as a compiler sees it: where it is (`PaymentService.refund(id:)`) and its signature.
public struct APIDeclaration: Sendable, Hashable, Codable {
    /// The declaration's place: its containers and name, e.g. `protocol PaymentService › func refund(id:)`.
    public var key: String
    /// What a change to it breaks: kind, types, and for Objective-C the selector's types.
    public var signature: String
    /// True for a protocol requirement: adding one is additive by the x.y rule, even where swift-api-digester calls it breaking.
    public var isRequirement: Bool

    public init(key: String, signature: String, isRequirement: Bool = false) {
        self.key = key
        self.signature = signature
        self.isRequirement = isRequirement
    }
}

/// How far an API change reaches: nothing, additions only, or a removal, rename or changed signature.
public enum APIImpact: String, Sendable, Codable, Comparable {
    case none, additive, breaking

    public static func < (lhs: APIImpact, rhs: APIImpact) -> Bool {
        let order: [APIImpact] = [.none, .additive, .breaking]
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }

    /// The increment an interface needs: breaking is x+1, additive is y+1.
    public var increment: VersionIncrement? {
        switch self {
        case .none: return nil
        case .additive: return .minor
        case .breaking: return .major
        }
    }
}

/// One difference between two dumps of a module's API.
public struct APIChange: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable { case removed, added, changed }

    public var kind: Kind
    public var declaration: String
    /// For `changed`: the old and new signatures.
    public var from: String?
    public var to: String?

    public var impact: APIImpact { kind == .added ? .additive : .breaking }

    public var description: String {
        switch kind {
        case .removed: return "removed \(declaration)"
        case .added: return "added \(declaration)"
        case .changed: return "changed \(declaration): \(from ?? "") → \(to ?? "")"
        }
    }
}

/// The comparison of two API dumps: every change, removals and changes first, and the impact of the whole.
public enum APIComparison {
    public static func changes(from old: [APIDeclaration], to new: [APIDeclaration]) -> [APIChange] {
        let before = Dictionary(old.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [APIChange] = []
        for key in before.keys.sorted() {
            guard let now = after[key] else {
                changes.append(APIChange(kind: .removed, declaration: key))
                continue
            }
            if now.signature != before[key]!.signature {
                changes.append(APIChange(kind: .changed, declaration: key, from: before[key]!.signature, to: now.signature))
            }
        }
        for key in after.keys.sorted() where before[key] == nil {
            changes.append(APIChange(kind: .added, declaration: key))
        }
        return changes
    }

    public static func impact(of changes: [APIChange]) -> APIImpact {
        changes.map(\.impact).max() ?? .none
    }
}
