import Foundation

/// An ssh host key: its type name (e.g. "ssh-ed25519") and the raw key blob, with OpenSSH's fingerprint.
public struct SSHHostKey: Sendable, Equatable {
    public var type: String
    public var blob: [UInt8]

    init(blob: [UInt8]) {
        self.blob = blob
        type = SSHHostKey.typeName(of: blob) ?? "unknown"
    }

    init?(type: String, base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.type = type
        blob = Array(data)
    }

    /// `SHA256:…` as `ssh-keygen -l` prints it.
    public var fingerprint: String {
        var text = Data(Digest.sha256(blob)).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return "SHA256:" + text
    }

    /// "ED25519", "RSA", "ECDSA": the short name OpenSSH uses in its messages.
    public var shortType: String {
        switch type {
        case "ssh-ed25519": return "ED25519"
        case "ssh-rsa": return "RSA"
        case "ssh-dss": return "DSA"
        default: return type.hasPrefix("ecdsa") ? "ECDSA" : type
        }
    }

    var base64: String { Data(blob).base64EncodedString() }

    /// The first string of an ssh wire-format key blob is its type name.
    static func typeName(of blob: [UInt8]) -> String? {
        guard blob.count >= 4 else { return nil }
        let length = blob[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= blob.count - 4 else { return nil }
        return String(decoding: blob[4..<(4 + length)], as: UTF8.self)
    }
}

/// What known_hosts says about a server's key.
enum HostKeyVerdict: Equatable {
    case known
    case unknown
    /// A key of the same type is recorded for the host and differs; the file and line of that key.
    case changed(file: String, line: Int, recorded: SSHHostKey)
    case revoked(file: String, line: Int)
}

/// Reads and appends OpenSSH known_hosts files: plain and hashed (`|1|salt|hash`) host names, `[host]:port`,
/// wildcards and negation, `@revoked` markers (`@cert-authority` lines are ignored).
enum KnownHosts {
    static func verify(_ key: SSHHostKey, host: String, files: [String]) -> HostKeyVerdict {
        var changed: HostKeyVerdict?
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let entry = Entry(String(rawLine)), entry.matches(host) else { continue }
                if entry.marker == "@revoked" {
                    if entry.key == key { return .revoked(file: file, line: index + 1) }
                    continue
                }
                guard entry.marker == nil else { continue }
                if entry.key == key { return .known }
                if entry.key.type == key.type, changed == nil {
                    changed = .changed(file: file, line: index + 1, recorded: entry.key)
                }
            }
        }
        return changed ?? .unknown
    }

    /// Appends `host type base64` to `file`, creating it (and its directory, mode 700) when missing.
    static func append(_ key: SSHHostKey, host: String, to file: String) throws {
        let url = URL(fileURLWithPath: file)
        let directory = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var existing = (try? Data(contentsOf: url)) ?? Data()
        if let last = existing.last, last != UInt8(ascii: "\n") { existing.append(UInt8(ascii: "\n")) }
        existing.append(Data("\(host) \(key.type) \(key.base64)\n".utf8))
        do {
            // known_hosts keeps its permission bits; a new one is private (ssh refuses group- or world-writable ones).
            let mode = (try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int).flatMap { $0 }.map { mode_t($0) } ?? 0o600
            try AtomicWrite.replace(file, with: existing, temporary: file + ".modkit-tmp", mode: mode, exactMode: true, sync: true)
        } catch {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: error.path, NSLocalizedDescriptionKey: "cannot write \(error.path): \(error.message)"])
        }
    }

    private struct Entry {
        var marker: String?
        var hosts: String
        var key: SSHHostKey

        init?(_ line: String) {
            var fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#") else { return nil }
            if first.hasPrefix("@") { marker = first; fields.removeFirst() }
            guard fields.count >= 3, let key = SSHHostKey(type: fields[1], base64: fields[2]) else { return nil }
            hosts = fields[0]
            self.key = key
        }

        func matches(_ host: String) -> Bool {
            if hosts.hasPrefix("|1|") {
                let parts = hosts.split(separator: "|")
                guard parts.count == 3, let salt = Data(base64Encoded: String(parts[1])),
                      let hash = Data(base64Encoded: String(parts[2])) else { return false }
                return Digest.hmacSHA1(key: Array(salt), message: Array(host.utf8)) == Array(hash)
            }
            return SSHConfig.matches(host, patterns: [hosts])
        }
    }
}
