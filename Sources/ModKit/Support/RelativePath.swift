import Foundation
import YAMLKit

/// Normalises paths written in the manifest, relative to the workspace root.
public enum RelativePath {
    /// `file` relative to `root`, as every JSON report gives paths ("." for the root itself); its absolute path when it lies outside.
    public static func of(_ file: URL, under root: URL) -> String {
        let base = root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        if path == base { return "." }
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }

    public enum Problem: Error, Sendable, Equatable {
        case empty, absolute, escapes
        /// A C0 control character or DEL: a NUL cuts the path short for every system call, and the others hide in terminals and scripts.
        case control(Unicode.Scalar)
    }

    /// `Libs/./Core/` → `Libs/Core`; `a/../b` → `b`; an absolute path (`/x`, `~/x`), one that climbs above the root or one with a control
    /// character is a problem; `.` normalises to "".
    public static func normalize(_ path: String) -> Result<String, Problem> {
        if path.isEmpty { return .failure(.empty) }
        if let control = path.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) { return .failure(.control(control)) }
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
        case .failure(.control(let scalar)):
            return .failure(ModulePathProblem(message: "module path \"\(StringEscaping.yamlDoubleQuoted(value))\" holds the control character \(describe(scalar))",
                                              hint: "a path may not hold control characters (U+0000 to U+001F) or DEL"))
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

extension RelativePath {
    /// `U+0000 (NUL)`: a control character named for a message, since printing it would hide it or cut the message.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let names = ["NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF", "CR", "SO", "SI",
                     "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"]
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let name = scalar.value < 0x20 ? names[Int(scalar.value)] : scalar.value == 0x7F ? "DEL" : nil
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + (name.map { " (\($0))" } ?? "")
    }
}

/// A module path that cannot be used, with what to do.
public struct ModulePathProblem: Error, Sendable, Equatable {
    public var message: String
    public var hint: String
}
