internal import CLibgit2
import Foundation

// A fetch from a git:// server that moved, over one connection of modkit's own, protocol v0. libgit2's fetch costs a
// round trip more: it sends its wants and haves, then waits for the server's acknowledgements before it says "done",
// and only then does the pack come. This one says everything at once, as git's fetch can once it knows what it has in
// common (the commits where the moving references are, which the server had at the last fetch): the request, then,
// once the reference list is read, the wants, the haves and "done" in one write. The server answers with one ACK (or
// NAK) and the pack. A connection is set up, the list is read and the pack comes: three round trips where libgit2 took
// four, and one where nothing moved (the client then says it wants nothing).

/// A pack written into a repository's object database as it arrives (libgit2's `git_odb_write_pack`, whose indexer
/// completes a thin pack from the objects already here). Dropped unless committed.
private final class PackWriter {
    private let database: ObjectDatabase
    private let writepack: UnsafeMutablePointer<git_odb_writepack>
    private(set) var progress = git_indexer_progress()

    init(into repository: Repository) throws(GitError) {
        database = try ObjectDatabase(of: repository)
        var out: UnsafeMutablePointer<git_odb_writepack>?
        try check(git_odb_write_pack(&out, database.pointer, nil, nil), "git_odb_write_pack")
        guard let out else { throw GitError(code: .other(-1), message: "git_odb_write_pack returned nothing", function: "git_odb_write_pack") }
        writepack = out
    }

    deinit { writepack.pointee.free(writepack) }

    func append(_ bytes: ArraySlice<UInt8>) throws(GitError) {
        let result = bytes.withUnsafeBytes { writepack.pointee.append(writepack, $0.baseAddress, $0.count, &progress) }
        try check(result, "git_indexer_append")
    }

    func commit() throws(GitError) {
        try check(writepack.pointee.commit(writepack, &progress), "git_indexer_commit")
    }

    var transferProgress: TransferProgress {
        TransferProgress(totalObjects: Int(progress.total_objects), indexedObjects: Int(progress.indexed_objects),
                         receivedObjects: Int(progress.received_objects), localObjects: Int(progress.local_objects),
                         totalDeltas: Int(progress.total_deltas), indexedDeltas: Int(progress.indexed_deltas),
                         receivedBytes: Int(progress.received_bytes))
    }
}

enum GitDaemonFetch {
    enum Outcome: Equatable {
        /// Nothing to fetch: the server was told so.
        case unchanged
        /// The objects are here and the references moved.
        case fetched
        /// The server could not be listed (no connection, an error, a malformed list): the fetch is git's, which
        /// reports what it finds.
        case notListed
        /// The server was listed (protocol v0) and the fetch is git's: what `FetchPlan` leaves to git, a repository that
        /// wants git to see the fetch, nothing here to offer as common history, a server without `side-band-64k` or
        /// with a shallow history, or
        /// a connection or pack that failed (git then fetches, and reports what it finds). Objects downloaded before a
        /// failure stay, as any fetch's do; nothing refers to them.
        case leftToGit
    }

    /// Lists the git:// server at `url` and, where the references `mappings` name moved, downloads what they need
    /// over the same connection and moves them (`FetchPlan`, with `prune`). The connection waits for the turn owed
    /// on this thread (`ConnectionTurn`), and a server silent past its usual answer is asked again over a second one
    /// (`GitDaemonListing.listing`). Throws only a timeout (`.timeout`: `timeout` seconds without a byte from the
    /// server) or a cancellation by `progress` (`.user`), and what writing the references throws.
    static func fetch(into repository: Repository, remote: String, url: GitDaemonURL, mappings: [RefspecMapping],
                      prune: Bool, timeout: TimeInterval, progress: ((TransferProgress) -> Bool)?) throws -> Outcome {
        let socket: GitDaemonSocket
        let parser: AdvertisementParser
        do throws(GitDaemonListingFailure) {
            (socket, parser) = try GitDaemonListing.listing(of: url, wantsNothing: false, timeout: timeout,
                                                            pacing: ConnectionTurn.claim(), hedgeAfter: nil)
        } catch {
            if error.timedOut { throw error.gitError(timeout: timeout, server: url.hostAttribute) }
            return .notListed
        }
        let plan = FetchPlan(into: repository, remote: remote, advertised: parser.references, mappings: mappings, prune: prune)
        // Tells the server that nothing is wanted: its process ends.
        func wantNothing() { try? socket.sendAll(PacketLine.flush, timeout: timeout) }
        if plan.changesNothing {
            wantNothing()
            return .unchanged
        }
        guard !plan.needsGit, !FetchPlan.writesLocalBranches(plan.mappings), parser.capabilities.contains("side-band-64k"),
              !parser.serverIsShallow, repository.writesFetchItself(from: remote),
              case let haves = repository.negotiationHaves(plan), !haves.isEmpty else {
            wantNothing()
            return .leftToGit
        }
        let objects = try? ObjectDatabase(of: repository)
        var seen: Set<OID> = []
        let wants = plan.updates.map(\.new).filter { seen.insert($0).inserted && objects?.contains($0) != true }
        return try download(wants, haves: haves, plan: plan, over: socket, capabilities: parser.capabilities, into: repository,
                            server: url.hostAttribute, timeout: timeout, progress: progress)
    }

