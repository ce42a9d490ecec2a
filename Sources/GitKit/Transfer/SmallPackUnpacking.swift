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
        // What was here before: libgit2 completes a thin pack with the local objects its deltas are based on, which
        // git's unpack-objects does not write again. Opened for the first small pack only (a big one stays a pack).
        var earlier: ObjectDatabase??
        func earlierObjects() -> ObjectDatabase? {
            if let earlier { return earlier }
            // A leftover pack without its index (an interrupted write) holds nothing any reader sees.
            let packs = before.sorted().map { objects + "pack/" + $0 + ".idx" }.filter { FileManager.default.fileExists(atPath: $0) }
            let opened = try? ObjectDatabase(looseObjectsIn: objects, packs: packs)
            earlier = .some(opened)
            return opened
        }
        var unpackedAny = false
        for name in added.sorted() {
            unpackedAny = unpack(pack: objects + "pack/" + name, objectsDirectory: objects, limit: limit, skipping: earlierObjects)
                || unpackedAny
        }
        if unpackedAny { reopenObjectDatabase(objects) }
    }

    /// `fetch.unpackLimit`, else `transfer.unpackLimit`, else 100, as git reads them.
    func unpackLimit() -> Int {
        let values = readConfig(["fetch.unpackLimit", "transfer.unpackLimit"]) { config, key in
            var value: Int32 = 0
            return git_config_get_int32(&value, config, key) == 0 ? Int(value) : nil
        }
        return values["fetch.unpackLimit"] ?? values["transfer.unpackLimit"] ?? 100
    }

    func objectsDirectory() throws(GitError) -> String {
        var buf = git_buf()
        try check(git_repository_item_path(&buf, pointer, GIT_REPOSITORY_ITEM_OBJECTS), "git_repository_item_path")
        let path = takeBuf(&buf)
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// Writes the objects of one pack (`path` without extension) as loose objects, but those `earlier` holds, and
    /// deletes it; false when the pack stays (it is large enough, has a `.keep` or other companion file, or something
    /// failed, including reading what was here before).
    private func unpack(pack path: String, objectsDirectory: String, limit: Int, skipping earlier: () -> ObjectDatabase?) -> Bool {
        let companions = ["keep", "promisor", "mtimes", "bitmap", "rev"]
        guard limit > 0, !companions.contains(where: { FileManager.default.fileExists(atPath: "\(path).\($0)") })
        else { return false }
        do {
            let pack = try ObjectDatabase(onePack: path + ".idx")
            guard let objects = pack.objectIDs(stoppingAt: limit), objects.count < limit, let earlier = earlier() else { return false }
            let loose = try ObjectDatabase(looseObjectsIn: objectsDirectory)
            for id in objects where !earlier.contains(OID(id)) {
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
