import Foundation
@testable import ModKit

/// Makes the incremental build's worst case happen on purpose: a guard written in the same whole second in which the
/// dependent's previous build started, the case swift-driver's whole-second time check cannot see (docs/guard.md).
///
/// Every `swift build` compiles through a wrapper (`SWIFT_EXEC`). For the build that precedes such a case the wrapper starts
/// the compiler under libfaketime with a clock standing almost still at a chosen second ahead, so the dependent's build
/// record says it started then; the test waits until the real clock reaches that second and writes the guard in it.
struct GuardSameSecond {
    /// The compiler wrapper to pass as `SWIFT_EXEC`.
    let wrapper: URL

    /// libfaketime as Debian and Ubuntu install it (`apt-get install faketime`); nil when it is not installed.
    static let library: String? = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]
        .map { $0 + "/faketime/libfaketimeMT.so.1" }.first { FileManager.default.fileExists(atPath: $0) }

    init(in directory: URL, swiftc: String, library: String) throws {
        wrapper = directory.appendingPathComponent("swiftc-wrapper")
        // NO_FAKE_STAT keeps file times real, so the driver's record of its inputs stays true. Started directly under
        // libfaketime, swift-driver 6.3 traps while reading its arguments; started by timeout(1) it does not.
        let script = """
            #!/bin/sh
            if [ -n "${MODKIT_FAKE_SECOND:-}" ]; then
              TZ=UTC NO_FAKE_STAT=1 FAKETIME="@$MODKIT_FAKE_SECOND x0.001" LD_PRELOAD='\(library)' exec timeout --foreground 600 '\(swiftc)' "$@"
            fi
            exec '\(swiftc)' "$@"

            """
        try Data(script.utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
    }

    /// The environment of a build; with `fakeSecond`, the compiler's clock stands at the start of that second.
    func environment(fakeSecond: Int? = nil) -> [String: String] {
        var environment = ["SWIFT_EXEC": wrapper.path]
        if let fakeSecond {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            environment["MODKIT_FAKE_SECOND"] = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(fakeSecond)))
        }
        return environment
    }

    /// Sleeps until the wall clock is inside `second`; returns false when it is already past it.
    static func wait(until second: Int) -> Bool {
        let now = Date().timeIntervalSince1970
        guard Int(now) <= second else { return false }
        if Int(now) < second { Thread.sleep(forTimeInterval: TimeInterval(second) - now + 0.01) }
        return true
    }

    /// Stamps `module` (a built `.swiftmodule`) with `date`: the earliest time a build started after the guard was written
    /// can have produced it, as on a machine that builds in no time.
    static func stamp(_ module: URL, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: module.path)
    }
}
