internal import CLibgit2

// Object databases opened on their own (one pack, the loose objects of a directory) or borrowed from a repository,
// for copying objects between them: unpacking a small fetched pack, and fetching from a repository on this machine.

/// An object database made of one backend, owned and freed by this value.
final class ObjectDatabase {
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

    /// The object database of a repository, every backend of it (packs, loose objects, alternates); it stays valid
    /// after the repository is freed. Writing here writes a loose object.
    init(of repository: Repository) throws(GitError) {
        pointer = try make("git_repository_odb") { git_repository_odb(&$0, repository.pointer) }
    }

    /// The loose objects under an `objects/` directory and the packs whose index files are `packIndexes`.
    convenience init(looseObjectsIn directory: String, packs packIndexes: [String]) throws(GitError) {
        try self.init([("git_odb_backend_loose", { git_odb_backend_loose(&$0, directory, -1, 0, 0, 0) })]
            + packIndexes.map { index in ("git_odb_backend_one_pack", { git_odb_backend_one_pack(&$0, index) }) })
    }

    private convenience init(_ function: String, backend makeBackend: @escaping (inout UnsafeMutablePointer<git_odb_backend>?) -> Int32)
        throws(GitError) {
        try self.init([(function, makeBackend)])
    }

    private init(_ backends: [(function: String, make: (inout UnsafeMutablePointer<git_odb_backend>?) -> Int32)]) throws(GitError) {
        let database = try make("git_odb_new") { git_odb_new(&$0) }
        do throws(GitError) {
            for (function, makeBackend) in backends {
                var backend: UnsafeMutablePointer<git_odb_backend>?
                try check(makeBackend(&backend), function)
                guard let backend else { throw GitError(code: .other(-1), message: "\(function) returned no backend", function: function) }
                try check(modkit_git_odb_adopt_backend(database, backend, 1), "git_odb_add_backend")
            }
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

    /// The type and inflated size of an object, read from its header alone.
    func header(_ id: OID) throws(GitError) -> (type: git_object_t, size: Int) {
        var oid = id.gitOID
        var size = 0
        var type = GIT_OBJECT_INVALID
        try check(git_odb_read_header(&size, &type, pointer, &oid), "git_odb_read_header")
        return (type, size)
    }

    func contains(_ id: OID) -> Bool {
        var oid = id.gitOID
        return git_odb_exists(pointer, &oid) == 1
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
final class ObjectData {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { git_odb_object_free(pointer) }
}
