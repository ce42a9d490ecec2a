import Foundation

/// The manifests `modkit init --import` understands.
public enum ImportFormat: String, Sendable, CaseIterable {
    case submodules, repo, west, vcstool

    /// How messages name the format.
    public var label: String {
        switch self {
        case .submodules: "git submodules"
        case .repo: "repo manifest"
        case .west: "west manifest"
        case .vcstool: "vcstool .repos file"
        }
    }
}

/// One module as another tool's manifest describes it, before names are made unique.
public struct ImportedModule: Sendable, Equatable {
    /// The name in the source: repo project name, submodule name, west project name or vcstool path.
    public var sourceName: String
    /// The modkit name; set when the import is finished.
    public var name: String
    /// A name the source asks for explicitly (a repo `<annotation name="modkit-name">` written by `modkit export`).
    public var preferredName: String?
    /// Fully resolved (no tool-specific relative forms left).
    public var url: String
    /// Relative to the import's base directory (the workspace root once the import is finished).
    public var path: String
    public var revision: String?
    public var groups: [String]
    /// History to fetch (repo `clone-depth`, west `clone-depth`); nil for all of it.
    public var depth: Int?
    /// Facts kept as comments next to the module, e.g. the commit the superproject recorded.
    public var notes: [String]
    /// Where the module is declared.
    public var location: SourceLocation?

    public init(sourceName: String, url: String, path: String, revision: String? = nil, groups: [String] = [], notes: [String] = [], location: SourceLocation? = nil) {
        self.sourceName = sourceName
        self.name = sourceName
        self.url = url
        self.path = path
        self.revision = revision
        self.groups = groups
        self.notes = notes
        self.location = location
    }
}

/// What an importer read: the modules, the defaults worth keeping, and every warning about what could not be carried over.
public struct ImportResult: Sendable {
    public var format: ImportFormat
    /// The input as messages name it.
    public var source: String
    public var modules: [ImportedModule]
    /// The revision most modules follow, written once under `defaults:`.
    public var defaultRevision: String?
    /// The url most module urls start with, written once as `url-base`.
    public var urlBase: String?
    /// Warnings in the order found; importers throw errors instead.
    public var warnings: [Diagnostic]
    /// The directory module paths are relative to, when it is not the workspace root (a superproject).
    public var baseDirectory: URL?
    /// `defaults.groups`: the selection the source tool syncs by default (repo leaves out `notdefault`, west applies `group-filter`).
    public var defaultGroups: [String]?
    /// west `import:`s, recorded as `imports:` so they are followed whenever modkit.yml is read (module by source name until finished).
    public var imports: [ManifestImport] = []
    /// Files merged into the import beside the one named (repo's `.repo/local_manifests/*.xml`).
    public var mergedFiles: [String] = []

    public init(format: ImportFormat, source: String, modules: [ImportedModule] = [], defaultRevision: String? = nil, urlBase: String? = nil, warnings: [Diagnostic] = [], baseDirectory: URL? = nil) {
        self.format = format
        self.source = source
        self.modules = modules
        self.defaultRevision = defaultRevision
        self.urlBase = urlBase
        self.warnings = warnings
        self.baseDirectory = baseDirectory
    }
}

/// One input file with its lines, so every diagnostic can name `file:line` and quote the line.
struct ImportSource {
    let url: URL
    let displayPath: String
    let text: String
    let lines: SourceText

    init(url: URL, displayPath: String, text: String) {
        self.url = url
        self.displayPath = displayPath
        self.text = text
        lines = SourceText(text)
    }

    /// `name` resolved against `directory` when it stays inside it on the real file system (links followed), else nil: an include or
    /// import names files of the repository it comes from, so an absolute name or one that leads out is never read, nor echoed.
    static func inside(_ name: String, directory: URL) -> URL? {
        guard !name.hasPrefix("/"), case .success(let relative) = RelativePath.normalize(name) else { return nil }
        let url = relative.isEmpty ? directory : directory.appendingPathComponent(relative)
        guard let real = realpath(url.path, nil) else { return url }
        defer { free(real) }
        let resolved = String(cString: real)
        guard let base = realpath(directory.path, nil) else { return nil }
        defer { free(base) }
        let top = String(cString: base)
        return resolved == top || resolved.hasPrefix(top.hasSuffix("/") ? top : top + "/") ? url : nil
    }

    /// Reads `url` as UTF-8; an unreadable file is an input error, and so is a non-UTF-8 one, at the first byte that is not UTF-8.
    static func read(_ url: URL, displayPath: String) throws(ManifestError) -> ImportSource {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw ManifestError(diagnostics: [.error(exists ? "cannot read \(displayPath)" : "\(displayPath) does not exist")])
        }
        switch YAMLFileDiagnostics.text(of: [UInt8](data), displayPath: displayPath) {
        case .success(let text): return ImportSource(url: url, displayPath: displayPath, text: text)
        case .failure(let diagnostic): throw ManifestError(diagnostics: [diagnostic])
        }
    }

    func location(line: Int, column: Int = 1) -> SourceLocation {
        SourceLocation(file: displayPath, line: max(1, line), column: max(1, column))
    }

    func diagnostic(_ severity: Diagnostic.Severity, _ message: String, line: Int, column: Int = 1, hint: String? = nil) -> Diagnostic {
        Diagnostic(severity: severity, message: message, location: location(line: line, column: column), sourceLine: lines.line(line), hint: hint)
    }
}

/// Collects the diagnostics of one import: warnings are kept, any error makes the import fail.
struct ImportProblems {
    private(set) var warnings: [Diagnostic] = []
    private(set) var errors: [Diagnostic] = []

    mutating func warn(_ message: String, in source: ImportSource, line: Int, column: Int = 1, hint: String? = nil) {
        warnings.append(source.diagnostic(.warning, message, line: line, column: column, hint: hint))
    }

    mutating func warn(_ diagnostic: Diagnostic) { warnings.append(diagnostic) }

    mutating func error(_ message: String, in source: ImportSource, line: Int, column: Int = 1, hint: String? = nil) {
        errors.append(source.diagnostic(.error, message, line: line, column: column, hint: hint))
    }

    mutating func error(_ diagnostic: Diagnostic) { errors.append(diagnostic) }

    /// Throws every error at once, so one run shows all of them.
    func throwIfFailed() throws(ManifestError) {
        if !errors.isEmpty { throw ManifestError(diagnostics: errors) }
    }
}

/// Revisions as other tools write them, made into what `modkit.yml` expects.
enum ImportedRevision {
    /// `refs/heads/main` → `main`; anything else unchanged, so `refs/tags/v1` still says it is a tag when exported again.
    static func normalize(_ revision: String) -> String {
        revision.hasPrefix("refs/heads/") ? String(revision.dropFirst("refs/heads/".count)) : revision
    }

    /// True for a full 40-hex commit id.
    static func isCommit(_ revision: String) -> Bool {
        revision.count == 40 && revision.allSatisfy(\.isHexDigit)
    }
}
