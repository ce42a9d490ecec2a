internal import CLibgit2
import Foundation

// What the work tree and the index hold for one path, compared by blob id (as `git add` would store it).

extension Repository {
    /// The blob id of the work-tree file at `path` as `git add` would store it; nil when no file or symlink is there.
    public func workTreeBlobID(_ path: String) -> OID? {
        guard let workdir else { return nil }
        let full = workdir.withoutTrailingSlash + "/" + path
        var info = stat()
        guard lstat(full, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) else { return nil }
            var oid = git_oid()
            let bytes = Array(target.utf8)
            return git_odb_hash(&oid, bytes, bytes.count, GIT_OBJECT_BLOB) == 0 ? OID(oid) : nil
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        var oid = git_oid()
        guard git_repository_hashfile(&oid, pointer, full, GIT_OBJECT_BLOB, path) == 0 else { git_error_clear(); return nil }
        return OID(oid)
    }

    /// The blob id the index holds for `path` (stage 0); nil when the index has no such entry.
    public func indexBlobID(_ path: String) throws -> OID? {
        let index = try openIndex()
        return git_index_get_bypath(index.pointer, path, 0).map { OID($0.pointee.id) }
    }
}
