import Foundation

/// The end of a child `Process`, waited for by its termination handler. Foundation's `waitUntilExit()` on Linux spins
/// the caller's run loop in 50 ms slices until its own child reaper has run: `/bin/true` took 34 ms on average to be
/// waited for that way, against 0.7 ms here. Every `git` that modkit starts (a fetch at internet distance, a checkout,
/// a hook) paid that delay.
///
/// Once the handler has run, `waitUntilExit()` returns at once, and it must still be called: it is what lets Foundation
/// release the process and so close its pipes. Without it every process left its descriptors open, and Foundation's
/// `Process.run()` (Swift 6.3) reads `/proc/self/fd` past the end of its buffer when that directory is long: the test
/// suite crashed there after a few thousand processes.
public final class ProcessExit: @unchecked Sendable {
    private let ended = DispatchSemaphore(value: 0)
    private let process: Process

    /// Becomes `process`'s termination handler: create it before `process.run()`.
    public init(_ process: Process) {
        self.process = process
        process.terminationHandler = { [ended] _ in ended.signal() }
    }

    /// Blocks until the process has ended; `terminationStatus` and `terminationReason` are then set. Returns at once
    /// when it has ended before, so it may be called more than once.
    public func wait() {
        ended.wait()
        ended.signal()
        process.waitUntilExit()
    }

    /// As `wait()`, for at most `timeout` seconds; whether the process ended.
    public func wait(timeout: TimeInterval) -> Bool {
        guard ended.wait(timeout: .now() + timeout) == .success else { return false }
        ended.signal()
        process.waitUntilExit()
        return true
    }
}
