import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Runs `/bin/sh -c`, its stdout and stderr captured together through one pipe, streamed line by line,
/// or left on modkit's own terminal.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`, which closes every descriptor up to
/// the limit and starts a monitoring thread per child: on 100 modules that was most of `forall`'s time.
public enum ShellCommand {
    public struct Result: Sendable {
        public var status: Int32
        /// What the command wrote, when it was captured; empty when it was streamed or inherited.
        public var output: String
    }

    /// Where the command's output goes.
    public enum Output {
        /// Kept whole and returned in the result.
        case capture
        /// Handed over one line at a time (without its newline) as it arrives; a last unterminated line too.
        case lines((String) -> Void)
        /// modkit's own stdin, stdout and stderr: the command talks to the terminal directly.
        case inherit
    }

    public static func run(_ command: String, in directory: URL, environment: [String: String]) throws -> Result {
        try run(command, in: directory, environment: environment, output: .capture)
    }

    public static func run(_ command: String, in directory: URL, environment: [String: String], output: Output) throws -> Result {
        if case .inherit = output {
            let pid = try spawn(["/bin/sh", "-c", command], in: directory.path, environment: environment, output: nil).get()
            return Result(status: wait(pid), output: "")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard makePipe(&pipeEnds) == 0 else { throw ModKitError("cannot create a pipe: \(errnoText())") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        let spawned: Swift.Result<pid_t, ModKitError> = spawn(["/bin/sh", "-c", command], in: directory.path,
                                                        environment: environment, output: writeEnd)
        close(writeEnd)
        defer { close(readEnd) }
        let pid = try spawned.get()
        var captured: [UInt8] = []
        switch output {
        case .capture, .inherit:
            readAll(readEnd) { captured.append(contentsOf: $0) }
        case .lines(let emit):
            var pending: [UInt8] = []
            readAll(readEnd) { chunk in
                pending.append(contentsOf: chunk)
                guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { return }
                for line in pending[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                    emit(String(decoding: line, as: UTF8.self))
                }
                pending.removeSubrange(...last)
            }
            if !pending.isEmpty { emit(String(decoding: pending, as: UTF8.self)) }
        }
        return Result(status: wait(pid), output: String(decoding: captured, as: UTF8.self))
    }

    private static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        WorkspaceLock.ended(pid)
        return exitCode(status)
    }

    /// Starts `arguments` in `directory` with stdin from /dev/null and stdout and stderr on `output`,
    /// or, without `output`, with modkit's own three descriptors.
    private static func spawn(_ arguments: [String], in directory: String, environment: [String: String],
                              output: Int32?) -> Swift.Result<pid_t, ModKitError> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, output, 2)
        }
        var argumentsToRun = arguments
        if let addChdir = CFunctions.addChdir {
            _ = addChdir(&actions, directory)
        } else {
            // No posix_spawn_file_actions_addchdir_np: let the shell change directory first.
            argumentsToRun = ["/bin/sh", "-c", "cd \"$0\" || exit 127; exec /bin/sh -c \"$1\"", directory, arguments[2]]
        }
        // The child starts with default signal handlers and an empty mask, whatever modkit installed.
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = argumentsToRun.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard code == 0 else { return .failure(ModKitError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")) }
        WorkspaceLock.started(pid)  // a release command may outlive a killed modkit: the next run waits for it
        return .success(pid)
    }

    /// A pipe whose ends are not inherited by children other than through the file actions above.
    static func makePipe(_ ends: inout [Int32]) -> Int32 {
        if let pipe2 = CFunctions.pipe2 { return pipe2(&ends, O_CLOEXEC) }
        guard pipe(&ends) == 0 else { return -1 }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return 0
    }

    /// Reads until end of file, handing over each chunk as it arrives.
    private static func readAll(_ descriptor: Int32, _ chunk: ([UInt8]) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                chunk(Array(buffer[0..<count]))
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }

    /// The exit status as a shell reports it: the code, or 128 + the signal that ended the child.
    private static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// libc functions that Swift's Glibc module hides (GNU extensions) or that are newer than the
/// deployment target, looked up once at run time; nil where the C library lacks them.
private enum CFunctions {
    #if canImport(Darwin)
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t?>, UnsafePointer<CChar>) -> Int32
    #else
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    #endif
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let pipe2: Pipe2? = symbol("pipe2")

    private static func symbol<T>(_ name: String) -> T? {
        let handle = dlopen(nil, RTLD_NOW)
        guard let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
