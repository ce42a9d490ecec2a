import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `~/.ssh/config` says about one host: the subset of OpenSSH's settings GitKit honours.
struct SSHHostSettings: Equatable {
    var hostName: String?
    var user: String?
    var port: Int?
    var identityFiles: [String] = []
    var identitiesOnly = false
    var userKnownHostsFiles: [String] = []
    /// "yes", "no", "accept-new" or "ask" (OpenSSH's StrictHostKeyChecking), lower-cased.
    var strictHostKeyChecking: String?
}

/// Reads `~/.ssh/config` like OpenSSH: the first value obtained for a keyword wins, `IdentityFile` accumulates,
/// `Host` patterns support `*`, `?` and `!negation`; `Match` blocks are skipped; `Include` is followed.
enum SSHConfig {
    static func settings(for host: String, home: String, file: String? = nil) -> SSHHostSettings {
        var settings = SSHHostSettings()
        var seen = Set<String>()
        let path = file ?? home + "/.ssh/config"
        apply(path: path, host: host, home: home, settings: &settings, seen: &seen, depth: 0)
        if let name = settings.hostName { settings.hostName = name.replacingOccurrences(of: "%h", with: host) }
        let user = settings.user ?? localUserName()
        settings.identityFiles = settings.identityFiles.map { expand($0, home: home, host: settings.hostName ?? host, remoteUser: user) }
        settings.userKnownHostsFiles = settings.userKnownHostsFiles.map { expand($0, home: home, host: settings.hostName ?? host, remoteUser: user) }
        return settings
    }

    private static func apply(path: String, host: String, home: String, settings: inout SSHHostSettings,
                              seen: inout Set<String>, depth: Int) {
        guard depth < 8, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var active = true
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let (keyword, arguments) = split(String(rawLine))
            guard let keyword else { continue }
            switch keyword {
            case "host":
                active = matches(host, patterns: arguments)
            case "match":
                active = arguments.first?.lowercased() == "all"
            case "include" where active:
                for argument in arguments {
                    var pattern = expand(argument, home: home, host: host, remoteUser: "")
                    if !pattern.hasPrefix("/") { pattern = home + "/.ssh/" + pattern }
                    for included in glob(pattern) {
                        apply(path: included, host: host, home: home, settings: &settings, seen: &seen, depth: depth + 1)
                    }
                }
            default:
                guard active, let value = arguments.first else { continue }
                if keyword == "identityfile" { settings.identityFiles.append(value); continue }
                guard seen.insert(keyword).inserted else { continue }
                switch keyword {
                case "hostname": settings.hostName = value
                case "user": settings.user = value
                case "port": settings.port = Int(value)
                case "identitiesonly": settings.identitiesOnly = value.lowercased() == "yes"
                case "userknownhostsfile": settings.userKnownHostsFiles = arguments.filter { $0.lowercased() != "none" }
                case "stricthostkeychecking": settings.strictHostKeyChecking = value.lowercased()
                default: seen.remove(keyword)
                }
            }
        }
    }

    /// Splits `Keyword value…` or `Keyword=value`, honouring double quotes; comments and blank lines give nil.
    private static func split(_ line: String) -> (String?, [String]) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return (nil, []) }
        var words: [String] = []
        var current = ""
        var quoted = false
        var hasWord = false
        for character in trimmed {
            if character == "\"" { quoted.toggle(); hasWord = true; continue }
            if !quoted && (character == " " || character == "\t" || (character == "=" && words.isEmpty)) {
                if hasWord { words.append(current); current = ""; hasWord = false }
                continue
            }
            current.append(character)
            hasWord = true
        }
        if hasWord { words.append(current) }
        guard let first = words.first else { return (nil, []) }
        return (first.lowercased(), Array(words.dropFirst()))
    }

    /// OpenSSH's Host matching: some positive pattern matches and no negated one does.
    static func matches(_ host: String, patterns: [String]) -> Bool {
        var matched = false
        for pattern in patterns.flatMap({ $0.split(separator: ",").map(String.init) }) {
            if pattern.hasPrefix("!") {
                if wildcard(String(pattern.dropFirst()), host) { return false }
            } else if wildcard(pattern, host) {
                matched = true
            }
        }
        return matched
    }

    /// ssh's pattern matching: `*` any run of characters, `?` one character, everything else literal (case-insensitive).
    static func wildcard(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.lowercased()), t = Array(text.lowercased())
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                pi += 1; ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    static func expand(_ path: String, home: String, host: String, remoteUser: String) -> String {
        var result = path
        if result == "~" { result = home } else if result.hasPrefix("~/") { result = home + result.dropFirst(1) }
        result = result.replacingOccurrences(of: "%d", with: home)
            .replacingOccurrences(of: "%h", with: host)
            .replacingOccurrences(of: "%r", with: remoteUser)
            .replacingOccurrences(of: "%u", with: localUserName())
            .replacingOccurrences(of: "%%", with: "%")
        return result
    }

    private static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        #if canImport(Glibc)
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        #else
        guard Darwin.glob(pattern, 0, nil, &result) == 0 else { return [] }
        #endif
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }

    /// The name of the user running the process, as ssh uses it when neither the url nor the config names one.
    static func localUserName() -> String {
        if let name = ProcessInfo.processInfo.environment["USER"], !name.isEmpty { return name }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "root"
    }

    /// The home directory ssh would use: HOME, else the password database.
    static func homeDirectory() -> String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return NSHomeDirectory()
    }
}
