/// Reduces a git repository URL to `host/path` so that HTTPS, SSH and scp-style spellings of one repository compare equal.
///
/// `https://git.example.com/ios/Core.git`, `git@git.example.com:ios/Core` and
/// `ssh://git@git.example.com:22/ios/Core.git/` all become `git.example.com/ios/Core`:
/// scheme, user, password and port are dropped, the host is lowercased, the path keeps
/// its case and loses a trailing `/` and `.git`. Local paths and `file://` URLs become
/// the bare path without a trailing `/` or `.git`.
public func canonicalRepositoryURL(_ url: String) -> String {
    let text = Substring(url).trimmingWhitespace()
    var host: Substring = ""
    var path: Substring
    if let schemeEnd = text.firstRange(of: "://") {
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let rest = text[schemeEnd.upperBound...]
        if scheme == "file" {
            path = rest
        } else {
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            host = stripUserAndPort(rest[..<slash])
            path = rest[slash...]
        }
    } else if let colon = text.firstIndex(of: ":"),
              !text[..<colon].contains("/"), text.distance(from: text.startIndex, to: colon) > 1 {
        host = stripUserAndPort(text[..<colon], dropPort: false)
        path = text[text.index(after: colon)...]
    } else {
        path = text
    }
    var cleaned = trimSlashes(path, keepLeading: host.isEmpty)
    if cleaned.lowercased().hasSuffix(".git") { cleaned = cleaned.dropLast(4) }
    cleaned = trimSlashes(cleaned, keepLeading: host.isEmpty)
    let collapsed = cleaned.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    let leading = host.isEmpty && cleaned.hasPrefix("/") ? "/" : ""
    return host.isEmpty ? leading + collapsed : host.lowercased() + "/" + collapsed
}

/// The SwiftPM-style identity of a package location: its last path component, lowercased, without `.git`.
public func packageIdentity(forLocation location: String) -> String {
    packageIdentity(ofCanonical: canonicalRepositoryURL(location))
}

/// The identity of a location already reduced by `canonicalRepositoryURL`, for callers that need both.
func packageIdentity(ofCanonical canonical: String) -> String {
    let last = canonical.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? canonical
    return last.lowercased()
}

private func stripUserAndPort(_ authority: Substring, dropPort: Bool = true) -> Substring {
    var result = authority
    if let at = result.lastIndex(of: "@") { result = result[result.index(after: at)...] }
    if dropPort, !result.hasPrefix("["), let colon = result.lastIndex(of: ":") { result = result[..<colon] }
    return result
}

private func trimSlashes(_ path: Substring, keepLeading: Bool) -> Substring {
    var result = path
    while result.hasSuffix("/") { result = result.dropLast() }
    if !keepLeading { while result.hasPrefix("/") { result = result.dropFirst() } }
    return result
}

extension Substring {
    /// The substring without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
