/// The x.y rule between an interface module and its implementations: an interface is versioned x.y (adding a
/// requirement is y+1, removing or changing one is x+1, no patch releases); an implementation is x.y.z and shares its
/// interface's x, at or above the interface's x.y.0 once the interface moves in the same release.
enum InterfaceVersions {
    /// An interface's next version: `major` is x+1 (also below 1.0), `minor` and `patch` (a `fix:` commit) are y+1; always x.y.
    static func next(after current: SemanticVersion, by increment: VersionIncrement, pre: String?) -> SemanticVersion {
        var next = SemanticVersion(major: current.major, minor: current.minor, patch: 0, isTwoPart: true)
        if !current.isPrerelease || current.patch != 0 {
            switch increment {
            case .major: next.major += 1; next.minor = 0
            case .minor, .patch: next.minor += 1
            }
        }
        return next.asPrerelease(pre, after: current)
    }

    /// An override of an interface's version: `=patch` is refused (an interface has no patch releases), an exact version must be x.y.
    static func override(_ value: String, of name: String, current: SemanticVersion, pre: String?) throws -> SemanticVersion {
        if let kind = VersionIncrement(rawValue: value) {
            guard kind != .patch else {
                throw ModKitError.input("'\(name)=patch': \(name) is an interface module, versioned x.y; it has no patch releases",
                                        hint: "use \(name)=minor (an added requirement) or \(name)=major (a removed or changed one)")
            }
            return next(after: current, by: kind, pre: pre)
        }
        guard let exact = SemanticVersion(value, twoParts: true), exact.isTwoPart else {
            throw ModKitError.input("'\(name)=\(value)': \(name) is an interface module, versioned x.y", hint: "e.g. \(name)=\(current.major).\(current.minor + 1)")
        }
        return exact
    }

    /// The lowest version an implementation may take when its interface is released at `interface`: x.y.0.
    static func floor(for interface: SemanticVersion) -> SemanticVersion {
        SemanticVersion(major: interface.major, minor: interface.minor, patch: 0)
    }

    /// The implementation's version raised to its interface's x.y.0 when below it; nil when it would leave the interface's x.
    static func implementationNext(_ next: SemanticVersion?, current: SemanticVersion, interface: SemanticVersion) -> SemanticVersion? {
        let floor = floor(for: interface)
        let proposed = next ?? current
        if proposed.major > interface.major { return nil }
        if proposed < floor {
            var raised = floor
            raised.prerelease = proposed.prerelease
            return raised
        }
        return proposed
    }
}
