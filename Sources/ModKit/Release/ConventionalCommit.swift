import Foundation

/// How far a release moves a version.
public enum VersionIncrement: String, Sendable, Codable, Comparable, CaseIterable {
    case patch, minor, major

    public static func < (lhs: VersionIncrement, rhs: VersionIncrement) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The version after `current`: below 1.0.0 a major increment moves the minor (as cargo-release and changesets do);
    /// a pre-release first reaches its own release; `pre` makes the result a pre-release (`-beta.1`, then `-beta.2`).
    public func next(after current: SemanticVersion, pre: String? = nil) -> SemanticVersion {
        var next = SemanticVersion(major: current.major, minor: current.minor, patch: current.patch)
        if !current.isPrerelease {
            switch (self, current.major) {
            case (.major, 0), (.minor, _): next.minor += 1; next.patch = 0
            case (.major, _): next.major += 1; next.minor = 0; next.patch = 0
            case (.patch, _): next.patch += 1
            }
        }
        return next.asPrerelease(pre, after: current)
    }
}

extension SemanticVersion {
    /// This version as pre-release `pre` (`-beta.1`), or the next one of that kind after `current` (`-beta.2`); itself
    /// when `pre` is nil.
    func asPrerelease(_ pre: String?, after current: SemanticVersion) -> SemanticVersion {
        guard let pre else { return self }
        var next = self
        if current.isPrerelease, current.prerelease.first == pre, current.prerelease.count == 2, let number = Int(current.prerelease[1]) {
            next.prerelease = [pre, String(number + 1)]
        } else {
            next.prerelease = [pre, "1"]
        }
        return next
    }
}

/// A commit message read as a Conventional Commit (`type(scope)!: description`, `BREAKING CHANGE:` footer).
public struct ConventionalCommit: Sendable, Equatable {
    /// The changelog section a commit belongs in, in the order the sections are written.
    public enum Group: String, Sendable, CaseIterable {
        case breaking = "Breaking changes", features = "Features", fixes = "Fixes", other = "Other"

        /// How the plan counts commits of this group: "2 features".
        public func count(_ number: Int) -> String {
            let word = ["Breaking changes": "breaking", "Features": "feature", "Fixes": "fix", "Other": "other"][rawValue]!
            return "\(number) \(word)" + (number > 1 && self == .features ? "s" : number > 1 && self == .fixes ? "es" : "")
        }
    }

    /// The type (`feat`, `fix`, …) in lower case; nil when the subject does not follow the convention.
    public var type: String?
    public var breaking: Bool
    /// The subject without its `type(scope)!:` prefix.
    public var description: String

    public init(message: String) {
        let subject = message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let body = message.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        var breaking = body.contains { $0.hasPrefix("BREAKING CHANGE:") || $0.hasPrefix("BREAKING-CHANGE:") }
        var type: String?
        var description = subject.trimmingCharacters(in: .whitespaces)
        if let colon = subject.firstIndex(of: ":") {
            var head = Substring(subject[..<colon])
            let bang = head.hasSuffix("!")
            if bang { head = head.dropLast() }
            if let open = head.firstIndex(of: "("), head.hasSuffix(")") { head = head[..<open] }
            if !head.isEmpty, head.allSatisfy({ $0.isLetter }) {
                type = head.lowercased()
                breaking = breaking || bang
                description = subject[subject.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        self.type = type
        self.breaking = breaking
        self.description = description
    }

    /// The increment this commit asks for: breaking major, `feat` minor, anything else a patch.
    public var increment: VersionIncrement {
        if breaking { return .major }
        return type == "feat" ? .minor : .patch
    }

    public var group: Group {
        if breaking { return .breaking }
        switch type {
        case "feat": return .features
        case "fix": return .fixes
        default: return .other
        }
    }
}
