import Foundation

// A fetch that is killed leaves its download in objects/pack as libgit2's temporary `pack_git2_*` file (git's
// `tmp_pack_*` / `tmp_idx_*`), or a
// `.lock` of the index being written, or a `pack-*.pack` whose index was never written. None of them is usable
// and git counts them as garbage. They are removed before the next fetch of that repository, but only when last
// written before this process started: a fetch another process runs at the same moment keeps writing its own.

/// When this process started (first use of GitKit), to tell leftovers of earlier processes from live downloads.
let processStart = Date()

extension Repository {
    /// Removes `.lock` files a killed fetch left beside the refs it writes (remote-tracking branches, mirrored
    /// tags), which would make every later fetch fail; only those older than this process.
    func removeInterruptedRefLocks(remote: String) {
        guard let objects = try? objectsDirectory() else { return }
        let gitDirectory = URL(fileURLWithPath: objects).deletingLastPathComponent()
        for folder in ["refs/remotes/\(remote)", "refs/modkit/remote-tags/\(remote)", "refs/tags"] {
            let root = gitDirectory.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey]) else { continue }
            for case let file as URL in walker where file.lastPathComponent.hasSuffix(".lock") {
                guard let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                      modified < processStart else { continue }
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Removes leftovers of interrupted fetches from `objects/pack`; returns the files removed (names only).
    @discardableResult
    func removeInterruptedFetchLeftovers() -> [String] {
        guard let directory = try? objectsDirectory() + "pack",
              let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let names = Set(entries)
        let leftovers = entries.filter { name in
            if name.hasPrefix("pack_git2_") || name.hasPrefix("tmp_pack_") || name.hasPrefix("tmp_idx_") { return true }
            if name.hasPrefix("pack-") && name.hasSuffix(".lock") { return true }
            if name.hasPrefix("pack-") && name.hasSuffix(".pack") {
                return !names.contains(String(name.dropLast(".pack".count)) + ".idx")
            }
            return false
        }
        return leftovers.filter { name in
            let path = directory + "/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  modified < processStart else { return false }
            return (try? FileManager.default.removeItem(atPath: path)) != nil
        }
    }
}
