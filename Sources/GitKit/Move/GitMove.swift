internal import CLibgit2
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A move whose work tree and index git writes, where `FastPaths` says only git gives git's result:
/// `git read-tree -m -u FROM TO`, the two-way merge that `git checkout` and a fast-forward run. It carries local
/// changes to paths the move does not touch, keeps sparse patterns, runs filter drivers (Git LFS) and encodings, and
/// refuses to overwrite a file it does not track (ignored ones included). `WorkTreeMove` checks and records the
/// move before, and moves the references after.
enum GitMove {
    /// Writes `plan`'s work tree and index with git. A refusal by git's own checks (nothing written) is a
    /// `WorkTreeMoveRefusal`; any other failure leaves the journal for `recover`.
    static func write(_ repository: Repository, _ plan: MovePlan) throws {
        do {
            try readTree(plan)
        } catch let error as GitError where refusedBeforeWriting(error) {
            throw WorkTreeMoveRefusal(reason: "git refused the move: \(error.message)", paths: [],
                                      hint: "move the files it names elsewhere (or commit them), then run the command again")
        }
    }

    /// Finishes a move that git was writing when it was interrupted. git writes files in place and the index last,
    /// so each path holds its old content, its new content, nothing, or (the one git was writing) a part of either.
    /// The index is first made to say what each path holds, so git's own check sees no local change, and the
    /// two-way merge then writes the rest. A path holding something else that was last changed before the move
    /// began is the user's: nothing is written. One changed since then is git's unfinished write: it is saved under
    /// `<git dir>/modkit/partial/` and replaced.
    static func recover(_ repository: Repository, _ plan: MovePlan, started: String) throws {
        let index = try repository.openIndex()
        try check(git_index_read(index.pointer, 1), "git_index_read")
        let found = try inspect(plan, since: MoveJournalTime.seconds(started) ?? 0)
        if !found.foreign.isEmpty {
            throw WorkTreeMoveRefusal(
                reason: "an interrupted move from \(plan.from?.short ?? "nothing") to \(plan.to.short) left paths that match neither commit",
                paths: found.foreign.sorted(),
                hint: "these are your changes: save them elsewhere and remove them, then run the command again to finish the move")
        }
        try savePartial(found.partial, repository: repository, plan: plan)
        try stage(found.desired, in: index, plan: plan)
        try readTree(plan)
    }

    /// What the paths of an interrupted move hold.
    private struct Found {
        /// Paths holding the old or the new entry, or (nil) a folder, where the index should have no entry.
        var desired: [(entry: MoveChange.Entry?, path: String)] = []
        /// Paths holding something else, last changed before the move began: the user's.
        var foreign: [String] = []
        /// Paths holding something else, changed since: git's unfinished write.
        var partial: [String] = []

        mutating func neither(_ path: String, _ info: stat, since: Int) {
            if modificationTime(info) >= since { partial.append(path) } else { foreign.append(path) }
        }
    }

