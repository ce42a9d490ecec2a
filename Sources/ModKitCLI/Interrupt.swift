#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Ctrl-C handling: exits 130 at once, after clearing a live progress line.
/// Writers are atomic (temporary file + rename), so an interrupt never leaves a half-written file.
enum Interrupt {
    static func install() {
        // A parent may have started modkit with SIGINT blocked (Foundation's Process does); unblock it.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
        signal(SIGINT) { _ in
            let clear: [UInt8] = Array("\r\u{1B}[2K".utf8)
            if isatty(STDERR_FILENO) == 1 {
                _ = clear.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
            _exit(130)
        }
    }
}
