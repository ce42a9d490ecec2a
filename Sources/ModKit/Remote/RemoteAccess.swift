import Foundation
import GitKit

/// Sets up how every clone, fetch, push and ls-remote of this process authenticates, once at startup.
public enum RemoteAccess {
    /// Installs git's credential helpers, the prompter (askpass / terminal, none without either) and the host key policy.
    /// New host keys are accepted with `acceptNewHostKeys`, `MODKIT_ACCEPT_NEW_HOST_KEYS=1` or `git config modkit.acceptNewHostKeys true`;
    /// `modkit.authAttempts` (or `MODKIT_AUTH_ATTEMPTS`) sets the credentials attempt limit per repository.
    public static func configure(acceptNewHostKeys: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
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
