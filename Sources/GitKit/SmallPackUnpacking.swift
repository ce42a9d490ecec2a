internal import CLibgit2
import Foundation

// git keeps a small fetch as loose objects (fewer than `fetch.unpackLimit`, 100 by default) and only a
// larger one as a pack; libgit2 always keeps the pack. A workspace synced every day would collect one small
// pack per module per sync, and every open of a repository reads the index of each pack: after six syncs
// `modkit status` over 100 modules took a third longer. So a fetch here ends the way git's does.

extension Repository {
    /// The base names ("pack-<hash>") of the packs in the object database.
    func packNames() -> Set<String> {
        guard let directory = try? objectsDirectory() + "pack",
              let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return Set(entries.filter { $0.hasSuffix(".pack") }.map { String($0.dropLast(".pack".count)) })
    }

    /// Turns each pack that is not in `before` and holds fewer objects than git's unpack limit into loose
    /// objects. Best effort: a pack is deleted only after every one of its objects was written loose, so a
    /// failure (or a kill) at any point leaves every object readable.
    func unpackSmallPacks(notIn before: Set<String>) {
        let added = packNames().subtracting(before)
        guard !added.isEmpty, let objects = try? objectsDirectory() else { return }
        let limit = unpackLimit()
        var unpackedAny = false
        for name in added.sorted() {
            unpackedAny = unpack(pack: objects + "pack/" + name, objectsDirectory: objects, limit: limit) || unpackedAny
        }
        if unpackedAny { reopenObjectDatabase(objects) }
    }

    /// `fetch.unpackLimit`, else `transfer.unpackLimit`, else 100, as git reads them.
    private func unpackLimit() -> Int {
        guard let snapshot = try? make("git_repository_config_snapshot", { git_repository_config_snapshot(&$0, pointer) })
        else { return 100 }
        let config = ConfigHandle(snapshot, owner: self)
        for key in ["fetch.unpackLimit", "transfer.unpackLimit"] {
            var value: Int32 = 0
            if git_config_get_int32(&value, config.pointer, key) == 0 { return Int(value) }
        }
        return 100
    }

    func objectsDirectory() throws(GitError) -> String {
        var buf = git_buf()
        try check(git_repository_item_path(&buf, pointer, GIT_REPOSITORY_ITEM_OBJECTS), "git_repository_item_path")
        let path = takeBuf(&buf)
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// Writes the objects of one pack (`path` without extension) as loose objects and deletes it; false when
    /// the pack stays (it is large enough, has a `.keep` or other companion file, or something failed).
    private func unpack(pack path: String, objectsDirectory: String, limit: Int) -> Bool {
        let companions = ["keep", "promisor", "mtimes", "bitmap", "rev"]
        guard limit > 0, !companions.contains(where: { FileManager.default.fileExists(atPath: "\(path).\($0)") })
        else { return false }
        do {
            let pack = try ObjectDatabase(onePack: path + ".idx")
            guard let objects = pack.objectIDs(stoppingAt: limit), objects.count < limit else { return false }
            let loose = try ObjectDatabase(looseObjectsIn: objectsDirectory)
            for id in objects {
                try loose.write(try pack.read(id), expecting: id)
            }
        } catch {
            return false
        }
        // The index first: without it no reader considers the pack at all.
        return unlink(path + ".idx") == 0 && unlink(path + ".pack") == 0
    }

    /// Drops the repository's handle on the object database (which may still list a deleted pack) for a fresh one.
    private func reopenObjectDatabase(_ objectsDirectory: String) {
        guard let fresh = try? make("git_odb_open", { git_odb_open(&$0, objectsDirectory) }) else { return }
        git_repository_set_odb(pointer, fresh)
        git_odb_free(fresh)  // the repository keeps its own reference
    }
}

/// An object database made of one backend, owned and freed by this value.
private final class ObjectDatabase {
    let pointer: OpaquePointer

    /// The objects of one pack, read through its index file.
    convenience init(onePack indexPath: String) throws(GitError) {
        try self.init("git_odb_backend_one_pack") { git_odb_backend_one_pack(&$0, indexPath) }
    }

    /// The loose objects under an `objects/` directory; writing here always writes a loose object.
    convenience init(looseObjectsIn directory: String) throws(GitError) {
        // Default compression, no fsync, git's default directory and file modes: what libgit2 uses itself.
        try self.init("git_odb_backend_loose") { git_odb_backend_loose(&$0, directory, -1, 0, 0, 0) }
    }

    private init(_ function: String, backend makeBackend: (inout UnsafeMutablePointer<git_odb_backend>?) -> Int32)
        throws(GitError) {
        let database = try make("git_odb_new") { git_odb_new(&$0) }
        var backend: UnsafeMutablePointer<git_odb_backend>?
        do throws(GitError) {
            try check(makeBackend(&backend), function)
            guard let backend else { throw GitError(code: .other(-1), message: "\(function) returned no backend", function: function) }
            try check(modkit_git_odb_adopt_backend(database, backend, 1), "git_odb_add_backend")
        } catch {
            git_odb_free(database)
            throw error
        }
        pointer = database
    }

    deinit { git_odb_free(pointer) }

    /// Every object id, or nil once there are `limit` of them (the caller has no use for more).
    func objectIDs(stoppingAt limit: Int) -> [git_oid]? {
        final class Collected { var ids: [git_oid] = []; var limit = 0 }
        let collected = Collected()
        collected.limit = limit
        let result = withExtendedLifetime(collected) {
            git_odb_foreach(pointer, { id, payload in
                let collected = Unmanaged<Collected>.fromOpaque(payload!).takeUnretainedValue()
                collected.ids.append(id!.pointee)
                return collected.ids.count >= collected.limit ? 1 : 0
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return result == 0 ? collected.ids : nil
    }

    /// Reads one object; the caller owns the result.
    func read(_ id: git_oid) throws(GitError) -> ObjectData {
        var id = id
        return ObjectData(try make("git_odb_read") { git_odb_read(&$0, pointer, &id) })
    }

    /// Writes an object and checks it hashed to the id it was read under.
    func write(_ object: ObjectData, expecting id: git_oid) throws(GitError) {
        var written = git_oid()
        try check(git_odb_write(&written, pointer, git_odb_object_data(object.pointer), git_odb_object_size(object.pointer),
                                git_odb_object_type(object.pointer)), "git_odb_write")
        var expected = id
        guard git_oid_equal(&written, &expected) == 1 else {
            throw GitError(code: .other(-1), message: "object \(OID(expected).hex) was written as \(OID(written).hex)",
                           function: "git_odb_write")
        }
    }
}

/// Owns a `git_odb_object`.
private final class ObjectData {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { git_odb_object_free(pointer) }
}
