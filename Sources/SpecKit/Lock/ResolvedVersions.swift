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
    public internal(set) var pods: [String: String] = [:] { didSet { lookup.index(pods: pods) } }
    /// Commits of `:git` pods from Podfile.lock's CHECKOUT OPTIONS, by pod name.
    public internal(set) var podCommits: [String: String] = [:]
    /// Resolved SwiftPM packages.
    public internal(set) var packages: [Package] = [] { didSet { lookup.index(packages: packages) } }
    /// Resolved Carthage dependencies.
    public internal(set) var carthage: [Carthage] = [] { didSet { lookup.index(carthage: carthage) } }
    /// The entries by every key a requirement is looked up by, so each lookup costs the same however long the lock file is.
    /// Kept up to date when an array or the pods are assigned (readers assign each once, never element by element).
    private var lookup = Lookup()

    /// Creates an empty set of versions.
    public init() {}

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.pods, lhs.podCommits, lhs.packages, lhs.carthage) == (rhs.pods, rhs.podCommits, rhs.packages, rhs.carthage)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pods)
        hasher.combine(podCommits)
        hasher.combine(packages)
        hasher.combine(carthage)
    }

    /// The union of two sets; entries of `other` win on conflicts.
    public func merging(_ other: ResolvedVersions) -> ResolvedVersions {
        // Most folders have one lock file or none: nothing to merge, and the lookup built for it is kept.
        if other.isEmpty { return self }
        if isEmpty { return other }
        var result = self
        result.pods.merge(other.pods) { _, new in new }
        result.podCommits.merge(other.podCommits) { _, new in new }
        let identities = Set(other.packages.map(\.identity))
        result.packages = other.packages + packages.filter { !identities.contains($0.identity) }
        let names = Set(other.carthage.map(\.name))
        result.carthage = other.carthage + carthage.filter { !names.contains($0.name) }
        return result
    }

    /// Whether no lock file resolved anything.
    var isEmpty: Bool { pods.isEmpty && podCommits.isEmpty && packages.isEmpty && carthage.isEmpty }

    /// The resolved version of a pod; a subspec name (`Core/UI`) falls back to its root pod.
    public func podVersion(named name: String) -> String? {
        if let version = pods[name] { return version }
        let root = String(name.split(separator: "/").first ?? Substring(name))
        return pods[root] ?? lookup.podsByLowercasedName[name.lowercased()] ?? lookup.podsByLowercasedName[root.lowercased()]
    }

    /// The resolved version of a package by identity (`core`), case-insensitive.
    public func packageVersion(identity: String) -> String? {
        lookup.packageByIdentity[identity.lowercased()].map { packages[$0].version } ?? nil
    }

    /// The resolved version of a package by URL, compared through `canonicalRepositoryURL`.
    public func packageVersion(url: String) -> String? {
        lookup.packageByURL[canonicalRepositoryURL(url).lowercased()].map { packages[$0].version } ?? nil
    }

    /// The resolved version of a Carthage dependency by its name as written (`org/Repo` or URL), or by repository name.
    public func carthageVersion(named name: String) -> String? {
        if let index = lookup.carthageByName[name] ?? lookup.carthageByURL[canonicalRepositoryURL(name).lowercased()] {
            return carthage[index].version
        }
        let matches = lookup.carthageByIdentity[packageIdentity(forLocation: name)] ?? []
        return matches.count == 1 ? carthage[matches[0]].version : nil
    }

    /// The commit a lock file records for a git branch requirement (`:git`/`:branch` pod, `branch:` package).
    public func revision(for requirement: Requirement) -> String? {
        switch requirement.fileKind {
        case .podfile, .podspec, .podspecJSON:
            let root = String(requirement.name.split(separator: "/").first ?? Substring(requirement.name))
            return podCommits[requirement.name] ?? podCommits[root]
        case .packageSwift:
            return lookup.packageByURL[canonicalRepositoryURL(requirement.name).lowercased()].map { packages[$0].revision } ?? nil
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

extension ResolvedVersions {
    /// Indexes of the entries (positions in `packages` and `carthage`); where several entries share a key, the first one wins,
    /// as a search from the front would find it.
    struct Lookup: Sendable {
        var podsByLowercasedName: [String: String] = [:]
        var packageByIdentity: [String: Int] = [:]
        var packageByURL: [String: Int] = [:]
        var carthageByName: [String: Int] = [:]
        var carthageByURL: [String: Int] = [:]
        var carthageByIdentity: [String: [Int]] = [:]

        mutating func index(pods: [String: String]) {
            // Sorted, so which of `core` and `Core` answers a case-insensitive lookup does not depend on hashing.
            podsByLowercasedName = [:]
            for (name, version) in pods.sorted(by: { $0.key < $1.key }) where podsByLowercasedName[name.lowercased()] == nil {
                podsByLowercasedName[name.lowercased()] = version
            }
        }

        mutating func index(packages: [Package]) {
            packageByIdentity = [:]
            packageByURL = [:]
            for (index, package) in packages.enumerated() {
                if packageByIdentity[package.identity] == nil { packageByIdentity[package.identity] = index }
                let url = canonicalRepositoryURL(package.location).lowercased()
                if packageByURL[url] == nil { packageByURL[url] = index }
            }
        }

        mutating func index(carthage: [Carthage]) {
            carthageByName = [:]
            carthageByURL = [:]
            carthageByIdentity = [:]
            for (index, entry) in carthage.enumerated() {
                if carthageByName[entry.name] == nil { carthageByName[entry.name] = index }
                let canonical = canonicalRepositoryURL(entry.name)
                if carthageByURL[canonical.lowercased()] == nil { carthageByURL[canonical.lowercased()] = index }
                carthageByIdentity[packageIdentity(ofCanonical: canonical), default: []].append(index)
            }
        }
    }
}