    /// Looks at each path the move changes: a folder or a link as it is, files hashed as `git add` would, all in one `git` run.
    private static func inspect(_ plan: MovePlan, since: Int) throws -> Found {
        var found = Found()
        var hashed: [MoveChange] = []
        for change in plan.changes where !plan.skipped.contains(change.path) && !change.path.contains("\n") {
            let absolute = plan.absolute(change.path)
            var info = stat()
            guard lstat(absolute, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // A folder stands where a file was or comes: its files are changes of their own.
                if change.old?.isGitlink != true, change.new?.isGitlink != true { found.desired.append((nil, change.path)) }
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: absolute)).map { Data($0.utf8) } ?? Data()
                let id = try blobID(of: target)
                if let match = [change.old, change.new].compactMap({ $0 }).first(where: { $0.isLink && $0.oid == id }) {
                    found.desired.append((match, change.path))
                } else {
                    found.neither(change.path, info, since: since)
                }
            default:
                hashed.append(change)
            }
        }
        let ids = try hashWithFilters(hashed.map(\.path), in: plan.workdir)
        for (change, id) in zip(hashed, ids) {
            var info = stat()
            lstat(plan.absolute(change.path), &info)
            let executable = info.st_mode & 0o100 != 0
            let candidates = [change.new, change.old].compactMap { $0 }.filter { !$0.isLink && !$0.isGitlink && $0.oid == id }
            if let match = candidates.first(where: { $0.isExecutable == executable }) ?? candidates.first {
                found.desired.append((match, change.path))
            } else {
                found.neither(change.path, info, since: since)
            }
        }
        return found
    }

    /// Makes the index say what each path holds, where it does not already (`git update-index --index-info`).
    private static func stage(_ desired: [(entry: MoveChange.Entry?, path: String)], in index: IndexHandle, plan: MovePlan) throws {
        var records = Data()
        for (entry, path) in desired {
            let staged = git_index_get_bypath(index.pointer, path, 0)
            if let entry {
                if let staged, OID(staged.pointee.id) == entry.oid, staged.pointee.mode == entry.mode { continue }
                records.append(Data(String(format: "%o %@\t", entry.mode, entry.oid.hex).utf8))
            } else {
                guard staged != nil else { continue }
                records.append(Data("0 \(String(repeating: "0", count: 40))\t".utf8))
            }
            records.append(Data(path.utf8))
            records.append(0)
        }
        if !records.isEmpty {
            try GitCommand(arguments: ["update-index", "-z", "--index-info"], directory: plan.workdir, input: records).run()
        }
    }

    /// The index's stat data refreshed first, as `git checkout` refreshes it (`read-tree` alone takes a file whose
    /// stat data changed but whose content did not, after a copy or a touch, for a local change), then the merge.
    private static func readTree(_ plan: MovePlan) throws {
        // Exits 1 when some file really is modified (elsewhere: the preflight checked the move's paths); the merge decides.
        _ = try? GitCommand(arguments: ["update-index", "-q", "--ignore-submodules", "--refresh"], directory: plan.workdir).run()
        try GitCommand(arguments: ["read-tree", "-m", "-u"] + (plan.from.map { [$0.hex] } ?? []) + [plan.to.hex],
                       directory: plan.workdir).run()
    }

    /// git's messages from the checks it makes before it writes anything.
    private static func refusedBeforeWriting(_ error: GitError) -> Bool {
        ["would be overwritten", "not uptodate", "would be removed", "would be lost", "Entry '"].contains { error.message.contains($0) }
    }

    /// The blob ids of work-tree files as `git add` would store them: with clean filters and encodings.
    private static func hashWithFilters(_ paths: [String], in workdir: String) throws -> [OID] {
        guard !paths.isEmpty else { return [] }
        let input = Data(paths.map { $0 + "\n" }.joined().utf8)
        let output = try GitCommand(arguments: ["hash-object", "--stdin-paths"], directory: workdir, input: input).run()
        let ids = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { OID(hex: String($0)) }
        guard ids.count == paths.count else {
            throw GitError(code: .other(-1), errorClass: "git", message: "git hash-object returned \(ids.count) ids for \(paths.count) files",
                           function: "git hash-object")
        }
        return ids
    }

    private static func blobID(of data: Data) throws -> OID {
        var id = git_oid()
        let result = data.withUnsafeBytes { bytes in git_odb_hash(&id, bytes.baseAddress, bytes.count, GIT_OBJECT_BLOB) }
        try check(result, "git_odb_hash")
        return OID(id)
    }

    private static func savePartial(_ paths: [String], repository: Repository, plan: MovePlan) throws {
        guard !paths.isEmpty else { return }
        let folder = repository.directory.partialWrites + "/" + WorkTreeMove.timestamp()
        for path in paths {
            let saved = folder + "/" + path
            try FileManager.default.createDirectory(atPath: FileSystem.parent(saved), withIntermediateDirectories: true)
            unlink(saved)
            guard rename(plan.absolute(path), saved) == 0 else { throw FileSystem.error("cannot move aside", plan.absolute(path)) }
        }
    }

    private static func modificationTime(_ info: stat) -> Int {
        #if canImport(Darwin)
        return Int(info.st_mtimespec.tv_sec)
        #else
        return Int(info.st_mtim.tv_sec)
        #endif
    }
}

/// The journal's `started` time (`2026-12-02T06:03:09Z`) as seconds since 1970.
enum MoveJournalTime {
    static func seconds(_ text: String) -> Int? {
        let parts = text.split { "-T:Z".contains($0) }.compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(parts[0] - 1900)
        fields.tm_mon = Int32(parts[1] - 1)
        fields.tm_mday = Int32(parts[2])
        fields.tm_hour = Int32(parts[3])
        fields.tm_min = Int32(parts[4])
        fields.tm_sec = Int32(parts[5])
        return Int(timegm(&fields))
    }
}
