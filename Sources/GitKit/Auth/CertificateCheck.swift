internal import CLibgit2
internal import CTrustDeferral
import Foundation

extension CredentialSession {
    /// The certificate callback: ssh host keys are checked against known_hosts; TLS certificates keep libgit2's verdict.
    func checkCertificate(_ cert: UnsafeMutablePointer<git_cert>, valid: Bool, host: String) -> Int32 {
        switch cert.pointee.cert_type {
        case GIT_CERT_HOSTKEY_LIBSSH2:
            let hostKey = UnsafeMutableRawPointer(cert).assumingMemoryBound(to: git_cert_hostkey.self).pointee
            guard hostKey.type.rawValue & GIT_CERT_SSH_RAW.rawValue != 0, let raw = hostKey.hostkey, hostKey.hostkey_len > 0 else {
                return fail("cannot verify the ssh host key of \(host): libgit2 did not provide it", problem: .hostKeyUnknown)
            }
            let key = SSHHostKey(blob: Array(UnsafeRawBufferPointer(start: raw, count: hostKey.hostkey_len)))
            return verifyHostKey(key, host: host)
        case GIT_CERT_X509:
            if valid { return 0 }
            var reason = ""
            if let last = git_error_last(), let message = last.pointee.message { reason = " (\(String(cString: message)))" }
            return fail("the TLS certificate of \(host) is not trusted\(reason) for \(displayURL); if your server uses its own "
                + "certificate authority, point git at it: git config --global http.sslCAInfo /path/to/ca.pem (or SSL_CERT_FILE)",
                problem: .certificate)
        default:
            return valid ? 0 : fail("the certificate of \(host) is not trusted", problem: .certificate)
        }
    }

    private func verifyHostKey(_ key: SSHHostKey, host: String) -> Int32 {
        var name = host
        if let port = url?.port, port != 22 { name = "[\(host)]:\(port)" }
        let userFiles = sshSettings.userKnownHostsFiles.isEmpty
            ? [home + "/.ssh/known_hosts", home + "/.ssh/known_hosts2"] : sshSettings.userKnownHostsFiles
        let files = userFiles + ["/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2"]
        let acceptNew = authentication.acceptNewHostKeys
            || sshSettings.strictHostKeyChecking == "accept-new" || sshSettings.strictHostKeyChecking == "no"
        let described = "\(key.shortType) key fingerprint \(key.fingerprint)"
        return authentication.withKnownHostsLock { () -> Int32 in
            switch KnownHosts.verify(key, host: name, files: files) {
            case .known:
                return 0
            case .unknown where acceptNew:
                do {
                    try KnownHosts.append(key, host: name, to: userFiles[0])
                    return 0
                } catch {
                    return fail("cannot add the host key of \(name) to \(tilde(userFiles[0])): \(error.localizedDescription)", problem: .hostKeyUnknown)
                }
            case .unknown:
                let portOption = url?.port.map { $0 == 22 ? "" : " -p \($0)" } ?? ""
                return fail("the ssh host key of \(name) is unknown (\(described)); verify the fingerprint, then "
                    + "\(authentication.hostKeyTrustHint) or run 'ssh\(portOption) \(url?.user.map { "\($0)@" } ?? "")\(host)' once and answer yes",
                    problem: .hostKeyUnknown)
            case .changed(let file, let line, let recorded):
                return fail("the ssh host key of \(name) has CHANGED (offered \(described), \(tilde(file)):\(line) has \(recorded.fingerprint)); "
                    + "someone may be intercepting the connection. If the change is expected, remove the old key with "
                    + "'ssh-keygen -R \"\(name)\"' and connect again", problem: .hostKeyChanged)
            case .revoked(let file, let line):
                return fail("the ssh host key of \(name) is revoked (\(tilde(file)):\(line)); refusing to connect", problem: .hostKeyChanged)
            }
        }
    }
}

/// Where TLS certificate authorities come from, in git's order: GIT_SSL_CAINFO / GIT_SSL_CAPATH, then git's
/// http.sslCAInfo / http.sslCAPath (global config), then SSL_CERT_FILE / SSL_CERT_DIR, then the system store.
/// libgit2 reads none of these itself; the choice is process-wide (GIT_OPT_SET_SSL_CERT_LOCATIONS).
enum TLSTrust {
    static func ensureConfigured() { _ = configured }

    private static let configured: Bool = {
        let environment = ProcessInfo.processInfo.environment
        let env = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let sources: [() -> (String?, String?)] = [
            { (env("GIT_SSL_CAINFO"), env("GIT_SSL_CAPATH")) },
            { (globalConfigPath("http.sslCAInfo"), globalConfigPath("http.sslCAPath")) },
            { (env("SSL_CERT_FILE"), env("SSL_CERT_DIR")) },
            { FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt") ? ("/etc/ssl/certs/ca-certificates.crt", nil) : (nil, nil) },
        ]
        for source in sources {
            let (file, directory) = source()
            if file != nil || directory != nil { return modkit_git_set_ssl_cert_locations(file, directory) == 0 }
        }
        // None of those: the bundle libgit2 itself chose at start-up, whose loading was deferred until now.
        return modkit_trust_load_deferred() == 0
    }()

    /// Whether libgit2's start-up load of its certificate bundle is still waiting for a network operation
    /// (only with an mbedTLS-backed libgit2 on Linux).
    static var startupBundleIsDeferred: Bool { modkit_trust_has_deferred() == 1 }

    /// A path-valued setting of the user's global/XDG/system git config (with `~` expanded); nil when unset.
    static func globalConfigPath(_ name: String) -> String? {
        var config: OpaquePointer?
        guard git_config_open_default(&config) == 0, let config else { return nil }
        defer { git_config_free(config) }
        var buf = git_buf()
        guard git_config_get_path(&buf, config, name) == 0 else { git_error_clear(); return nil }
        let value = takeBuf(&buf)
        return value.isEmpty ? nil : value
    }
}

extension GitKit {
    /// A setting of the user's global git configuration (global, XDG, system), e.g. "modkit.acceptNewHostKeys"; nil when unset.
    public static func globalConfigString(_ name: String) -> String? {
        ensureInitialized()
        var config: OpaquePointer?
        guard git_config_open_default(&config) == 0, let config else { return nil }
        defer { git_config_free(config) }
        var buf = git_buf()
        guard git_config_get_string_buf(&buf, config, name) == 0 else { git_error_clear(); return nil }
        return takeBuf(&buf)
    }

    /// A switch that is on unless turned off: the environment variable `name`, read as git reads a boolean, wins, else
    /// the user's global setting `setting`, else on.
    public static func switchIsOn(environment name: String, setting: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let value = environment[name], let parsed = FastPaths.gitBoolean(value) { return parsed }
        return globalConfigString(setting).flatMap(FastPaths.gitBoolean) ?? true
    }
}
