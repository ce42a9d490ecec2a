import Foundation
import GitKit

/// `modkit doctor`'s verdict for one module: can its remote be reached with the credentials at hand?
public struct DoctorResult: Sendable, Encodable {
    public var name: String
    public var path: String
    /// The remote url, without any password.
    public var url: String
    /// "ok", "auth failed", "unreachable", "host key unknown", "host key changed", "certificate not trusted" or "error".
    public var verdict: String
    /// What went wrong (empty when ok).
    public var detail: String
    /// What to do about it (empty when ok).
    public var fix: String

    public var isOK: Bool { verdict == "ok" }
}

/// Reaches every module remote (ls-remote) in parallel — the first thing a new team member runs.
public enum Doctor {
    public static func check(_ modules: [Module], in workspace: Workspace, jobs: Int) -> [DoctorResult] {
        let manifest = workspace.manifest
        let targets = modules.compactMap { module in manifest.url(of: module).map { (module, $0) } }
        return Parallel.map(targets.map { DoctorTarget(name: $0.0.name, path: $0.0.path, url: $0.1) }, jobs: jobs) { target in
            let check = GitKit.checkRemoteAccess(url: target.url)
            let verdict = check.problem?.rawValue ?? "ok"
            return DoctorResult(name: target.name, path: target.path, url: Redact.url(target.url), verdict: verdict,
                                detail: Redact.secrets(in: check.message),
                                fix: check.problem.map { fix(for: $0, url: target.url) } ?? "")
        }
    }

    /// The usual remedy for a problem with a remote of this kind.
    static func fix(for problem: RemoteProblem, url: String) -> String {
        let isHTTP = url.hasPrefix("http://") || url.hasPrefix("https://")
        switch problem {
        case .authentication where isHTTP:
            return "store a working token with a git credential helper (e.g. git config --global credential.helper store, "
                + "then git credential approve), or run on a terminal to be asked; check the user name in the url"
        case .authentication:
            return "load your key into ssh-agent (ssh-add ~/.ssh/id_ed25519) or name it with IdentityFile in ~/.ssh/config, "
                + "and make sure its public key is registered on the server"
        case .unreachable:
            return "check the url, host and port, your network or VPN, and the proxy (http.proxy, HTTPS_PROXY)"
        case .hostKeyUnknown:
            return "compare the fingerprint with the one your server admin publishes, then run modkit doctor --accept-new-host-keys"
        case .hostKeyChanged:
            return "ask your server admin whether the key changed; if it did, remove the old key with ssh-keygen -R and run again"
        case .certificate:
            return "point git at your certificate authority: git config --global http.sslCAInfo /path/to/ca.pem (or SSL_CERT_FILE)"
        case .other:
            return "run git ls-remote \(Redact.url(url)) to see what git says"
        }
    }
}

private struct DoctorTarget: Sendable {
    var name: String
    var path: String
    var url: String
}
