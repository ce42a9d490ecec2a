internal import CLibgit2
import Foundation

/// Why a remote operation was refused before any git data moved; GitKit reports it instead of libgit2's text.
public enum RemoteProblem: String, Sendable {
    case authentication = "auth failed"
    case hostKeyUnknown = "host key unknown"
    case hostKeyChanged = "host key changed"
    case certificate = "certificate not trusted"
    case unreachable
    case other = "error"
}

/// A refusal decided inside a credentials or certificate callback, with the message the user sees.
struct RemoteFailure {
    var problem: RemoteProblem
    var message: String

    var code: GitError.Code { problem == .authentication ? .auth : .certificate }
}

/// The credentials state of one remote operation (clone, fetch, push or ls-remote).
///
/// libgit2 calls the credentials callback again after every rejection; each call offers the next candidate —
/// for ssh the agent, then key files; for http the credential store, then prompts — until the attempt limit,
/// and then fails with "authentication failed for <url>" instead of retrying forever.
final class CredentialSession {
    let authentication: RemoteAuthentication
    let home: String
    /// The url being connected to, after ~/.ssh/config was applied (set by the remote-ready callback).
    var url: RemoteURL?
    var sshSettings = SSHHostSettings()
    private(set) var failure: RemoteFailure?

    private var offers = 0
    private var sshCandidates: [SSHCandidate]?
    private var tried: [String] = []
    private var notes: [String] = []
    private var offeredRSA = false
    private var sawMethodListFailure = false
    private var storeAsked = false
    private var pending: (request: CredentialRequest, credential: PasswordCredential, fromStore: Bool, keys: [String])?

    private enum SSHCandidate {
        case agent
        case keyFile(String)
    }

    init(authentication: RemoteAuthentication = GitKit.remoteAuthentication) {
        self.authentication = authentication
        home = authentication.homeDirectory ?? SSHConfig.homeDirectory()
    }

    /// Applies ~/.ssh/config (HostName, Port, User) to an ssh url; returns the url to connect to when it changed.
    func prepare(connecting text: String) -> String? {
        guard var parsed = RemoteURL.parse(text) else { return nil }
        defer { url = parsed }
        guard parsed.isSSH else { return nil }
        sshSettings = SSHConfig.settings(for: parsed.host, home: home)
        let original = parsed
        if let hostName = sshSettings.hostName { parsed.host = hostName }
        if parsed.port == nil, let port = sshSettings.port, port != 22 { parsed.port = port }
        if parsed.user == nil, let user = sshSettings.user { parsed.user = user }
        return parsed == original ? nil : parsed.string(secrets: true)
    }

    /// The url for messages, without secrets.
    var displayURL: String { url?.redacted ?? "the remote" }

    /// Called when the operation succeeded: a credential from the store or a prompt is approved (saved).
    func succeeded() {
        guard let pending else { return }
        authentication.credentialStore?.approve(pending.request, pending.credential)
        self.pending = nil
    }

    // MARK: The credentials callback

