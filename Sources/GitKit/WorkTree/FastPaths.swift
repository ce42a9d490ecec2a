internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The one policy that says where GitKit may do git's work itself and where git must do it, because only git gives
/// git's result there. GitKit's own ways are: `MoveWriter` (a move's work tree, with libgit2's filters: `text`,
/// `eol`, `core.autocrlf`, `ident`), libgit2's checkout of a new clone, and libgit2's status. git does the work when:
/// - `MODKIT_FAST_PATHS` is `0`/`false`/`off`/`no`, or `git config modkit.fastPaths false` (the off switch);
/// - an attribute names a `filter` (Git LFS and every other filter driver run only in git) or a
///   `working-tree-encoding` (libgit2 writes such files unconverted);
/// - the repository is a sparse checkout, or its index has skip-worktree, assume-unchanged or intent-to-add entries;
/// - a path the move writes is not plain ASCII (composed and decomposed spellings are one name to a Swift string and
///   two to git; a name that is not UTF-8 has no string at all).
/// Hooks are not a reason: every move runs the hooks of the git command it stands for (`GitHook`).
public enum FastPaths {
    /// Whether the fast paths are on for `repository` (the off switch, nothing else).
    public static func enabled(in repository: Repository, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isOn(configured: repository.configBools(["modkit.fastPaths"])["modkit.fastPaths"], environment: environment)
    }

    /// The one reading of the off switch: `MODKIT_FAST_PATHS` set to a false value turns it off, else `modkit.fastPaths`
    /// as git parses a boolean (nil: unset, on).
    static func isOn(configured: Bool?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let value = environment["MODKIT_FAST_PATHS"], gitBoolean(value) == false { return false }
        return configured ?? true
    }

    /// A config value as git reads a boolean (`yes`/`on`/`true`/`1`, `no`/`off`/`false`/`0`, any other number);
    /// nil when it is none. libgit2 parses it, so it is initialised first: the first call of a process may be this one
    /// (a switch set in the environment, `GitKit.switchIsOn`), and libgit2's error state does not exist before.
    static func gitBoolean(_ text: String) -> Bool? {
        GitKit.ensureInitialized()
        var value: Int32 = 0
        defer { git_error_clear() }
        return git_config_parse_bool(&value, text) == 0 ? value != 0 : nil
    }

    /// Whether the fast paths are on before any repository exists (a new clone): the environment and the user's
    /// global configuration.
    public static func enabledGlobally() -> Bool { globally }

    /// Read once per process: neither the environment nor the user's configuration changes during a run.
    private static let globally = isOn(configured: GitKit.globalConfigString("modkit.fastPaths").flatMap(gitBoolean))

    /// The settings a move (or a status) reads, from one configuration snapshot.
    struct MoveSettings {
        var fastPaths = true
        var attributesFile: String?
        /// `core.hooksPath` as configured.
        var hooksPath: String?

        init(_ repository: Repository) {
            let values = repository.configStrings(["modkit.fastPaths", "core.attributesFile", "core.hooksPath"])
            // The repository's view of the configuration holds the user's global setting too.
            fastPaths = FastPaths.isOn(configured: values["modkit.fastPaths"].flatMap(FastPaths.gitBoolean))
            attributesFile = values["core.attributesFile"]
            hooksPath = values["core.hooksPath"]
        }
    }

    /// Why git must write `plan`'s work tree; nil when `MoveWriter` gives git's result.
    static func moveNeedsGit(_ repository: Repository, _ plan: MovePlan, settings: MoveSettings) -> String? {
        guard GitCommand.isAvailable else { return nil }
        if !settings.fastPaths { return "fast paths are off (modkit.fastPaths)" }
        if let name = plan.changes.first(where: { !$0.path.isPlainASCII })?.path {
            return "the path \(name.debugDescription) is not plain ASCII"
        }
        if plan.isSparse { return "the repository is a sparse checkout" }
        let attributes = plan.changes.filter { $0.path.isAttributesFile }.compactMap(\.new?.oid)
        return indexNeedsGit(repository, alsoReading: attributes, attributesFile: settings.attributesFile)
    }

    /// Why git must write the first work tree of a new clone at `commit`; nil when libgit2's checkout gives git's result.
    public static func checkoutNeedsGit(_ repository: Repository, commit: OID) -> String? {
        guard GitCommand.isAvailable else { return nil }
        if !enabled(in: repository) { return "fast paths are off (modkit.fastPaths)" }
        guard let changes = try? repository.changes(from: nil, to: commit) else { return "its tree could not be read" }
        if let name = changes.first(where: { !$0.path.isPlainASCII })?.path { return "the path \(name.debugDescription) is not plain ASCII" }
        if (try? SparseCheckout(repository)) != nil { return "the repository is a sparse checkout" }
        let blobs = changes.filter { $0.path.isAttributesFile }.compactMap(\.new?.oid)
        let configured = repository.configStrings(["core.attributesFile"])["core.attributesFile"]
        return attributesNeedGit(repository, blobs: blobs, files: globalAttributeFiles(repository, configured: configured))
    }

