import Foundation

/// A remote url taken apart: `scheme://user:password@host:port/path` or scp-like `user@host:path`.
struct RemoteURL: Equatable {
    var scheme: String
    var user: String?
    var password: String?
    var host: String
    var port: Int?
    var path: String
    /// Written as `user@host:path` (ssh with a path relative to the login directory unless it starts with "/").
    var isSCPLike = false

    var isSSH: Bool { scheme == "ssh" }
    var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// Parses the forms git accepts for network remotes; nil for local paths and file:// urls.
    static func parse(_ text: String) -> RemoteURL? {
        if let range = text.range(of: "://") {
            var scheme = text[..<range.lowerBound].lowercased()
            if scheme == "git+ssh" || scheme == "ssh+git" { scheme = "ssh" }
            guard scheme != "file" else { return nil }
            var rest = text[range.upperBound...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<slash]
            rest = rest[slash...]
            var url = RemoteURL(scheme: scheme, host: "", path: String(rest))
            if let at = authority.lastIndex(of: "@") {
                let info = authority[..<at]
                if let colon = info.firstIndex(of: ":") {
                    url.user = String(info[..<colon]).removingPercentEncoding
                    url.password = String(info[info.index(after: colon)...]).removingPercentEncoding
                } else {
                    url.user = String(info).removingPercentEncoding
                }
                authority = authority[authority.index(after: at)...]
            }
            if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                url.host = String(authority[authority.index(after: authority.startIndex)..<close])
                let after = authority[authority.index(after: close)...]
                if after.hasPrefix(":") { url.port = Int(after.dropFirst()) }
            } else if let colon = authority.lastIndex(of: ":") {
                url.host = String(authority[..<colon])
                url.port = Int(authority[authority.index(after: colon)...])
            } else {
                url.host = String(authority)
            }
            return url.host.isEmpty ? nil : url
        }
        // scp-like: [user@]host:path, where no slash comes before the colon.
        guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/"), text.distance(from: text.startIndex, to: colon) > 1 else {
            return nil
        }
        var hostPart = text[..<colon]
        var url = RemoteURL(scheme: "ssh", host: "", path: String(text[text.index(after: colon)...]), isSCPLike: true)
        if let at = hostPart.lastIndex(of: "@") {
            url.user = String(hostPart[..<at])
            hostPart = hostPart[hostPart.index(after: at)...]
        }
        url.host = hostPart.hasPrefix("[") && hostPart.hasSuffix("]") ? String(hostPart.dropFirst().dropLast()) : String(hostPart)
        return url.host.isEmpty ? nil : url
    }

    /// The url as text; with `secrets` false the password is left out.
    func string(secrets: Bool = false) -> String {
        var userInfo = ""
        if let user {
            userInfo = user
            if secrets, let password { userInfo += ":" + password }
            userInfo += "@"
        }
        if isSCPLike && port == nil { return "\(userInfo)\(host):\(path)" }
        let hostText = host.contains(":") ? "[\(host)]" : host
        var path = self.path
        if isSCPLike && !path.hasPrefix("/") { path = "/~/" + path }
        return "\(scheme)://\(userInfo)\(hostText)\(port.map { ":\($0)" } ?? "")\(path)"
    }

    /// The url with any password removed, for messages.
    var redacted: String { string(secrets: false) }

    /// "host" or "host:port", as git credential helpers and known_hosts see the server.
    var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }
}

/// Removes `user:password@` from every url in `text`, for libgit2 messages that may echo a url.
public func redactingSecrets(_ text: String) -> String {
    guard text.contains("://"), text.contains("@") else { return text }
    var result = ""
    var rest = Substring(text)
    while let scheme = rest.range(of: "://") {
        result += rest[..<scheme.upperBound]
        rest = rest[scheme.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == " " || $0 == "'" || $0 == "\"" } ?? rest.endIndex
        let authority = rest[..<end]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            result += authority[..<colon] + "@"
            rest = rest[rest.index(after: at)...]
        }
    }
    return result + rest
}

extension GitKit {
    /// Whether git would reach `url` over ssh (`ssh://…` or scp-like `host:path`).
    public static func isSSHURL(_ url: String) -> Bool { RemoteURL.parse(url)?.isSSH ?? false }

    /// What git gives ssh to reach the server of an ssh url: the destination (`user@host` or `host`, an IPv6 address
    /// without its brackets) and the port, when the url names one. nil for any other url, and for a host that ssh would
    /// read as an option (git refuses those).
    public static func sshDestination(of url: String) -> (destination: String, port: Int?)? {
        guard let parsed = RemoteURL.parse(url), parsed.isSSH, !parsed.host.hasPrefix("-"),
              !(parsed.user ?? "").hasPrefix("-") else { return nil }
        return ((parsed.user.map { $0 + "@" } ?? "") + parsed.host, parsed.port)
    }

    /// The path of a repository git reads from this machine's file system: `file:///srv/x.git` or `/srv/x.git`;
    /// nil for any other url.
    public static func localPath(of url: String) -> String? {
        if url.hasPrefix("file://") { return String(url.dropFirst("file://".count)) }
        return url.hasPrefix("/") ? url : nil
    }
}
