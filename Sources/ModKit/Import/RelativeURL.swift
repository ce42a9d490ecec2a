/// Resolution of relative urls the way the tools being imported resolve them.
enum RelativeURL {
    /// True for `./x` and `../x`, the relative forms `.gitmodules` allows.
    static func isGitRelative(_ url: String) -> Bool {
        url.hasPrefix("./") || url.hasPrefix("../")
    }

    /// git's rule for a relative submodule url: each `../` strips one component of the superproject's remote url (a `/` or, for scp-like urls, a `:`), `./` strips none.
    static func resolveGit(_ url: String, against remote: String) -> String {
        var base = remote
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var rest = Substring(url)
        var colonSeparated = false
        while true {
            if rest.hasPrefix("../") {
                rest = rest.dropFirst(3)
                if let slash = base.lastIndex(of: "/") {
                    base = String(base[..<slash])
                } else if let colon = base.lastIndex(of: ":") {
                    base = String(base[..<colon])
                    colonSeparated = true
                } else {
                    base = ".."
                }
            } else if rest.hasPrefix("./") {
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        var result = base + (colonSeparated ? ":" : "/") + rest
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// True for a repo `fetch` that is relative to the manifest's own url (`..`, `.`, `../x`).
    static func isRepoRelative(_ fetch: String) -> Bool {
        fetch == "." || fetch == ".." || fetch.hasPrefix("./") || fetch.hasPrefix("../")
    }

    /// repo's rule (a url join): the last component of the manifest url is dropped, then each `..` drops one more.
    /// Like repo, an scp-like manifest url (`git@host:org/manifest`) is first read as `ssh://git@host/org/manifest`,
    /// and `.` and `..` in the joined path are resolved as a url join does (`ssh://h/../srv/x` gives `ssh://h/srv`).
    static func resolveRepo(_ fetch: String, against manifestURL: String) -> String {
        var base = sshForm(ofSCPLike: manifestURL)
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var components = base.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let minimum = base.contains("://") ? 3 : 1
        if components.count > minimum { components.removeLast() }
        var path: [String] = []
        for part in components.dropFirst(minimum) + fetch.split(separator: "/").map(String.init) {
            switch part {
            case ".": continue
            case "..": if !path.isEmpty { path.removeLast() }
            default: path.append(part)
            }
        }
        return (components.prefix(minimum) + path).joined(separator: "/")
    }

    /// `user@host:path` → `ssh://user@host/path` (repo's `normalize_url`); any other url unchanged.
    static func sshForm(ofSCPLike url: String) -> String {
        guard !url.contains("://"), let at = url.firstIndex(of: "@"), let colon = url.firstIndex(of: ":"), at < colon,
              !url[..<colon].contains("/"), url.index(after: colon) < url.endIndex, url[url.index(after: colon)] != "/" else { return url }
        return "ssh://" + url[..<colon] + "/" + url[url.index(after: colon)...]
    }
}