    /// Why git must answer what changed in the work tree; nil when libgit2's status gives git's answer.
    /// A sparse checkout shows in the index (skip-worktree entries); one whose patterns take every file answers as any other.
    static func statusNeedsGit(_ repository: Repository) -> String? {
        guard GitCommand.isAvailable, repository.workdir != nil else { return nil }
        let settings = MoveSettings(repository)
        if !settings.fastPaths { return "fast paths are off (modkit.fastPaths)" }
        return indexNeedsGit(repository, alsoReading: [], attributesFile: settings.attributesFile)
    }

    /// The index's entries (their flags and `.gitattributes` files, as committed and as in the work tree) and the
    /// repository's and user's attribute files, with `blobs` (attribute files a move brings).
    private static func indexNeedsGit(_ repository: Repository, alsoReading blobs: [OID], attributesFile: String?) -> String? {
        guard let index = try? repository.openIndex(), git_index_read(index.pointer, 0) == 0 else {
            git_error_clear()
            return "its index could not be read"
        }
        var attributeBlobs = blobs
        var files = globalAttributeFiles(repository, configured: attributesFile)
        let special = UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue | GIT_INDEX_ENTRY_INTENT_TO_ADD.rawValue)
        for position in 0..<git_index_entrycount(index.pointer) {
            guard let entry = git_index_get_byindex(index.pointer, position) else { continue }
            if entry.pointee.flags_extended & special != 0 { return "its index has skip-worktree or intent-to-add entries" }
            if entry.pointee.flags & UInt16(GIT_INDEX_ENTRY_VALID.rawValue) != 0 { return "its index has assume-unchanged entries" }
            // Names are looked at as C strings: most entries are not attribute files, and need no Swift string.
            guard isAttributesFile(entry.pointee.path) else { continue }
            attributeBlobs.append(OID(entry.pointee.id))
            if let workdir = repository.workdir { files.append(workdir + "/" + String(cString: entry.pointee.path)) }
        }
        return attributesNeedGit(repository, blobs: attributeBlobs, files: files)
    }

    /// `$GIT_DIR/info/attributes`, `core.attributesFile` (else `$XDG_CONFIG_HOME/git/attributes`) and the system's.
    private static func globalAttributeFiles(_ repository: Repository, configured: String?) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var files = [repository.directory.infoAttributes, "/etc/gitattributes"]
        if let configured {
            files.append(configured.hasPrefix("~/") ? (environment["HOME"] ?? "") + configured.dropFirst(1) : configured)
        } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            files.append(xdg + "/git/attributes")
        } else if let home = environment["HOME"] {
            files.append(home + "/.config/git/attributes")
        }
        return files
    }

    private static let attributesSuffix = Array("/.gitattributes".utf8)

    /// `.gitattributes` or `…/.gitattributes`, read from the C string in place.
    private static func isAttributesFile(_ path: UnsafePointer<CChar>) -> Bool {
        let length = strlen(path)
        let suffix = attributesSuffix
        guard length >= suffix.count - 1 else { return false }
        let bytes = UnsafeRawPointer(path).assumingMemoryBound(to: UInt8.self)
        for offset in 1..<suffix.count where bytes[length - suffix.count + offset] != suffix[offset] { return false }
        return length == suffix.count - 1 || bytes[length - suffix.count] == UInt8(ascii: "/")
    }

    /// A small file's bytes through one `open`/`read` (most of these files do not exist); nil when it cannot be read.
    private static func contents(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return count == 0 ? data : nil }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static func attributesNeedGit(_ repository: Repository, blobs: [OID], files: [String]) -> String? {
        for file in files {
            if let data = contents(file), let attribute = AttributeText.gitOnlyAttribute(in: data) {
                return "\(file) sets \(attribute)"
            }
        }
        guard !blobs.isEmpty, let database = try? ObjectDatabase(of: repository) else { return nil }
        for blob in blobs {
            guard let object = try? database.read(blob.gitOID) else { continue }
            let data = Data(bytes: git_odb_object_data(object.pointer), count: git_odb_object_size(object.pointer))
            if let attribute = AttributeText.gitOnlyAttribute(in: data) { return "a .gitattributes file sets \(attribute)" }
        }
        git_error_clear()
        return nil
    }
}

/// A scan of gitattributes text for the attributes only git applies.
enum AttributeText {
    /// `filter` or `working-tree-encoding` when a line sets either (to any value, or through an `[attr]` macro); nil otherwise.
    static func gitOnlyAttribute(in data: Data) -> String? {
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            guard let first = fields.first, first.first != UInt8(ascii: "#") else { continue }
            for field in fields.dropFirst() {
                let name = field.prefix { $0 != UInt8(ascii: "=") }
                guard field.first != UInt8(ascii: "-"), field.first != UInt8(ascii: "!") else { continue }
                if name.elementsEqual("filter".utf8) { return "filter" }
                if name.elementsEqual("working-tree-encoding".utf8) { return "working-tree-encoding" }
            }
        }
        return nil
    }
}

extension String {
    /// Only bytes below 0x80: a name that every file system and every string comparison takes as it is.
    var isPlainASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }

    /// `.gitattributes`, at the top or in any folder.
    var isAttributesFile: Bool { self == ".gitattributes" || hasSuffix("/.gitattributes") }
}
