import Foundation
import GitKit

/// Reads `.gitmodules` and the superproject's gitlinks: every submodule becomes a repository module at its path.
enum SubmoduleImporter {
    /// Keys of a `[submodule]` section that map onto the manifest.
    static let carriedKeys: Set<String> = ["path", "url", "branch", "update"]

    /// One `[submodule "name"]` section, gathered.
    private struct Section {
        var name: String
        var line: Int
        var values: [String: GitConfigEntry] = [:]
        var others: [GitConfigEntry] = []
    }

    /// The superproject beside `.gitmodules`: the commits its HEAD records and what relative urls and `branch = .` follow.
    private struct Superproject {
        let directory: URL
        let repository: Repository?
        /// The commit HEAD records at each gitlink path.
        private(set) var recorded: [String: OID] = [:]
        /// Whether HEAD's gitlinks could be read (a repository with a commit).
        private(set) var gitlinksRead = false
        /// What relative submodule urls resolve against: the superproject's remote, else its directory.
        let remoteURL: String
        let currentBranch: String?

        init(beside source: ImportSource) {
            directory = source.url.deletingLastPathComponent().standardizedFileURL
            repository = Repository.isRepository(directory.path) ? try? Repository.open(directory.path) : nil
            if let repository, let links = try? repository.gitlinks(at: "HEAD") {
                gitlinksRead = true
                for link in links { recorded[link.path] = link.commit }
            }
            remoteURL = repository.flatMap(superprojectRemoteURL) ?? directory.path
            currentBranch = repository.flatMap { repo in
                if case .branch(let name, _)? = try? repo.head() { return name }
                return nil
            }
        }

        /// Why no recorded commits are known; nil when they are.
        var unreadGitlinks: String? {
            guard !gitlinksRead else { return nil }
            return repository == nil ? "\(directory.path) is not the root of a git repository" : "the superproject has no commit yet"
        }
    }

    static func read(_ source: ImportSource, exact: Bool) throws(ManifestError) -> ImportResult {
        var problems = ImportProblems()
        let config: GitConfigParser
        do {
            config = try GitConfigParser(source.text)
        } catch {
            throw ManifestError(diagnostics: [source.diagnostic(.error, "invalid git config: \(error.message)", line: error.line, column: error.column)])
        }
        let sections = gatherSections(config, source: source, problems: &problems)
        let superproject = Superproject(beside: source)
        if let why = superproject.unreadGitlinks {
            if exact {
                problems.error(Diagnostic.error("--exact needs the commits the superproject records, but \(why)",
                                                at: source.location(line: 1), hint: "import next to a committed superproject, or drop --exact"))
            } else {
                problems.warn(Diagnostic(severity: .warning, message: "\(why); the recorded submodule commits are not noted",
                                         location: source.location(line: 1)))
            }
        }
        let modules = sections.compactMap { section in
            module(of: section, superproject: superproject, exact: exact, source: source, problems: &problems)
        }
        let claimed = Set(modules.map(\.path))
        for (path, commit) in superproject.recorded.sorted(by: { $0.key < $1.key }) where !claimed.contains(path) {
            problems.warn(Diagnostic(severity: .warning,
                                     message: "the superproject records a submodule commit at '\(path)' (\(commit.short)) that .gitmodules does not list; no url known, not imported",
                                     location: source.location(line: 1)))
        }
        try problems.throwIfFailed()
        return ImportResult(format: .submodules, source: source.displayPath, modules: modules, warnings: problems.warnings,
                            baseDirectory: superproject.directory)
    }