    /// Sends the wants, haves and "done" in one write, reads the server's one ACK or NAK and the pack after it, keeps
    /// the pack, checks that the moved references reach only objects here and moves them.
    private static func download(_ wants: [OID], haves: [OID], plan: FetchPlan, over socket: GitDaemonSocket,
                                 capabilities: [String], into repository: Repository, server: String, timeout: TimeInterval,
                                 progress: ((TransferProgress) -> Bool)?) throws -> Outcome {
        let packsBefore = repository.packNames()
        do {
            if !wants.isEmpty {
                let offered = Set(capabilities)
                var asked = ["side-band-64k"]
                for capability in ["ofs-delta", "thin-pack", "no-progress"] where offered.contains(capability) { asked.append(capability) }
                var request = Data()
                for (index, want) in wants.enumerated() {
                    request += PacketLine.encode("want \(want.hex)" + (index == 0 ? " " + asked.joined(separator: " ") : "") + "\n")
                }
                request += PacketLine.flush
                for have in haves { request += PacketLine.encode("have \(have.hex)\n") }
                request += PacketLine.encode("done\n")
                try socket.sendAll(request, timeout: timeout)
                try receivePack(from: socket, into: repository, timeout: timeout, progress: progress)
            } else {
                try? socket.sendAll(PacketLine.flush, timeout: timeout)
            }
        } catch let failure as GitDaemonListingFailure {
            if failure.timedOut { throw failure.gitError(timeout: timeout, server: server) }
            return .leftToGit
        } catch let error as GitError where error.code == .user || error.code == .timeout {
            throw error
        } catch {
            return .leftToGit
        }
        repository.unpackSmallPacks(notIn: packsBefore)
        // The indexer checks each object it is sent, not that the server sent all of them; git's fetch checks that.
        guard LocalFetch(source: repository, plan: plan).reachesOnlyObjectsHere() else { return .leftToGit }
        try plan.applyReferences()
        return .fetched
    }

    /// The server's answer after "done": one "ACK <id>" or "NAK", then the pack on band 1 of the side band (band 2 is
    /// progress text, band 3 the server's error), up to a flush.
    private static func receivePack(from socket: GitDaemonSocket, into repository: Repository, timeout: TimeInterval,
                                    progress: ((TransferProgress) -> Bool)?) throws {
        var reader = PacketReader(socket, timeout: timeout)
        guard case .data(let answer) = try reader.next(),
              answer.starts(with: Array("NAK".utf8)) || answer.starts(with: Array("ACK ".utf8)) else {
            // "ERR upload-pack: not our ref …" and the like, which git's own fetch then reports
            throw GitDaemonListingFailure(description: "the server did not answer the negotiation with ACK or NAK")
        }
        let writer = try PackWriter(into: repository)
        while true {
            guard case .data(let packet) = try reader.next() else { break }
            switch packet.first {
            case 1:
                // A cancellation is seen as data arrives (or the timeout ends the wait), as libgit2's watchdog sees it.
                try writer.append(packet.dropFirst())
                if let progress, !progress(writer.transferProgress) {
                    throw GitError(code: .user, message: "cancelled by a callback", function: "git_indexer_append")
                }
            case 2:
                continue
            case 3:
                throw GitDaemonListingFailure(description: "the server answered: " + String(decoding: packet.dropFirst(), as: UTF8.self))
            default:
                throw GitDaemonListingFailure(description: "the server sent a packet on no side band")
            }
        }
        try writer.commit()
    }
}
