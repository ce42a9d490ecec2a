import Foundation

/// What a credential helper is asked for: the remote's protocol, host (with port) and path.
public struct CredentialRequest: Sendable, Hashable {
    /// "https", "http" or "ssh".
    public var scheme: String
    /// Host name, with ":port" when the url names one.
    public var host: String
    public var path: String
    /// The user name the url or a previous answer gave, if any.
    public var username: String?

    public init(scheme: String, host: String, path: String, username: String?) {
        self.scheme = scheme
        self.host = host
        self.path = path
        self.username = username
    }

    /// "https://host:port/path" without credentials, as prompts and git's helpers see it.
    public var url: String { "\(scheme)://\(host)/\(path.hasPrefix("/") ? String(path.dropFirst()) : path)" }
}

/// A user name and password (or token) for an http(s) remote. Never printed: its description hides the secret.
public struct PasswordCredential: Sendable, Hashable, CustomStringConvertible {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public var description: String { "\(username):<redacted>" }
}

/// A store of http credentials, such as git's credential helpers (`git credential fill/approve/reject`).
public protocol CredentialStore: Sendable {
    /// The stored credential for `request`, or nil when the store has none (it must never prompt).
    func fill(_ request: CredentialRequest) -> PasswordCredential?
    /// Tells the store the credential worked, so it may save it.
    func approve(_ request: CredentialRequest, _ credential: PasswordCredential)
    /// Tells the store the credential was rejected, so it may forget it.
    func reject(_ request: CredentialRequest, _ credential: PasswordCredential)
}

/// One question for the user: a user name, a password or a key passphrase.
public struct CredentialPrompt: Sendable {
    public var text: String
    /// True for passwords and passphrases: the answer must not be echoed.
    public var secret: Bool

    public init(text: String, secret: Bool) {
        self.text = text
        self.secret = secret
    }
}

/// Process-wide settings every clone, fetch, push and ls-remote authenticates with; thread-safe.
///
/// GitKit never prints or reads a terminal itself: prompts go through `prompter`, which is nil (no prompts,
/// fail fast) until the application installs one. Prompts are serialised across threads, and an answer is
/// remembered for the rest of the process so parallel workers on the same host ask only once.
public final class RemoteAuthentication: @unchecked Sendable {
    private let lock = NSLock()
    private let promptLock = NSLock()
    private let knownHostsLock = NSLock()
    private var _acceptNewHostKeys = false
    private var _attemptLimit = 5
    private var _prompter: (@Sendable (CredentialPrompt) -> String?)?
    private var _credentialStore: (any CredentialStore)?
    private var _hostKeyTrustHint = "rerun with --accept-new-host-keys"
    private var answers: [String: String] = [:]
    private var _homeDirectory: String?

    init() {}

    /// Add unknown ssh host keys to ~/.ssh/known_hosts and go on (OpenSSH's `accept-new`); changed keys are still refused.
    public var acceptNewHostKeys: Bool {
        get { lock.withLock { _acceptNewHostKeys } }
        set { lock.withLock { _acceptNewHostKeys = newValue } }
    }

    /// How many credentials one operation offers a remote before it fails with "authentication failed".
    public var attemptLimit: Int {
        get { lock.withLock { _attemptLimit } }
        set { lock.withLock { _attemptLimit = max(1, newValue) } }
    }

    /// Asks the user a question (terminal, askpass); nil answers and a nil prompter mean "no answer".
    public var prompter: (@Sendable (CredentialPrompt) -> String?)? {
        get { lock.withLock { _prompter } }
        set { lock.withLock { _prompter = newValue } }
    }

    /// Where http credentials come from before any prompt (git's credential helpers).
    public var credentialStore: (any CredentialStore)? {
        get { lock.withLock { _credentialStore } }
        set { lock.withLock { _credentialStore = newValue } }
    }

    /// The advice appended to an unknown-host-key error, naming the application's way to accept new keys.
    public var hostKeyTrustHint: String {
        get { lock.withLock { _hostKeyTrustHint } }
        set { lock.withLock { _hostKeyTrustHint = newValue } }
    }

    /// Where `.ssh/config`, `.ssh/known_hosts` and the default keys are looked up; nil means `$HOME` (tests point it elsewhere).
    public var homeDirectory: String? {
        get { lock.withLock { _homeDirectory } }
        set { lock.withLock { _homeDirectory = newValue } }
    }

    /// Whether a prompter is installed (a terminal or askpass program is available).
    var canPrompt: Bool { prompter != nil }

    /// Asks one question at a time across all threads; `key` remembers the answer for later askers of the same question.
    func ask(_ prompt: CredentialPrompt, rememberAs key: String?) -> String? {
        promptLock.withLock {
            if let key, let known = lock.withLock({ answers[key] }) { return known }
            guard let prompter else { return nil }
            let answer = prompter(prompt)
            if let key, let answer { lock.withLock { answers[key] = answer } }
            return answer
        }
    }

    /// Drops a remembered answer that turned out wrong.
    func forget(_ key: String) {
        _ = lock.withLock { answers.removeValue(forKey: key) }
    }

    /// Runs `body` while no other thread reads or writes known_hosts through GitKit.
    func withKnownHostsLock<T>(_ body: () throws -> T) rethrows -> T {
        try knownHostsLock.withLock(body)
    }
}

extension GitKit {
    /// The authentication settings every remote operation of this process uses.
    public static let remoteAuthentication = RemoteAuthentication()
}
