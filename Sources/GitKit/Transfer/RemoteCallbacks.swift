internal import CLibgit2

/// Counters libgit2 reports while it downloads and indexes objects.
public struct TransferProgress: Sendable {
    public var totalObjects: Int
    public var indexedObjects: Int
    public var receivedObjects: Int
    public var localObjects: Int
    public var totalDeltas: Int
    public var indexedDeltas: Int
    public var receivedBytes: Int

    public init(totalObjects: Int = 0, indexedObjects: Int = 0, receivedObjects: Int = 0, localObjects: Int = 0,
                totalDeltas: Int = 0, indexedDeltas: Int = 0, receivedBytes: Int = 0) {
        self.totalObjects = totalObjects
        self.indexedObjects = indexedObjects
        self.receivedObjects = receivedObjects
        self.localObjects = localObjects
        self.totalDeltas = totalDeltas
        self.indexedDeltas = indexedDeltas
        self.receivedBytes = receivedBytes
    }

    init(_ stats: git_indexer_progress) {
        self.init(totalObjects: Int(stats.total_objects), indexedObjects: Int(stats.indexed_objects),
                  receivedObjects: Int(stats.received_objects), localObjects: Int(stats.local_objects),
                  totalDeltas: Int(stats.total_deltas), indexedDeltas: Int(stats.indexed_deltas),
                  receivedBytes: Int(stats.received_bytes))
    }
}

/// The payload behind every `git_remote_callbacks`: optional Swift closures the C trampolines call.
///
/// Every box also authenticates: its `CredentialSession` answers the credentials, certificate-check and
/// remote-ready callbacks from `GitKit.remoteAuthentication`, so clone, fetch, push and ls-remote all
/// authenticate the same way without their callers doing anything. The box is passed unretained; `run`
/// keeps it alive for the C call.
final class RemoteCallbacksBox {
    /// Download progress; returning false cancels with `GitError.Code.user`.
    var transferProgress: ((TransferProgress) -> Bool)?
    /// Push upload progress (current, total, bytes); returning false cancels.
    var pushTransferProgress: ((Int, Int, Int) -> Bool)?
    /// The remote's verdict per pushed reference: name and nil when accepted, else the rejection text.
    var pushUpdateReference: ((String, String?) -> Void)?

    /// Credentials, host keys and ~/.ssh/config for this one operation.
    let session: CredentialSession

    /// Set when a closure asked to cancel, so the resulting error is reported as `.user`.
    private(set) var cancelled = false

    /// Fails the operation when the server stays silent for `GitKit.networkTimeout` seconds.
    let watchdog = NetworkWatchdog()

    init(transferProgress: ((TransferProgress) -> Bool)? = nil, authentication: RemoteAuthentication = GitKit.remoteAuthentication) {
        self.transferProgress = transferProgress
        session = CredentialSession(authentication: authentication)
        TLSTrust.ensureConfigured()
    }

    /// Points `callbacks` at the trampolines for the closures that are set, with this box as payload.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, username, allowed, payload in
            guard let box = RemoteCallbacksBox.from(payload), let out else { return GIT_PASSTHROUGH.rawValue }
            _ = box.watchdog?.touch()
            return box.session.acquire(out, url: url.map { String(cString: $0) },
                                       usernameFromURL: username.map { String(cString: $0) }, allowed: allowed)
        }
        callbacks.certificate_check = { cert, valid, host, payload in
            guard let box = RemoteCallbacksBox.from(payload), let cert else { return GIT_PASSTHROUGH.rawValue }
            _ = box.watchdog?.touch()
            return box.session.checkCertificate(cert, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
        }
        callbacks.remote_ready = { remote, direction, payload in
            guard let box = RemoteCallbacksBox.from(payload), let remote else { return 0 }
            _ = box.watchdog?.touch()
            let push = direction == GIT_DIRECTION_PUSH.rawValue
            guard let current = (push ? git_remote_pushurl(remote) : nil) ?? git_remote_url(remote) else { return 0 }
            guard let resolved = box.session.prepare(connecting: String(cString: current)) else { return 0 }
            return push ? git_remote_set_instance_pushurl(remote, resolved) : git_remote_set_instance_url(remote, resolved)
        }
        if transferProgress != nil || watchdog != nil {
            callbacks.transfer_progress = { stats, payload in
                guard let box = RemoteCallbacksBox.from(payload), let stats else { return 0 }
                guard box.watchdog?.touch() ?? true else { return GIT_EUSER.rawValue }
                return box.verdict(box.transferProgress?(TransferProgress(stats.pointee)) ?? true)
            }
        }
        if watchdog != nil {
            callbacks.sideband_progress = { _, _, payload in
                guard let box = RemoteCallbacksBox.from(payload) else { return 0 }
                return box.watchdog?.touch() ?? true ? 0 : GIT_EUSER.rawValue
            }
        }
        if pushTransferProgress != nil || watchdog != nil {
            callbacks.push_transfer_progress = { current, total, bytes, payload in
                guard let box = RemoteCallbacksBox.from(payload) else { return 0 }
                guard box.watchdog?.touch() ?? true else { return GIT_EUSER.rawValue }
                return box.verdict(box.pushTransferProgress?(Int(current), Int(total), Int(bytes)) ?? true)
            }
        }
        if pushUpdateReference != nil {
            callbacks.push_update_reference = { refname, status, payload in
                guard let box = RemoteCallbacksBox.from(payload), let refname else { return 0 }
                box.pushUpdateReference?(String(cString: refname), status.map { String(cString: $0) })
                return 0
            }
        }
    }

    /// Makes checkout progress count as a sign of life, for a clone that checks out after downloading.
    func installCheckoutProgress(into options: inout git_checkout_options) {
        guard watchdog != nil else { return }
        options.progress_payload = Unmanaged.passUnretained(self).toOpaque()
        options.progress_cb = { _, _, _, payload in _ = RemoteCallbacksBox.from(payload)?.watchdog?.touch() }
    }

    /// Runs a libgit2 call that uses this box, keeping it alive and turning a cancellation into `.user`.
    @discardableResult
    func run<T>(_ body: () throws(GitError) -> T) throws(GitError) -> T {
        _ = SocketStreams.installed
        watchdog?.start()
        let result = withExtendedLifetime(self) { Result { () throws(GitError) -> T in try body() } }
        watchdog?.stop()
        switch result {
        case .success(let value):
            session.succeeded()
            return value
        case .failure(var error):
            error.message = redactingSecrets(error.message)
            if let watchdog, watchdog.timedOut {
                error.code = .timeout
                error.message = "timed out after \(Int(watchdog.timeout)) s without data from the server"
            } else if let failure = session.failure {
                error.code = failure.code
                error.message = failure.message
            } else if cancelled {
                error.code = .user
                if error.message.isEmpty || error.message.hasPrefix("libgit2 returned") {
                    error.message = "cancelled by a callback"
                }
            }
            throw error
        }
    }

    private func verdict(_ proceed: Bool) -> Int32 {
        if proceed { return 0 }
        cancelled = true
        return GIT_EUSER.rawValue
    }

    private static func from(_ payload: UnsafeMutableRawPointer?) -> RemoteCallbacksBox? {
        payload.map { Unmanaged<RemoteCallbacksBox>.fromOpaque($0).takeUnretainedValue() }
    }
}
