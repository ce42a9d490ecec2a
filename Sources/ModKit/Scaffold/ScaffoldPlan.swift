import Foundation

/// What `modkit new` is asked for, with paths already relative to the workspace root.
public struct ScaffoldRequest: Sendable {
    public var name: String
    /// The directory of the module called `name`; nil picks one next to the existing modules.
    public var path: String?
    /// nil: a directory module when the workspace has any (or no modules), else a repository.
    public var kind: Module.Kind?
    /// The `origin` url of a new repository, written as the module's `url:`.
    public var remote: String?
    /// `--var KEY=VALUE`; `version` and `author` may be given too.
    public var variables: [String: String]
    public var date: Date

    public init(name: String, path: String? = nil, kind: Module.Kind? = nil, remote: String? = nil, variables: [String: String] = [:], date: Date = Date()) {
        self.name = name
        self.path = path
        self.kind = kind
        self.remote = remote
        self.variables = variables
        self.date = date
    }
}

/// Everything `modkit new` will do, rendered in memory and validated; applying it writes files, guard, git and manifest.
public struct ScaffoldPlan: Sendable {
    /// One file to create.
    public struct File: Sendable {
        public enum Content: Sendable {
            case data(Data)
            /// A symbolic link with this (relative, checked) target.
            case symlink(String)
        }

        /// Relative to the workspace root.
        public var path: String
        public var content: Content
        public var executable: Bool
        /// Written by the version guard rather than the template.
        public var isGuard: Bool
    }

    /// One module the template creates.
    public struct NewModule: Sendable {
        public var name: String
        public var path: String
        public var kind: Module.Kind
        /// The `url:` written to the manifest (repository modules).
        public var url: String?
        /// The url `origin` is set to, resolved like `modkit sync` resolves it.
        public var remoteURL: String?
        public var version: SemanticVersion
        /// Workspace or new modules it depends on, read from its rendered spec files.
        public var dependencies: [String]
        public var guardPlan: GuardPlan
        /// The interface module it implements (`implements:` written to the manifest).
        public var implements: String? = nil
    }

    public var template: Template
    public var modules: [NewModule]
    public var files: [File]
    /// The values every placeholder had, for `--dry-run --verbose` and tests.
    public var values: [String: String]
    public var manifestFile: URL
    public var manifestDisplayPath: String
    public var originalManifest: String
    public var newManifest: String
    /// The first branch of new repositories (the manifest's default revision when it is a branch name).
    public var initialBranch: String?
    /// Whether new repositories are pushed to their `origin`.
    public var pushes: Bool
    /// Paths to add to the manifest repository's `.gitignore` (repository modules inside it).
    public var ignoredPaths: [String]
    public var workspaceRoot: URL

    /// The manifest change as a unified diff.
    public var manifestDiff: String {
        LineDiff.unified(old: originalManifest, new: newManifest, oldPath: "a/" + manifestDisplayPath, newPath: "b/" + manifestDisplayPath)
    }
}

/// What applying a plan did.
public struct ScaffoldResult: Sendable {
    public var plan: ScaffoldPlan
    /// The initial commit of each new repository, by module name.
    public var commits: [String: String]
    /// Modules whose branch was pushed.
    public var pushed: [String]
    /// The branch each new repository was created on.
    public var branches: [String: String]
    public var ignoredPaths: [String]
    /// What went wrong after the modules were created and could not be undone (e.g. .gitignore could not be updated).
    public var warnings: [Diagnostic] = []
}
