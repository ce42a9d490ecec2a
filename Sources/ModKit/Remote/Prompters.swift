import Foundation
import GitKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where modkit asks the user for a user name, password or passphrase: `GIT_ASKPASS` / `SSH_ASKPASS`, then the
/// terminal. GitKit serialises the questions; without a terminal and without askpass there are none.
public enum Prompters {
    /// The prompter for this process, or nil when nobody can be asked (then authentication fails fast).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment,
                                terminal: Bool = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1) -> (@Sendable (CredentialPrompt) -> String?)? {
        let askpass = [environment["GIT_ASKPASS"], environment["SSH_ASKPASS"]].compactMap { $0 }.first { !$0.isEmpty }
        switch (askpass, terminal) {
        case (let program?, true): return { askpassAnswer(program, $0) ?? terminalAnswer($0) }
        case (let program?, false): return { askpassAnswer(program, $0) }
        case (nil, true): return { terminalAnswer($0) }
        case (nil, false): return nil
        }
    }

    /// Runs an askpass program with the prompt as its argument; its first output line is the answer.
    static func askpassAnswer(_ program: String, _ prompt: CredentialPrompt) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$1\"", program, prompt.text]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let ended = ProcessExit(process)
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        guard process.terminationStatus == 0 else { return nil }
        let answer = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        return answer?.isEmpty == false ? answer : nil
    }

    /// Asks on /dev/tty, with echo off for secrets; nil when there is no terminal or the user gives no answer.
    static func terminalAnswer(_ prompt: CredentialPrompt) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        let restoreEcho = prompt.secret && tcgetattr(fd, &saved) == 0
        if restoreEcho {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer {
            if restoreEcho {
                tcsetattr(fd, TCSAFLUSH, &saved)
                _ = "\n".withCString { write(fd, $0, 1) }
            }
        }
        _ = prompt.text.withCString { write(fd, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
