import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Turns Ctrl-C into a request to stop while an all-or-nothing step runs, so it can roll back first; the usual handler returns afterwards.
enum InterruptDeferral {
    nonisolated(unsafe) static var requested: Int32 = 0

    static func run<T>(_ body: (@escaping () -> Bool) throws -> T) rethrows -> T {
        requested = 0
        let previous = signal(SIGINT) { _ in InterruptDeferral.requested = 1 }
        defer { signal(SIGINT, previous) }
        return try body { InterruptDeferral.requested != 0 }
    }
}
