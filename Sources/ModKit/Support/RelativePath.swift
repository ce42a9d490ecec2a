/// Normalises paths written in the manifest, relative to the workspace root.
public enum RelativePath {
    public enum Problem: Error, Sendable, Equatable {
        case empty, absolute, escapes
    }

    /// `Libs/./Core/` → `Libs/Core`; `a/../b` → `b`; an absolute path (`/x`, `~/x`) or one that climbs above the root is a problem; `.` normalises to "".
    public static func normalize(_ path: String) -> Result<String, Problem> {
        if path.isEmpty { return .failure(.empty) }
        if path.hasPrefix("/") || path.hasPrefix("~") { return .failure(.absolute) }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return .failure(.escapes) }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return .success(parts.joined(separator: "/"))
    }

    /// True when `inner` equals `outer` or lies below it (both normalised).
    public static func isInside(_ inner: String, _ outer: String) -> Bool {
        if outer.isEmpty || inner == outer { return true }
        // Byte comparison without building `outer + "/"`: the manifest check runs this for every pair of modules.
        let innerBytes = inner.utf8, outerBytes = outer.utf8
        guard innerBytes.count > outerBytes.count, innerBytes.starts(with: outerBytes) else { return false }
        return innerBytes[innerBytes.index(innerBytes.startIndex, offsetBy: outerBytes.count)] == UInt8(ascii: "/")
    }

    /// Everything before the last `/` (trailing slashes ignored): `Libs/Core` → `Libs`, `A` → "", `/A` → "/". Never traps, unlike NSString.
    public static func parent(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        if slash == text.startIndex { return "/" }
        return String(text[..<slash])
    }

    /// The part after the last `/` (trailing slashes ignored): `Libs/Core/` → `Core`, `A` → `A`.
    public static func lastComponent(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/"), text.count > 1 else { return String(text) }
        return String(text[text.index(after: slash)...])
    }

    /// `name` without its last `.extension`: `t.git` → `t`, `.hidden` stays.
    public static func deletingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Why `value` cannot be a module's directory (the rules of modkit.yml, for every file that names module paths), or its normal form.
    public static func modulePath(_ value: String) -> Result<String, ModulePathProblem> {
        switch normalize(value) {
        case .failure(.absolute):
            return .failure(ModulePathProblem(message: "module path '\(value)' is absolute", hint: "write it relative to the workspace root (the directory of modkit.yml)"))
        case .failure(.escapes):
            return .failure(ModulePathProblem(message: "module path '\(value)' escapes the workspace", hint: "modules must lie below the directory of modkit.yml"))
        case .failure(.empty), .success(""):
            return .failure(ModulePathProblem(message: "module path '\(value)' is the workspace root", hint: "give the module a directory of its own below the workspace root"))
        case .success(let path):
            let first = path.prefix { $0 != "/" }
            if first == ".modkit" || first == ".git" || path.split(separator: "/").contains(".git") {
                return .failure(ModulePathProblem(message: "module path '\(value)' lies inside the private directory '\(first == ".modkit" ? ".modkit" : ".git")'", hint: "choose another directory"))
            }
            return .success(path)
        }
    }
}

/// A module path that cannot be used, with what to do.
public struct ModulePathProblem: Error, Sendable, Equatable {
    public var message: String
    public var hint: String
}