    /// The `[submodule "name"]` sections in the order they first appear, each with its entries; other sections are warned about.
    private static func gatherSections(_ config: GitConfigParser, source: ImportSource, problems: inout ImportProblems) -> [Section] {
        var sections: [Section] = []
        // Each section by name, so a .gitmodules of thousands of submodules is read in one pass.
        var sectionIndex: [String: Int] = [:]
        for header in config.sections {
            if header.section == "submodule", let name = header.subsection {
                if sectionIndex[name] == nil {
                    sectionIndex[name] = sections.count
                    sections.append(Section(name: name, line: header.line))
                }
            } else {
                problems.warn("section [\(header.section)\(header.subsection.map { " \"\($0)\"" } ?? "")] is not about a submodule; not carried over",
                              in: source, line: header.line)
            }
        }
        for entry in config.entries where entry.section == "submodule" {
            guard let name = entry.subsection, let index = sectionIndex[name] else { continue }
            if carriedKeys.contains(entry.key) {
                sections[index].values[entry.key] = entry
            } else {
                sections[index].others.append(entry)
            }
        }
        return sections
    }

    /// The module of one section, or nil (reported) when it has no path or no url; what it cannot carry over is warned about.
    private static func module(of section: Section, superproject: Superproject, exact: Bool, source: ImportSource,
                               problems: inout ImportProblems) -> ImportedModule? {
        let called = "submodule '\(section.name)'"
        guard let pathEntry = section.values["path"], !pathEntry.value.isEmpty else {
            problems.error("\(called) has no 'path'", in: source, line: section.line, hint: "add 'path = DIR' to the section")
            return nil
        }
        guard let urlEntry = section.values["url"], !urlEntry.value.isEmpty else {
            problems.error("\(called) has no 'url'", in: source, line: section.line, hint: "add 'url = …' to the section")
            return nil
        }
        let path = pathEntry.value
        var url = urlEntry.value
        if RelativeURL.isGitRelative(url) { url = RelativeURL.resolveGit(url, against: superproject.remoteURL) }

        var module = ImportedModule(sourceName: section.name, url: url, path: path,
                                    location: source.location(line: section.line))
        let branch = followedBranch(section, called: called, currentBranch: superproject.currentBranch, source: source, problems: &problems)
        let commit = superproject.recorded[path]
        if exact {
            if let commit {
                module.revision = commit.hex
                if let branch { module.notes.append("branch = \(branch) in .gitmodules") }
            } else if superproject.gitlinksRead {
                problems.warn("\(called): the superproject records no commit at '\(path)'; \(branch.map { "using branch '\($0)'" } ?? "following the remote's default branch")",
                              in: source, line: pathEntry.line, column: pathEntry.column)
                module.revision = branch
            }
        } else {
            module.revision = branch
            if let commit { module.notes.append("recorded commit \(commit.hex)") }
        }
        if let entry = section.values["update"] {
            warnUpdate(entry, called: called, source: source, problems: &problems)
        }
        for entry in section.others {
            problems.warn("\(called): '\(entry.key) = \(entry.value)' is not carried over", in: source, line: entry.line, column: entry.column,
                          hint: hint(forKey: entry.key))
        }
        if let repository = superproject.repository {
            checkWorkingCopy(of: module, name: section.name, recorded: commit, superproject: superproject.directory,
                             repository: repository, declaredURL: urlEntry, source: source, problems: &problems)
        }
        return module
    }

    /// `branch =`, where `.` is the superproject's current branch (none, warned about, when its HEAD is detached).
    private static func followedBranch(_ section: Section, called: String, currentBranch: String?, source: ImportSource,
                                       problems: inout ImportProblems) -> String? {
        guard let entry = section.values["branch"] else { return nil }
        guard entry.value == "." else { return entry.value }
        if let currentBranch { return currentBranch }
        problems.warn("\(called): 'branch = .' follows the superproject's branch, but HEAD is detached; no branch carried over",
                      in: source, line: entry.line, column: entry.column)
        return nil
    }

    /// The url relative submodule urls resolve against: the remote of the current branch, else `origin`.
    private static func superprojectRemoteURL(_ repository: Repository) -> String? {
        var remote = "origin"
        if case .branch(let name, _)? = try? repository.head(), let configured = try? repository.configString("branch.\(name).remote") {
            remote = configured
        }
        return (try? repository.remoteURL(remote)) ?? nil
    }

    private static func warnUpdate(_ entry: GitConfigEntry, called: String, source: ImportSource, problems: inout ImportProblems) {
        switch entry.value {
        case "checkout": return
        case "none":
            problems.warn("\(called): 'update = none' is not carried over; modkit sync will clone and update this module",
                          in: source, line: entry.line, column: entry.column, hint: "leave it out of a sync with 'modkit sync -g GROUP' and groups")
        default:
            problems.warn("\(called): 'update = \(entry.value)' is not carried over; modkit sync checks out the manifest revision (and never drops local work)",
                          in: source, line: entry.line, column: entry.column)
        }
    }

    private static func hint(forKey key: String) -> String? {
        switch key {
        case "shallow": "modkit clones full history"
        case "ignore": "'modkit status' always shows every change"
        case "fetchrecursesubmodules": "modkit does not recurse into submodules of modules"
        default: nil
        }
    }

    /// Warns when the checked-out submodule differs from what the superproject records, or brings submodules of its own.
    private static func checkWorkingCopy(of module: ImportedModule, name: String, recorded: OID?, superproject: URL, repository: Repository,
                                         declaredURL: GitConfigEntry, source: ImportSource, problems: inout ImportProblems) {
        let called = "submodule '\(name)'"
        if let configured = try? repository.configString("submodule.\(name).url"), configured != declaredURL.value, configured != module.url {
            problems.warn("\(called): .git/config has url '\(configured)', .gitmodules has '\(declaredURL.value)'; importing the one from .gitmodules",
                          in: source, line: declaredURL.line, column: declaredURL.column, hint: "'git submodule sync' makes them agree")
        }
        let directory = superproject.appendingPathComponent(module.path)
        guard Repository.isRepository(directory.path), let checkout = try? Repository.open(directory.path) else { return }
        if let recorded, let head = try? checkout.head() {
            let current: OID? = switch head {
            case .branch(_, let commit): commit
            case .detached(let commit): commit
            case .unborn: nil
            }
            if let current, current != recorded {
                problems.warn(Diagnostic(severity: .warning,
                                         message: "\(called) is checked out at \(current.short), but the superproject records \(recorded.short); the manifest uses the recorded commit",
                                         location: module.location, sourceLine: module.location.flatMap { source.lines.line($0.line) },
                                         hint: "commit the new gitlink first ('git add \(module.path)') if \(current.short) is what you ship"))
            }
        }
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent(".gitmodules").path) {
            problems.warn(Diagnostic(severity: .warning,
                                     message: "\(called) has submodules of its own (\(module.path)/.gitmodules); they are not imported",
                                     location: module.location, sourceLine: module.location.flatMap { source.lines.line($0.line) },
                                     hint: "run 'modkit init --import \(module.path)/.gitmodules' in a workspace of its own, or add them by hand"))
        }
    }
}
