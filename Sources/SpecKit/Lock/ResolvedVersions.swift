/// Versions resolved by a workspace's lock files (`Podfile.lock`, `Package.resolved`, `Cartfile.resolved`), with lookups.
public struct ResolvedVersions: Sendable, Hashable {
    /// One resolved SwiftPM package.
    public struct Package: Sendable, Hashable {
        /// The package identity (`core`), lowercased.
        public var identity: String
        /// The repository URL or registry id, as written in the file.
        public var location: String
        /// The resolved version, nil for a branch or revision pin.
        public var version: String?
        /// The resolved revision, when recorded.
        public var revision: String?
    }

    /// One resolved Carthage dependency.
    public struct Carthage: Sendable, Hashable {
        /// The origin keyword (`github`, `git`, `binary`).
        public var origin: DependencyOrigin
        /// The name as written: `org/Repo` or a URL.
        public var name: String
        /// The resolved version or commit.
        public var version: String
    }

    /// Resolved pod versions by pod name as written (`Core`, `Core/UI`).
    public var pods: [String: String] = [:]
    /// Commits of `:git` pods from Podfile.lock's CHECKOUT OPTIONS, by pod name.
    public var podCommits: [String: String] = [:]
    /// Resolved SwiftPM packages.
    public var packages: [Package] = []
    /// Resolved Carthage dependencies.
    public var carthage: [Carthage] = []

    /// Creates an empty set of versions.
    public init() {}

    /// The union of two sets; entries of `other` win on conflicts.
    public func merging(_ other: ResolvedVersions) -> ResolvedVersions {
        var result = self
        result.pods.merge(other.pods) { _, new in new }
        result.podCommits.merge(other.podCommits) { _, new in new }
        result.packages = other.packages + packages.filter { old in !other.packages.contains { $0.identity == old.identity } }
        result.carthage = other.carthage + carthage.filter { old in !other.carthage.contains { $0.name == old.name } }
        return result
    }

    /// The resolved version of a pod; a subspec name (`Core/UI`) falls back to its root pod.
    public func podVersion(named name: String) -> String? {
        if let version = pods[name] { return version }
        let root = String(name.split(separator: "/").first ?? Substring(name))
        return pods[root] ?? pods.first { $0.key.lowercased() == name.lowercased() || $0.key.lowercased() == root.lowercased() }?.value
    }

    /// The resolved version of a package by identity (`core`), case-insensitive.
    public func packageVersion(identity: String) -> String? {
        packages.first { $0.identity == identity.lowercased() }?.version
    }

    /// The resolved version of a package by URL, compared through `canonicalRepositoryURL`.
    public func packageVersion(url: String) -> String? {
        let wanted = canonicalRepositoryURL(url).lowercased()
        return packages.first { canonicalRepositoryURL($0.location).lowercased() == wanted }?.version
    }

    /// The resolved version of a Carthage dependency by its name as written (`org/Repo` or URL), or by repository name.
    public func carthageVersion(named name: String) -> String? {
        if let entry = carthage.first(where: { $0.name == name }) { return entry.version }
        let wanted = canonicalRepositoryURL(name).lowercased()
        if let entry = carthage.first(where: { canonicalRepositoryURL($0.name).lowercased() == wanted }) { return entry.version }
        let identity = packageIdentity(forLocation: name)
        let matches = carthage.filter { packageIdentity(forLocation: $0.name) == identity }
        return matches.count == 1 ? matches[0].version : nil
    }

    /// The commit a lock file records for a git branch requirement (`:git`/`:branch` pod, `branch:` package).
    public func revision(for requirement: Requirement) -> String? {
        switch requirement.fileKind {
        case .podfile, .podspec, .podspecJSON:
            let root = String(requirement.name.split(separator: "/").first ?? Substring(requirement.name))
            return podCommits[requirement.name] ?? podCommits[root]
        case .packageSwift:
            let wanted = canonicalRepositoryURL(requirement.name).lowercased()
            return packages.first { canonicalRepositoryURL($0.location).lowercased() == wanted }?.revision
        case .cartfile:
            return carthageVersion(named: requirement.name).flatMap { $0.utf8.count == 40 && $0.utf8.allSatisfy(Byte.isHex) ? $0 : nil }
        }
    }

    /// The resolved version for a requirement read from a spec file, looked up in the matching lock data.
    public func version(for requirement: Requirement) -> String? {
        switch requirement.fileKind {
        case .podspec, .podspecJSON, .podfile:
            return podVersion(named: requirement.name)
        case .packageSwift:
            return requirement.origin == .registry
                ? packageVersion(identity: requirement.name)
                : packageVersion(url: requirement.name) ?? packageVersion(identity: requirement.identity)
        case .cartfile:
            return carthageVersion(named: requirement.name)
        }
    }
}

extension ResolvedVersions {
    /// The lock files of one folder, in the order they are read.
    public static let lockFileNames = ["Podfile.lock", "Package.resolved", "Cartfile.resolved"]

    /// Reads the lock files of one folder (`contents` gives a lock file's bytes by name, nil when it is absent, and throws when it is
    /// there but cannot be read), returning such a file or a Package.resolved that is not JSON as a problem, never skipped as if absent.
    public static func read(lockFiles contents: (String) throws -> [UInt8]?) -> (versions: ResolvedVersions, problems: [(file: String, error: SpecReadError)]) {
        var resolved = ResolvedVersions()
        var problems: [(file: String, error: SpecReadError)] = []
        for name in lockFileNames {
            do {
                guard let bytes = try contents(name) else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                switch name {
                case "Podfile.lock": resolved = resolved.merging(.podfileLock(text))
                case "Package.resolved": resolved = resolved.merging(try packageResolved(text))
                default: resolved = resolved.merging(.cartfileResolved(text))
                }
            } catch let error as SpecReadError {
                problems.append((name, error))
            } catch {
                problems.append((name, SpecReadError(line: 1, column: 1, message: "cannot read the file: \(error)")))
            }
        }
        return (resolved, problems)
    }
}
