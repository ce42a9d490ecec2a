import Foundation
import GitKit

/// `modkit doctor`'s finding for one module's remote beside its outcome (`ok`, or `failed` with the error and its fix).
public struct DoctorFacts: Sendable, Encodable, Equatable {
    /// The remote url, without any password.
    public var url: String
    /// Why it failed, in lowerCamelCase: authFailed, unreachable, hostKeyUnknown, hostKeyChanged, certificateNotTrusted or failed.
    public var problem: String?
    /// What to do about it.
    public var fix: String?
    /// "ok", "auth failed", "unreachable", "host key unknown", "host key changed", "certificate not trusted" or "error"; not in JSON.
    public var verdict: String

    private enum CodingKeys: String, CodingKey { case url, problem, fix }

    /// A verdict such as "host key unknown" in lowerCamelCase.
    static func problemName(_ verdict: String) -> String {
        let words = verdict.split(separator: " ").map(String.init)
        guard let first = words.first, verdict != RemoteProblem.other.rawValue else { return "failed" }
        return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// Reaches every module remote (ls-remote) in parallel — the first thing a new team member runs.
public enum Doctor {
    public static func check(_ modules: [Module], in workspace: Workspace, jobs: Int) -> [ModuleResult<DoctorFacts>] {
        let manifest = workspace.manifest
        let targets = modules.compactMap { module in manifest.url(of: module).map { (module, $0) } }
        return Parallel.map(targets.map { DoctorTarget(name: $0.0.name, path: $0.0.path, url: $0.1) }, jobs: jobs) { target -> ModuleResult<DoctorFacts> in
            let check = GitKit.checkRemoteAccess(url: target.url)
            let verdict = check.problem?.rawValue ?? "ok"
            let detail = Redact.secrets(in: check.message)
            let remedy = check.problem.map { fix(for: $0, url: target.url) }
            var facts = DoctorFacts(url: Redact.url(target.url), verdict: verdict)
            guard check.problem != nil else {
                return ModuleResult(name: target.name, path: target.path, outcome: .ok, detail: detail, facts: facts)
            }
            facts.problem = DoctorFacts.problemName(verdict)
            facts.fix = remedy
            return ModuleResult(name: target.name, path: target.path, outcome: .failed, detail: detail,
                                diagnostics: [.error(detail, hint: remedy, module: target.name)], facts: facts)
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
