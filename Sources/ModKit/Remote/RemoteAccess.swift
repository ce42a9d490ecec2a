import Foundation
import GitKit

/// Sets up how every clone, fetch, push and ls-remote of this process authenticates, once at startup.
public enum RemoteAccess {
    /// Installs git's credential helpers, the prompter (askpass / terminal, none without either) and the host key policy.
    /// New host keys are accepted with `acceptNewHostKeys`, `MODKIT_ACCEPT_NEW_HOST_KEYS=1` or `git config modkit.acceptNewHostKeys true`;
    /// `modkit.authAttempts` (or `MODKIT_AUTH_ATTEMPTS`) sets the credentials attempt limit per repository, and
    /// `modkit.timeout` (or `MODKIT_TIMEOUT`) the seconds without data after which a network operation fails (0: never);
    /// an unknown `fetch.engine` (`MODKIT_FETCH_ENGINE`, `modkit.fetchEngine`) is refused here.
    public static func configure(acceptNewHostKeys: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let text = environment["MODKIT_TIMEOUT"] ?? GitKit.globalConfigString("modkit.timeout") {
            guard let seconds = TimeInterval(text.trimmingCharacters(in: .whitespaces)), seconds >= 0, seconds.isFinite else {
                throw ModKitError.input("network timeout '\(text)' is not a number of seconds",
                                        hint: "set MODKIT_TIMEOUT or git config modkit.timeout to e.g. 60 (0 waits forever)")
            }
            GitKit.networkTimeout = seconds
        }
        _ = try FetchEngineSetting.engine(environment: environment)
        let authentication = GitKit.remoteAuthentication
        authentication.acceptNewHostKeys = acceptNewHostKeys
            || isTrue(environment["MODKIT_ACCEPT_NEW_HOST_KEYS"])
            || isTrue(GitKit.globalConfigString("modkit.acceptNewHostKeys"))
        if let limit = (environment["MODKIT_AUTH_ATTEMPTS"] ?? GitKit.globalConfigString("modkit.authAttempts")).flatMap({ Int($0) }) {
            authentication.attemptLimit = limit
        }
        authentication.credentialStore = GitCredentialHelper()
        authentication.prompter = Prompters.standard(environment: environment)
        authentication.hostKeyTrustHint = "rerun with --accept-new-host-keys"
    }

    static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }
}
