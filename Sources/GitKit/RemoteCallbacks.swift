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
/// Credentials and certificate-check closures belong here too, next to the progress ones, so one box
/// serves clone, fetch and push. The box is passed unretained; `run` keeps it alive for the C call.
final class RemoteCallbacksBox {
    /// Download progress; returning false cancels with `GitError.Code.user`.
    var transferProgress: ((TransferProgress) -> Bool)?
    /// Push upload progress (current, total, bytes); returning false cancels.
    var pushTransferProgress: ((Int, Int, Int) -> Bool)?
    /// The remote's verdict per pushed reference: name and nil when accepted, else the rejection text.
    var pushUpdateReference: ((String, String?) -> Void)?

    /// Set when a closure asked to cancel, so the resulting error is reported as `.user`.
    private(set) var cancelled = false

    init(transferProgress: ((TransferProgress) -> Bool)? = nil) {
        self.transferProgress = transferProgress
    }

    /// Points `callbacks` at the trampolines for the closures that are set, with this box as payload.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        if transferProgress != nil {
            callbacks.transfer_progress = { stats, payload in
                guard let box = RemoteCallbacksBox.from(payload), let stats else { return 0 }
                return box.verdict(box.transferProgress?(TransferProgress(stats.pointee)) ?? true)
            }
        }
        if pushTransferProgress != nil {
            callbacks.push_transfer_progress = { current, total, bytes, payload in
                guard let box = RemoteCallbacksBox.from(payload) else { return 0 }
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

    /// Runs a libgit2 call that uses this box, keeping it alive and turning a cancellation into `.user`.
    @discardableResult
    func run<T>(_ body: () throws(GitError) -> T) throws(GitError) -> T {
        let result = withExtendedLifetime(self) { Result { () throws(GitError) -> T in try body() } }
        switch result {
        case .success(let value):
            return value
        case .failure(var error):
            if cancelled {
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
