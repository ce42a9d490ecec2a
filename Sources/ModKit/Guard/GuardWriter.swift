import Foundation

/// One guard file: where it goes, what it must contain, and how the file on disk compares.
public struct GuardFile: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case upToDate = "up to date"
        case stale
        case missing
    }

    public var language: GuardLanguage
    public var url: URL
    /// The text `modkit guard` writes.
    public var expected: String
    /// The text on disk, nil when the file does not exist.
    public var current: String?
    public var state: State

    /// What `modkit guard` does with the file: creates it (missing), updates it (stale), or leaves it (up to date).
    public var outcome: ModuleOutcome {
        switch state {
        case .upToDate: .upToDate
        case .stale: .updated
        case .missing: .created
        }
    }
}

/// The guard files of one module and their state; applying it writes only the files that change.
public struct GuardPlan: Sendable, Hashable {
    public var module: String
    public var directory: URL
    /// One file per guarded language, sorted by language.
    public var files: [GuardFile]

    /// Files that are stale or missing: what `--check` reports and `modkit guard` writes.
    public var changes: [GuardFile] { files.filter { $0.state != .upToDate } }
    public var isUpToDate: Bool { changes.isEmpty }
}

/// A guard file that could not be read.
public struct GuardReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "cannot read \(path): \(message)" }
}

/// Plans, renders and writes guard files; never prints, never touches a file whose content is already right.
public enum GuardWriter {
    /// The folder guard files go to: `generatedDir` (relative to the module, `{module}` replaced by its name), e.g. `Sources/{module}/Generated`.
    public static func directory(module: String, moduleDirectory: URL, generatedDir: String) -> URL {
        let path = generatedDir.replacingOccurrences(of: "{module}", with: module)
        if path.hasPrefix("/") { return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL }
        return moduleDirectory.appendingPathComponent(path, isDirectory: true).standardizedFileURL
    }

    /// Compares what `spec` generates in each of `languages` with the files on disk.
    public static func plan(_ spec: GuardSpec, moduleDirectory: URL, generatedDir: String = "Generated",
                            languages: Set<GuardLanguage> = Set(GuardLanguage.allCases)) throws -> GuardPlan {
        let directory = directory(module: spec.name, moduleDirectory: moduleDirectory, generatedDir: generatedDir)
        let files = try languages.sorted().map { language in
            let url = directory.appendingPathComponent(GuardGenerator.fileName(module: spec.name, language: language))
            let expected = GuardGenerator.text(for: spec, language: language)
            let current = try read(url)
            let state: GuardFile.State = current == nil ? .missing : current == Data(expected.utf8) ? .upToDate : .stale
            return GuardFile(language: language, url: url, expected: expected,
                             current: current.map { String(decoding: $0, as: UTF8.self) }, state: state)
        }
        return GuardPlan(module: spec.name, directory: directory, files: files)
    }

    /// Writes the stale and missing files of `plan` atomically, creating the folder if needed; returns the files written.
    ///
    /// After writing a Swift guard it returns only once the clock has entered the next whole second, so that the next
    /// build's modules are stamped later than any build started before: see `settle()`.
    @discardableResult
    public static func apply(_ plan: GuardPlan, settle: Bool = true) throws -> [GuardFile] {
        let changes = plan.changes
        var edits = EditSet()
        for file in changes { edits.update(file.url, settles: settle && file.language == .swift) { _ in file.expected } }
        try edits.apply()
        return changes
    }

    /// Waits until the wall clock is in a later whole second than now (at most one second).
    ///
    /// swift-driver skips recompiling a dependent when an imported module's modification time is not later than the
    /// dependent's previous build start, compared in whole seconds; a dependency rebuilt within that second leaves the
    /// dependent, and its guard check, uncompiled. Every build started before a guard is written started before this
    /// call, so every module built after it is stamped in a later second, and the driver recompiles the dependent.
    public static func settle() {
        let now = Date().timeIntervalSince1970
        Thread.sleep(forTimeInterval: now.rounded(.down) + 1 - now + 0.01)
    }

    /// What `apply` would do, as a unified diff per changed file; paths are shown relative to `base` when they lie inside it.
    public static func diff(_ plan: GuardPlan, relativeTo base: URL? = nil) -> String {
        plan.changes.map { file in
            let path = displayPath(file.url, relativeTo: base)
            return LineDiff.unified(old: file.current, new: file.expected, oldPath: "a/" + path, newPath: "b/" + path)
        }.joined()
    }

    /// `url`'s path relative to `base` when inside it, else the full path.
    public static func displayPath(_ url: URL, relativeTo base: URL?) -> String {
        let path = url.standardizedFileURL.path
        guard let base else { return path }
        let prefix = base.standardizedFileURL.path.hasSuffix("/") ? base.standardizedFileURL.path : base.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The bytes of `url`, nil when nothing is there; anything else unreadable is an error, never silently overwritten.
    static func read(_ url: URL) throws -> Data? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { throw GuardReadError(path: url.path, message: "is a directory") }
        do { return try Data(contentsOf: url) } catch {
            throw GuardReadError(path: url.path, message: (error as NSError).localizedDescription)
        }
    }
}