    func acquire(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, url text: String?,
                 usernameFromURL: String?, allowed: UInt32) -> Int32 {
        if let last = git_error_last(), let message = last.pointee.message {
            if String(cString: message).contains("Failed to retrieve list of SSH authentication methods") { sawMethodListFailure = true }
        }
        if url == nil, let text { url = RemoteURL.parse(text) }
        let remote = url ?? RemoteURL(scheme: "https", host: "", path: "")
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            return offerSSHKey(out, user: usernameFromURL ?? sshUser(remote))
        }
        if allowed == GIT_CREDENTIAL_USERNAME.rawValue {
            return git_credential_username_new(out, usernameFromURL ?? sshUser(remote))
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            return remote.isSSH ? offerSSHPassword(out, user: usernameFromURL ?? sshUser(remote), remote: remote)
                : offerHTTP(out, remote: remote, username: usernameFromURL)
        }
        return fail("the server offers no authentication method GitKit supports")
    }

    private func sshUser(_ remote: RemoteURL) -> String {
        remote.user ?? sshSettings.user ?? SSHConfig.localUserName()
    }

    private func limitReached() -> Bool { offers >= authentication.attemptLimit }

    // MARK: ssh

    private func offerSSHKey(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, user: String) -> Int32 {
        if sshCandidates == nil { sshCandidates = makeSSHCandidates() }
        while !limitReached(), !sshCandidates!.isEmpty {
            switch sshCandidates!.removeFirst() {
            case .agent:
                offers += 1
                tried.append("the keys of ssh-agent")
                return git_credential_ssh_key_from_agent(out, user)
            case .keyFile(let path):
                guard let key = SSHKeyFile(path: path) else {
                    notes.append("\(tilde(path)) could not be read")
                    continue
                }
                var passphrase: String?
                if key.encrypted {
                    let prompt = CredentialPrompt(text: "Enter passphrase for key '\(path)': ", secret: true)
                    passphrase = authentication.ask(prompt, rememberAs: "passphrase:\(path)")
                    guard passphrase != nil else {
                        notes.append("\(tilde(path)) needs a passphrase and there is no terminal to ask for it (load it into ssh-agent with ssh-add)")
                        continue
                    }
                }
                offers += 1
                tried.append(tilde(path))
                if key.algorithm == "rsa" { offeredRSA = true }
                return git_credential_ssh_key_new(out, user, key.publicKeyPath, path, passphrase)
            }
        }
        return fail(sshFailureDetail())
    }

    private func makeSSHCandidates() -> [SSHCandidate] {
        var candidates: [SSHCandidate] = []
        let agentSocket = ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"] ?? ""
        if agentSocket.isEmpty {
            notes.append("no ssh-agent (SSH_AUTH_SOCK is not set)")
        } else if !(sshSettings.identitiesOnly && !sshSettings.identityFiles.isEmpty) {
            candidates.append(.agent)
        }
        let files = sshSettings.identityFiles.isEmpty
            ? ["id_ed25519", "id_ecdsa", "id_rsa"].map { home + "/.ssh/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
            : sshSettings.identityFiles
        for file in files {
            if FileManager.default.fileExists(atPath: file) { candidates.append(.keyFile(file)) } else { notes.append("IdentityFile \(tilde(file)) does not exist") }
        }
        if sshSettings.identityFiles.isEmpty && files.isEmpty { notes.append("no key file ~/.ssh/id_ed25519, id_ecdsa or id_rsa") }
        return candidates
    }

    private func sshFailureDetail() -> String {
        var parts: [String] = []
        parts.append(tried.isEmpty ? "no ssh key to offer" : "the server accepted none of: " + tried.joined(separator: ", "))
        parts += notes
        if limitReached() { parts.append("gave up after \(offers) attempt\(offers == 1 ? "" : "s") (the limit)") }
        var text = parts.joined(separator: "; ")
        if tried.contains("the keys of ssh-agent") && agentHoldsRSAKey() { offeredRSA = true }
        if offeredRSA || sawMethodListFailure {
            text += ". Note: libgit2 \(GitKit.libgit2Version) signs RSA keys with ssh-rsa (SHA-1) through libssh2, which OpenSSH 8.8 and newer refuse by default"
            text += sawMethodListFailure ? " ('Failed to retrieve list of SSH authentication methods')" : ""
            text += "; use an ed25519 key (ssh-keygen -t ed25519) for this server"
        }
        return text
    }

    /// Whether the agent holds an RSA key (asked with `ssh-add -L` only after a failure, to explain it).
    private func agentHoldsRSAKey() -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ssh-add", "-L"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let ended = ProcessExit(process)
        guard (try? process.run()) != nil else { return false }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { $0.hasPrefix("ssh-rsa ") }
    }

    private func offerSSHPassword(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, user: String, remote: RemoteURL) -> Int32 {
        guard !limitReached() else { return fail("gave up after \(offers) attempts (the limit)") }
        let key = "ssh-password:\(user)@\(remote.hostAndPort)"
        if offers > 0 { authentication.forget(key) }
        guard let password = authentication.ask(CredentialPrompt(text: "\(user)@\(remote.host)'s password: ", secret: true), rememberAs: key) else {
            return fail("the server wants a password and there is no terminal to ask for it; use an ssh key")
        }
        offers += 1
        tried.append("a password")
        return git_credential_userpass_plaintext_new(out, user, password)
    }

    // MARK: http

    private func offerHTTP(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, remote: RemoteURL, username: String?) -> Int32 {
        let store = authentication.credentialStore
        if let rejected = pending {
            if rejected.fromStore { store?.reject(rejected.request, rejected.credential) }
            rejected.keys.forEach(authentication.forget)
            notes = ["the credential \(rejected.fromStore ? "from the git credential helper" : "entered") for \(rejected.credential.username) was rejected"]
            pending = nil
        }
        guard !limitReached() else { return fail(httpFailureDetail()) }
        let path = remote.path.hasPrefix("/") ? String(remote.path.dropFirst()) : remote.path
        var request = CredentialRequest(scheme: remote.scheme, host: remote.hostAndPort, path: path, username: username ?? remote.user)
        if !storeAsked {
            storeAsked = true
            if let credential = store?.fill(request) {
                return offer(out, request, credential, fromStore: true, keys: [])
            }
        }
        guard authentication.canPrompt else { return fail(httpFailureDetail(noPrompt: true)) }
        let base = "\(remote.scheme)://\(remote.hostAndPort)"
        var keys: [String] = []
        if request.username == nil {
            keys.append("user:\(base)")
            request.username = authentication.ask(CredentialPrompt(text: "Username for '\(base)': ", secret: false), rememberAs: keys[0])
        }
        guard let user = request.username, !user.isEmpty else { return fail(httpFailureDetail()) }
        let passwordKey = "password:\(remote.scheme)://\(user)@\(remote.hostAndPort)"
        keys.append(passwordKey)
        let prompt = CredentialPrompt(text: "Password for '\(remote.scheme)://\(user)@\(remote.hostAndPort)': ", secret: true)
        guard let password = authentication.ask(prompt, rememberAs: passwordKey) else { return fail(httpFailureDetail()) }
        return offer(out, request, PasswordCredential(username: user, password: password), fromStore: false, keys: keys)
    }

    private func offer(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, _ request: CredentialRequest,
                       _ credential: PasswordCredential, fromStore: Bool, keys: [String]) -> Int32 {
        offers += 1
        pending = (request, credential, fromStore, keys)
        return git_credential_userpass_plaintext_new(out, credential.username, credential.password)
    }

    private func httpFailureDetail(noPrompt: Bool = false) -> String {
        var parts = notes
        if offers == 0 { parts.append(authentication.credentialStore == nil ? "no credential store" : "no git credential helper has a credential for it") }
        if noPrompt { parts.append("no terminal or GIT_ASKPASS to ask for one (configure a git credential helper, e.g. git config --global credential.helper store)") }
        if limitReached() { parts.append("gave up after \(offers) attempt\(offers == 1 ? "" : "s") (the limit)") }
        return parts.joined(separator: "; ")
    }

    // MARK: Failing

    /// Records why the operation stops and returns the libgit2 code that stops it.
    func fail(_ detail: String, problem: RemoteProblem = .authentication) -> Int32 {
        if failure == nil {
            let message = problem == .authentication
                ? "authentication failed for \(displayURL)" + (detail.isEmpty ? "" : ": \(detail)")
                : detail
            failure = RemoteFailure(problem: problem, message: redactingSecrets(message))
        }
        return problem == .authentication ? GIT_EAUTH.rawValue : GIT_ECERTIFICATE.rawValue
    }

    func tilde(_ path: String) -> String {
        path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }
}
