internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension GitKit {
    /// Seconds a network operation may go without any sign of life from the server before it fails
    /// with `.timeout`; 0 waits forever. The default is 60.
    public static var networkTimeout: TimeInterval {
        get { NetworkWatchdog.settings.withLock { $0 } }
        set {
            ensureInitialized()
            NetworkWatchdog.settings.withLock { $0 = max(0, newValue) }
            _ = modkit_git_set_server_timeouts(Int32(min(max(0, newValue) * 1000, Double(Int32.max))))
        }
    }
}

/// Cancels one network operation that has heard nothing from the server for `GitKit.networkTimeout` seconds.
///
/// Every remote callback counts as a sign of life. libgit2 before 1.7 has no timeout of its own and a
/// stalled server calls no callback at all, so the watchdog also sends the operation's thread a signal
/// whose handler does nothing: the blocking connect() or recv() fails with EINTR and libgit2 returns.
final class NetworkWatchdog: @unchecked Sendable {
    static let settings = LockedValue<TimeInterval>(60)
    private static let wakeupSignal = SIGURG
    private static let signalInstalled: Bool = modkit_install_wakeup_signal(wakeupSignal) == 0

    let timeout: TimeInterval
    private let lock = NSLock()
    private var lastActivity = DispatchTime.now()
    private var thread: pthread_t?
    private var expired = false
    private var timer: DispatchSourceTimer?

    /// A watchdog for the configured timeout; nil when timeouts are off.
    init?() {
        let timeout = NetworkWatchdog.settings.withLock { $0 }
        guard timeout > 0 else { return nil }
        self.timeout = timeout
    }

    /// Records a sign of life; returns false once the operation has timed out, so the callback cancels it.
    func touch() -> Bool {
        lock.withLock {
            if !expired { lastActivity = .now() }
            return !expired
        }
    }

    /// Whether the operation was cancelled because it timed out.
    var timedOut: Bool { lock.withLock { expired } }

    /// Watches the calling thread until `stop`.
    func start() {
        _ = NetworkWatchdog.signalInstalled
        _ = modkit_unblock_signal(NetworkWatchdog.wakeupSignal)
        let interval = min(1.0, timeout / 4)
        lock.withLock {
            thread = pthread_self()
            lastActivity = .now()
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        lock.withLock { thread = nil }
        timer?.cancel()
        timer = nil
    }

    /// Past the timeout, marks the operation expired and interrupts its thread, again every tick until it returns
    /// (under the lock, so no signal reaches the thread after `stop`).
    private func tick() {
        lock.withLock {
            guard let thread else { return }
            if !expired, DispatchTime.now().uptimeNanoseconds - lastActivity.uptimeNanoseconds > UInt64(timeout * 1e9) {
                expired = true
            }
            if expired { pthread_kill(thread, NetworkWatchdog.wakeupSignal) }
        }
    }
}

/// A value guarded by a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}
