import Foundation

/// Where a module path really leads, looked at on disk component by component, so that a committed symbolic link (`Vendor -> ..`,
/// `Vendor -> /tmp`) cannot carry a clone, a command or a write out of the workspace; every link is refused, even one that stays
/// inside, since it could lead into `.git`, `.modkit` or another module where the checks on written paths cannot see it.
public enum ContainedPath {
    /// Why a path cannot be used, with what to do.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var hint: String
    }

    /// nil when every existing component of `relative` (normalised, below `root`) is a directory that is not a link, the last one
    /// also a file or absent, and anything absent is created by modkit as a real directory; else why the path cannot be used.
    public static func problem(_ relative: String, in root: URL) -> Problem? {
        let rootPath = root.standardizedFileURL.path
        var current = rootPath
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        for (index, component) in components.enumerated() {
            let shown = components[...index].joined(separator: "/")
            current += (current.hasSuffix("/") ? "" : "/") + component
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return nil }
                return Problem(message: "module path '\(relative)' cannot be looked at: '\(shown)': \(String(cString: strerror(errno)))",
                               hint: "make '\(shown)' readable, or choose another path")
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                continue
            case S_IFLNK:
                return linkProblem(relative, link: current, shown: shown, root: rootPath)
            default:
                if index == components.count - 1 { return nil }
                return Problem(message: "module path '\(relative)' lies under '\(shown)', which is a file, not a directory",
                               hint: "move '\(shown)' away, or choose another path")
            }
        }
        return nil
    }

    /// Why the link at `link` (`shown` from the root) cannot be part of a module path: it leads nowhere, outside, or elsewhere inside.
    private static func linkProblem(_ relative: String, link: String, shown: String, root: String) -> Problem {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? "?"
        let subject = relative == shown ? "module path '\(relative)' is" : "module path '\(relative)' lies under '\(shown)',"
        let hint = "a module's directory and the directories above it must be real directories; remove the link '\(shown)' or choose another path"
        guard let resolved = realPath(link) else {
            return Problem(message: "\(subject) a symbolic link to '\(target)', which does not exist", hint: hint)
        }
        let realRoot = realPath(root) ?? root
        if resolved != realRoot && !resolved.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") {
            return Problem(message: "\(subject) a symbolic link to '\(target)', which leads outside the workspace", hint: hint)
        }
        return Problem(message: "\(subject) a symbolic link to '\(target)'", hint: hint)
    }

    /// The path with every link resolved, or nil when it leads nowhere.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension Workspace {
    /// Refuses (every problem at once, each at the module's `path:` in modkit.yml) modules whose path leads through a symbolic link;
    /// each command that writes to or runs in module directories calls this before doing anything.
    public func checkContained(_ modules: [Module]) throws(ManifestError) {
        let diagnostics = modules.compactMap { module -> Diagnostic? in
            guard let problem = ContainedPath.problem(module.path, in: root) else { return nil }
            return .error(problem.message, at: module.pathLocation ?? module.location, hint: problem.hint)
        }
        if !diagnostics.isEmpty { throw ManifestError(diagnostics: diagnostics) }
    }
}
