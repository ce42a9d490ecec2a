/// The forms a module `url:` may take, told apart the way git tells them apart.
enum ModuleURL: Equatable {
    /// `scheme://…`, including `file://`.
    case remote
    /// `[user@]host:path`.
    case scpLike
    /// `/path`.
    case absolutePath
    /// `./path` or `../path`.
    case relativePath
    /// `Core.git` or `ios/Core.git`: joined to `url-base`.
    case relativeName
    case invalid(String)

    static func classify(_ url: String) -> ModuleURL {
        if url.isEmpty { return .invalid("it is empty") }
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            return .invalid("it contains white space")
        }
        if let range = url.range(of: "://") {
            let scheme = url[..<range.lowerBound]
            let rest = url[range.upperBound...]
            guard let first = scheme.unicodeScalars.first, isLetter(first),
                  scheme.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) })
            else { return .invalid("'\(scheme)' is not a url scheme") }
            if scheme.lowercased() == "file" {
                return rest.isEmpty ? .invalid("it names no path") : .remote
            }
            let host = rest.prefix { $0 != "/" }
            let hostName = host.split(separator: "@").last.map(String.init) ?? ""
            return hostName.isEmpty ? .invalid("it names no host") : .remote
        }
        if url.hasPrefix("/") { return .absolutePath }
        if url.hasPrefix("./") || url.hasPrefix("../") || url == "." || url == ".." { return .relativePath }
        if let colon = url.firstIndex(of: ":") {
            // git reads "host:path" as scp-like ssh when no slash comes before the colon.
            let host = url[..<colon]
            let path = url[url.index(after: colon)...]
            if host.contains("/") { return .relativeName }
            let userAndHost = host.split(separator: "@", omittingEmptySubsequences: false)
            if userAndHost.count > 2 || userAndHost.contains(where: \.isEmpty) { return .invalid("it names no host before ':'") }
            if knownSchemes.contains(host.lowercased()), !path.hasPrefix("//") {
                return .invalid("'\(host):' lacks '//' after the scheme")
            }
            if path.isEmpty { return .invalid("it names no path after ':'") }
            return .scpLike
        }
        return .relativeName
    }

    private static let knownSchemes: Set<String> = ["http", "https", "ssh", "git", "file", "ftp", "ftps"]

    private static func isLetter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }
}
