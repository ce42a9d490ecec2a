import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Which stream a piece of output belongs to: results on stdout, diagnostics and progress on stderr.
public enum OutputStream: Sendable {
    case standardOutput
    case standardError

    var fileDescriptor: Int32 { self == .standardOutput ? STDOUT_FILENO : STDERR_FILENO }
}

/// The one serial writer for everything modkit prints; it clears the live progress line before
/// any other output so progress and diagnostics never interleave.
public final class Console: @unchecked Sendable {
    public let colorOnStandardOutput: Bool
    public let colorOnStandardError: Bool
    /// Whether live progress may be drawn: stderr is a terminal and colour is allowed.
    public let showsLiveProgress: Bool
    public let quiet: Bool
    public let verbose: Bool

    private let lock = NSLock()
    private var progressLine: String?
    /// Captured output for tests; nil writes to the real file descriptors.
    private var capture: (out: String, err: String)?

    public init(noColorFlag: Bool, quiet: Bool, verbose: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let colorAllowed = !noColorFlag && environment["NO_COLOR"].map(\.isEmpty) != false && environment["TERM"] != "dumb"
        colorOnStandardOutput = colorAllowed && isatty(STDOUT_FILENO) == 1
        colorOnStandardError = colorAllowed && isatty(STDERR_FILENO) == 1
        showsLiveProgress = colorOnStandardError && !quiet
        self.quiet = quiet
        self.verbose = verbose
    }

    /// A console that records what it prints instead of writing it, for tests.
    public init(capturing: Void) {
        colorOnStandardOutput = false
        colorOnStandardError = false
        showsLiveProgress = false
        quiet = false
        verbose = false
        capture = ("", "")
    }

    public var captured: (out: String, err: String) { lock.withLock { capture ?? ("", "") } }

    public func style(for stream: OutputStream) -> Style {
        Style(enabled: stream == .standardOutput ? colorOnStandardOutput : colorOnStandardError)
    }

    /// Prints a result line on stdout.
    public func result(_ text: String, terminator: String = "\n") { write(text + terminator, to: .standardOutput) }

    /// Prints an informational line on stderr unless `--quiet`.
    public func info(_ text: String) {
        guard !quiet else { return }
        write(text + "\n", to: .standardError)
    }

    /// Prints `modkit: warning: …` on stderr.
    public func warning(_ text: String) {
        let style = style(for: .standardError)
        write("modkit: \(style.yellow("warning:")) \(text)\n", to: .standardError)
    }

    /// Prints `modkit: error: …` on stderr.
    public func error(_ text: String) {
        let style = style(for: .standardError)
        write("modkit: \(style.red("error:")) \(text)\n", to: .standardError)
    }

    /// Prints already-formatted text as is on stderr (e.g. a rendered diagnostic).
    public func diagnostic(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: .standardError)
    }

    /// Replaces the live progress line on a terminal; does nothing elsewhere.
    public func progress(_ text: String) {
        guard showsLiveProgress else { return }
        lock.withLock {
            let width = terminalWidth()
            let line = text.count > width - 1 ? String(text.prefix(width - 2)) + "…" : text
            rawWrite("\r\u{1B}[2K" + line, to: .standardError)
            progressLine = line
        }
    }

    /// Removes the live progress line, if one is shown.
    public func clearProgress() {
        lock.withLock { clearProgressLocked() }
    }

    public func write(_ text: String, to stream: OutputStream) {
        lock.withLock {
            clearProgressLocked()
            rawWrite(text, to: stream)
        }
    }

    private func clearProgressLocked() {
        guard progressLine != nil else { return }
        rawWrite("\r\u{1B}[2K", to: .standardError)
        progressLine = nil
    }

    private func rawWrite(_ text: String, to stream: OutputStream) {
        if capture != nil {
            if stream == .standardOutput { capture!.out += text } else { capture!.err += text }
            return
        }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(stream.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Glibc.write(stream.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }

    private func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 { return Int(size.ws_col) }
        return 80
    }
}
