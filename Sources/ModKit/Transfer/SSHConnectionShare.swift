import Foundation
import GitKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A sync's ssh connections, each shared by many of git's transfers (OpenSSH's connection sharing, `ControlMaster`).
///
/// Without it every module over ssh pays a whole handshake: the connection, the key exchange, authentication and
/// only then the channel git talks over, about 7 round trips, and the key exchange's work on both machines. A sync
/// with more modules on one ssh server than it opens connections to at once (`TransferLimits.sshPerHost`, 8)
/// first opens one connection to that server per `channelsPerConnection` of its modules (or of the sync's workers,
/// when fewer), at most `connectionsPerServer` (`ssh -M -N -f`, in parallel). git's ssh then opens each module's channel over one of them:
/// 3 round trips. Each connection carries at most `channelsPerConnection` channels at once, under sshd's default
/// `MaxSessions` of 10. A channel the server refuses all the same is opened over a connection of its own, as ssh does
/// by itself, and the connection then carries no more than the server took (`refused`); once the server's
/// connections carry fewer than `TransferLimits.sshPerHost` channels in all, its remaining modules go as they would
/// without sharing.
///
/// Only where git runs OpenSSH's `ssh` (`GitProcess.sshCommand`, and `ssh.variant` unset, `auto` or `ssh`), and
/// never with a prompt: a connection that cannot be opened without one (an unknown host key, a key the server
/// refuses, a passphrase with no agent) leaves that server's modules to the transfer they have without sharing
/// (libgit2 under `fetch.engine: auto`), whose error then says why. Off with `MODKIT_SSH_SHARE=0` or
/// `git config --global modkit.sshShare false`.
///
/// The connections end with the sync (`close()`), and with modkit when it is killed (`Keeper`); a later sync removes
/// the directory a killed one left (`removeLeftovers`). Their sockets live in a directory of this user's only (mode 0700) under /tmp: a socket's path must stay
/// under 104 bytes, and macOS's `$TMPDIR` is long.
public final class SSHConnectionShare: @unchecked Sendable {
    /// Channels one connection carries at once.
    static let channelsPerConnection = 8
    /// Connections to one server at most.
    static let connectionsPerServer = 4
    /// How long a connection outlives its last channel.
    static let idleSeconds = 60

    /// The channel one transfer runs over.
    public struct Channel: Sendable {
        /// Options for git's ssh: use this connection, never open one of its own as a master.
        let sshOptions: [String]
        fileprivate let connection: Int
        /// The channels already open on the connection when this one was asked for.
        fileprivate let alongside: Int
    }

    struct Connection: Sendable {
        let server: String
        let socket: String
        let destination: String
        let port: Int?
        var channels = 0
        /// The channels it carries at once: `channelsPerConnection`, or fewer once the server refused one.
        var capacity = SSHConnectionShare.channelsPerConnection
    }

    private enum ServerState {
        case opening
        case open([Int])
        case unavailable
    }

    private let sshCommand: String
    /// Opens a connection; nil: `open(_:)`, which runs ssh (a test stands in for the server with its own).
    private let opener: (@Sendable (Connection) -> Bool)?
    /// Where the connections' sockets live.
    let directory: String
    /// Modules of each shared server (`serverKey`), as planned.
    let planned: [String: Int]
    /// Transfers the sync runs at once at most: no server gets connections for more channels than that.
    let workers: Int
    private let condition = NSCondition()
    private var servers: [String: ServerState] = [:]
    private var connections: [Connection] = []
    /// The keepers of the connections open (`Keeper`).
    private var keepers: [Keeper] = []
    private var closed = false

    private init(sshCommand: String, directory: String, planned: [String: Int], workers: Int,
                 opener: (@Sendable (Connection) -> Bool)?) {
        self.sshCommand = sshCommand
        self.workers = max(1, workers)
        self.opener = opener
        self.directory = directory
        self.planned = planned
    }

    deinit { close() }

    /// The share for a sync of modules at `urls` with `jobs` workers: nil when it is off, when git does not run
    /// OpenSSH, or when no ssh server has more of these modules than a sync opens connections to at once.
    public static func forSync(urls: [String], jobs: Int = .max,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> SSHConnectionShare? {
        forSync(urls: urls, jobs: jobs, environment: environment, opener: nil)
    }

    static func forSync(urls: [String], jobs: Int = .max, environment: [String: String],
                        opener: (@Sendable (Connection) -> Bool)?) -> SSHConnectionShare? {
        guard GitKit.switchIsOn(environment: "MODKIT_SSH_SHARE", setting: "modkit.sshShare", environment: environment) else { return nil }
        var modules: [String: Int] = [:]
        for url in urls {
            if let key = serverKey(of: url) { modules[key, default: 0] += 1 }
        }
        let planned = modules.filter { $0.value > TransferLimits.sshPerHost }
        guard !planned.isEmpty else { return nil }
        let variant = environment["GIT_SSH_VARIANT"] ?? GitKit.globalConfigString("ssh.variant")
        guard variant == nil || variant == "auto" || variant == "ssh",
              let command = GitProcess.sshCommand(environment: environment, terminal: false) else { return nil }
        removeLeftovers()
        var template = Array("/tmp/modkit-ssh-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }  // mode 0700
        return SSHConnectionShare(sshCommand: command, directory: String(cString: made), planned: planned, workers: jobs,
                                  opener: opener)
    }

    /// Whether transfers from `url` go over shared connections: opens that server's connections on the first ask
    /// (the others asking meanwhile wait for them). false for a server not planned, or whose connections failed.
    public func isShared(_ url: String) -> Bool { channels(to: url) != nil }

    /// The channels the shared connections to the server of `url` carry at once; nil when it has none. Opens them on
    /// the first ask, as `isShared`.
    public func channels(to url: String) -> Int? {
        guard let key = Self.serverKey(of: url), let modules = planned[key] else { return nil }
        condition.lock()
        while true {
            switch servers[key] {
            case .opening?:
                condition.wait()
                continue
            case .open(let indexes)?:
                let capacity = indexes.reduce(0) { $0 + connections[$1].capacity }
                condition.unlock()
                return capacity
            case .unavailable?:
                condition.unlock()
                return nil
            case nil:
                guard !closed, let target = GitKit.sshDestination(of: url) else {
                    condition.unlock()
                    return nil
                }
                servers[key] = .opening
                let first = connections.count
                let channels = min(modules, workers)
                let count = max(1, min(Self.connectionsPerServer, (channels + Self.channelsPerConnection - 1) / Self.channelsPerConnection))
                for index in first..<(first + count) {
                    connections.append(Connection(server: key, socket: "\(directory)/\(index)", destination: target.destination,
                                                  port: target.port))
                }
                let opening = Array(connections[first...])
                condition.unlock()
                // With `--accept-new-host-keys` the first connection alone writes a new server's key to known_hosts.
                let accepting = GitKit.remoteAuthentication.acceptNewHostKeys
                let open: @Sendable (Connection) -> Bool = opener ?? { [self] in self.open($0) }
                let firstOpened = accepting ? open(opening[0]) : nil
                let rest = firstOpened.map { opened in opened ? Array(opening.dropFirst()) : [] } ?? opening
                let opened = (firstOpened.map { [$0] } ?? []) + Parallel.map(rest, jobs: max(1, rest.count), open)
                let indexes = opened.indices.filter { opened[$0] }.map { first + $0 }
                condition.lock()
                servers[key] = indexes.isEmpty ? .unavailable : .open(indexes)
                condition.broadcast()
            }
        }
    }

    /// A channel to the server of `url` over its least busy connection; nil when it has none (git's ssh then
    /// connects as it would without sharing).
    func channel(to url: String) -> Channel? {
        guard channels(to: url) != nil, let key = Self.serverKey(of: url) else { return nil }
        return condition.withLock {
            // the connection with the most room left
            guard case .open(let indexes)? = servers[key], let index = indexes.max(by: { first, second in
                connections[first].capacity - connections[first].channels < connections[second].capacity - connections[second].channels
            }) else { return nil }
            let alongside = connections[index].channels
            connections[index].channels += 1
            return Channel(sshOptions: ["-o", "ControlMaster=no", "-o", "ControlPath=" + GitProcess.quoted(connections[index].socket)],
                           connection: index, alongside: alongside)
        }
    }

    func release(_ channel: Channel) {
        condition.withLock { connections[channel.connection].channels -= 1 }
    }

    /// The server refused `channel` (its `MaxSessions` is lower than `channelsPerConnection`): the connection carries
    /// no more than were open beside it from now on. A server whose connections then carry fewer channels than
    /// `TransferLimits.sshPerHost` connections of their own would is shared no more: its remaining transfers connect
    /// as they would without sharing (the connections stay until `close()` for the channels still on them).
    func refused(_ channel: Channel) {
        condition.withLock {
            let server = connections[channel.connection].server
            connections[channel.connection].capacity = min(connections[channel.connection].capacity, max(1, channel.alongside))
            guard case .open(let indexes)? = servers[server] else { return }
            if indexes.reduce(0, { $0 + connections[$1].capacity }) < TransferLimits.sshPerHost { servers[server] = .unavailable }
        }
    }

    /// Ends every connection and removes their directory: each keeper's input closes, and the keeper ends its
    /// connection (`ssh -O exit`); the directory goes once they have (or after `GitKit.networkTimeout` in all).
    /// Transfers after it connect on their own.
    public func close() {
        let ending: [Keeper] = condition.withLock {
            guard !closed else { return [] }
            closed = true
            defer { keepers = [] }
            return keepers
        }
        for keeper in ending { try? keeper.input.close() }
        let deadline = Date().addingTimeInterval(GitKit.networkTimeout > 0 ? GitKit.networkTimeout : 60)
        for keeper in ending where !keeper.ended.wait(timeout: max(0, deadline.timeIntervalSinceNow)) { keeper.stop() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The shell that holds one connection open: it runs `ssh -M -N -f`, which authenticates, starts listening on the
    /// connection's socket and only then leaves it in the background, says "open", and waits for its input to close;
    /// then it ends the connection (`ssh -O exit`). Only modkit holds the other end of that input (both ends of both
    /// pipes are closed on exec, so no other child inherits them): it closes when the sync ends (`close()`) and when
    /// modkit dies, killed or not (Ctrl-C included), so a killed sync's connections end at once; a connection whose
    /// keeper was killed too ends after `idleSeconds` without a channel. The shell does not die of the signals sent to
    /// modkit's process group (a handler that does nothing, so that the ssh it starts keeps the default ones), nor of
    /// a SIGPIPE when it says "open" to a modkit that died meanwhile.
    private struct Keeper {
        let process: Process
        let ended: ProcessExit
        /// modkit's end of the shell's input.
        let input: FileHandle

        /// Kills the shell and what it runs (its process group, where it leads one: Foundation starts it so on Linux).
        func stop() {
            let pid = process.processIdentifier
            if kill(-pid, SIGKILL) != 0 { _ = kill(pid, SIGKILL) }
        }
    }

    /// Opens one connection under its keeper; whether it is open within `GitKit.networkTimeout`. A keeper whose
    /// connection is not open by then is killed.
    private func open(_ connection: Connection) -> Bool {
        let path = "ControlPath=" + GitProcess.quoted(connection.socket)
        let master = sshWords(["-o", "ControlMaster=yes", "-o", "ControlPersist=\(Self.idleSeconds)", "-o", path, "-N", "-f"], to: connection)
        let ending = sshWords(["-O", "exit", "-o", path], to: connection)
        // ssh's messages go to a log beside the socket (never a pipe: the connection ssh leaves in the background keeps
        // its output open)
        let script = """
            trap : INT TERM HUP
            trap '' PIPE
            \(master) </dev/null >/dev/null 2>\(GitProcess.quoted(connection.socket + ".log")) || exit 1
            echo open
            read line
            exec \(ending) </dev/null >/dev/null 2>&1
            """
        guard let (shellInput, input) = Self.pipeClosedOnExec(), let (output, shellOutput) = Self.pipeClosedOnExec() else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = GitProcess.environment()
        process.standardInput = shellInput
        process.standardOutput = shellOutput
        process.standardError = FileHandle.nullDevice
        let ended = ProcessExit(process)
        // Started under the lock, so that `close()` knows every keeper there is.
        let keeper: Keeper? = condition.withLock {
            guard !closed, (try? process.run()) != nil else { return nil }
            let keeper = Keeper(process: process, ended: ended, input: input)
            keepers.append(keeper)
            return keeper
        }
        // the shell's ends are its own now
        try? shellInput.close()
        try? shellOutput.close()
        guard let keeper else { return false }
        let said = Self.readOpen(output, timeout: GitKit.networkTimeout)
        try? output.close()
        if said == .timedOut { keeper.stop() }
        guard said == .open, FileManager.default.fileExists(atPath: connection.socket) else {
            try? keeper.input.close()
            return false
        }
        return true
    }

    /// A pipe (read end, write end) that no child inherits but through its standard input or output.
    private static func pipeClosedOnExec() -> (FileHandle, FileHandle)? {
        var ends: [Int32] = [-1, -1]
        guard ShellCommand.makePipe(&ends) == 0 else { return nil }
        return (FileHandle(fileDescriptor: ends[0], closeOnDealloc: true), FileHandle(fileDescriptor: ends[1], closeOnDealloc: true))
    }

    private enum KeeperSaid { case open, ended, timedOut }

    /// What the keeper said on `output`: "open", or nothing before it ended or `timeout` seconds passed (0: no limit).
    private static func readOpen(_ output: FileHandle, timeout: TimeInterval) -> KeeperSaid {
        let deadline = Date().addingTimeInterval(timeout > 0 ? timeout : 86_400)
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            var entry = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .timedOut }
            let ready = poll(&entry, 1, Int32(min(left * 1_000, 86_400_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return ready == 0 ? .timedOut : .ended }
            let count = read(output.fileDescriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .ended }
            said += buffer[..<count]
            if said.starts(with: Array("open\n".utf8)) { return .open }
        }
    }

    /// The shell words that run ssh with `options` to the connection's server.
    private func sshWords(_ options: [String], to connection: Connection) -> String {
        var words = [sshCommand] + options
        if let port = connection.port { words += ["-p", String(port)] }
        words.append(GitProcess.quoted(connection.destination))
        return words.joined(separator: " ")
    }

    /// Removes what killed syncs left in `parent`: directories `modkit-ssh-*` of this user that hold only ssh's logs (a
    /// connection's socket goes when its ssh ends) and have not changed for `age` seconds. A live sync's directory
    /// holds its sockets, or changed moments ago.
    static func removeLeftovers(in parent: String = "/tmp", olderThan age: TimeInterval = 600, now: Date = Date()) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix("modkit-ssh-") {
            let path = parent + "/" + name
            // the link itself, not what it names; another user's directory is theirs
            guard let status = FileStatus(path), status.isDirectory, status.owner == getuid(),
                  now.timeIntervalSince(status.modified) > age,
                  let entries = try? files.contentsOfDirectory(atPath: path),
                  entries.allSatisfy({ $0.hasSuffix(".log") }) else { continue }
            try? files.removeItem(atPath: path)
        }
    }

    /// One server: `destination:port` as git's ssh reaches it; nil for a url that is not ssh.
    static func serverKey(of url: String) -> String? {
        GitKit.sshDestination(of: url).map { "\($0.destination):\($0.port.map(String.init) ?? "")" }
    }
}
