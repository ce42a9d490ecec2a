import Foundation

/// A private key file on disk: its algorithm and whether it needs a passphrase, read without decrypting it.
struct SSHKeyFile {
    var path: String
    /// "ed25519", "rsa", "ecdsa", "dsa" or "unknown".
    var algorithm: String
    var encrypted: Bool

    /// Nil when the file cannot be read.
    init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        self.path = path
        if text.contains("BEGIN OPENSSH PRIVATE KEY") {
            let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let info = Data(base64Encoded: body).map { SSHKeyFile.openSSHInfo(Array($0)) } ?? nil
            algorithm = info?.algorithm ?? "unknown"
            encrypted = info?.encrypted ?? false
        } else {
            algorithm = text.contains("BEGIN RSA") ? "rsa" : text.contains("BEGIN EC") ? "ecdsa" : text.contains("BEGIN DSA") ? "dsa" : "unknown"
            encrypted = text.contains("ENCRYPTED")
        }
    }

    /// The public key next to the private one (`id_x.pub`), when present.
    var publicKeyPath: String? {
        FileManager.default.fileExists(atPath: path + ".pub") ? path + ".pub" : nil
    }

    /// Reads the cipher name and the public key's type from an `openssh-key-v1` blob.
    private static func openSSHInfo(_ bytes: [UInt8]) -> (algorithm: String, encrypted: Bool)? {
        let magic = Array("openssh-key-v1\0".utf8)
        guard bytes.starts(with: magic) else { return nil }
        var offset = magic.count
        func string() -> [UInt8]? {
            guard offset + 4 <= bytes.count else { return nil }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length >= 0, offset + length <= bytes.count else { return nil }
            defer { offset += length }
            return Array(bytes[offset..<offset + length])
        }
        guard let cipher = string(), string() != nil, string() != nil else { return nil }
        offset += 4 // number of keys
        guard let publicKey = string(), let type = SSHHostKey.typeName(of: publicKey) else { return nil }
        let algorithm = type == "ssh-ed25519" ? "ed25519" : type == "ssh-rsa" ? "rsa" : type.hasPrefix("ecdsa") ? "ecdsa" : type
        return (algorithm, String(decoding: cipher, as: UTF8.self) != "none")
    }
}
