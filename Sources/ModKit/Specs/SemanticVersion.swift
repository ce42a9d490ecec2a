/// A semantic version (semver 2.0.0): MAJOR.MINOR.PATCH with optional -prerelease and +build, ordered by precedence.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int
    /// Dot-separated identifiers after "-", e.g. ["beta", "1"].
    public var prerelease: [String]
    /// Dot-separated identifiers after "+"; they do not affect precedence.
    public var build: [String]
    /// An interface module's x.y version: written without a patch (which is 0 for comparisons and guard numbers).
    public var isTwoPart = false

    public init(major: Int, minor: Int, patch: Int, prerelease: [String] = [], build: [String] = [], isTwoPart: Bool = false) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
        self.isTwoPart = isTwoPart
    }

    /// Parses "1.2.3", "1.2.3-beta.1", "1.2.3+build.5"; numbers without leading zeros, identifiers of [0-9A-Za-z-].
    public init?(_ string: String) {
        self.init(string, twoParts: false)
    }

    /// `twoParts` also takes "x.y" (an interface module's version).
    public init?(_ string: String, twoParts: Bool) {
        var rest = Substring(string)
        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            guard let ids = Self.identifiers(rest[rest.index(after: plus)...], numeric: false) else { return nil }
            build = ids
            rest = rest[..<plus]
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            guard let ids = Self.identifiers(rest[rest.index(after: dash)...], numeric: true) else { return nil }
            prerelease = ids
            rest = rest[..<dash]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || (twoParts && parts.count == 2) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard Self.isNumber(part), let n = Int(part) else { return nil }
            numbers.append(n)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers.count == 3 ? numbers[2] : 0, prerelease: prerelease, build: build, isTwoPart: numbers.count == 2)
    }

    public var isPrerelease: Bool { !prerelease.isEmpty }

    public var description: String {
        var text = isTwoPart ? "\(major).\(minor)" : "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// Precedence per semver 2.0.0; versions of equal precedence are then ordered by build metadata so sorting is deterministic.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if let order = precedenceOrder(lhs, rhs) { return order }
        return lhs.build.lexicographicallyPrecedes(rhs.build)
    }

    /// True when the two versions have the same precedence (build metadata ignored).
    public func hasSamePrecedence(as other: SemanticVersion) -> Bool {
        Self.precedenceOrder(self, other) == nil
    }

    /// true if lhs < rhs, false if lhs > rhs, nil if equal precedence.
    private static func precedenceOrder(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Bool? {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        // A pre-release has lower precedence than the release itself.
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true): return nil
        case (true, false): return false
        case (false, true): return true
        case (false, false): break
        }
        for (a, b) in zip(lhs.prerelease, rhs.prerelease) where a != b {
            switch (Int(a), Int(b)) {
            case let (x?, y?): return x < y
            case (_?, nil): return true      // numeric identifiers sort before alphanumeric ones
            case (nil, _?): return false
            case (nil, nil): return a < b
            }
        }
        if lhs.prerelease.count == rhs.prerelease.count { return nil }
        return lhs.prerelease.count < rhs.prerelease.count
    }

    private static func isNumber(_ s: Substring) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } && (s == "0" || s.first != "0")
    }

    private static func identifiers(_ s: Substring, numeric: Bool) -> [String]? {
        let ids = s.split(separator: ".", omittingEmptySubsequences: false)
        for id in ids {
            guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
            // Numeric pre-release identifiers must not have leading zeros.
            if numeric, id.allSatisfy({ $0.isNumber }), !isNumber(id) { return nil }
        }
        return ids.map(String.init)
    }
}
