/// What the on-disk index (`.git/index`) says about itself through its cache-tree (`TREE` extension).
///
/// `git clone`, `git checkout`, `git commit` and libgit2's `git_index_read_tree` record there, for each
/// directory, the tree object its index entries make. Every writer of the index (git and libgit2 alike)
/// invalidates a directory's record, up to the root, when it changes an entry below it, and `git commit`
/// builds its trees from the records it finds valid. A valid root record whose tree is HEAD's tree therefore
/// says that the index is exactly HEAD's tree: nothing is staged, nothing is in conflict, and a status need not
/// read HEAD's trees to learn it. That is most of a status's work beyond the work-tree scan in a large
/// repository.
///
/// The file is untrusted input: anything unexpected (an unknown version, a truncated or inconsistent entry, a
/// required extension this reader does not know, a conflict, an intent-to-add or sparse-directory entry) yields
/// no root tree, and callers then do the full comparison.
public struct IndexCacheTree: Equatable, Sendable {
    /// The tree the whole index makes, from a valid root record whose count covers every entry.
    public let rootTree: OID
    /// With `collectingEntries`, every entry with the stat data git recorded for it, in the file's (path) order,
    /// gathered in the same walk that validates the root record; nil otherwise.
    let entries: [IndexEntryStat]?

    /// The bytes of an index file version 2, 3 or 4; nil when no valid root record can be trusted.
    public init?(indexFile bytes: [UInt8], collectingEntries: Bool = false) {
        var entries: [IndexEntryStat]?
        let tree = bytes.withUnsafeBufferPointer { buffer -> OID? in
            guard let reader = IndexFileReader(buffer) else { return nil }
            guard collectingEntries else { return reader.validRootTree() }
            var collected: [IndexEntryStat] = []
            collected.reserveCapacity(reader.entryCount)
            defer { entries = collected }
            return reader.validRootTree(collecting: { collected.append($0) })
        }
        guard let tree else { return nil }
        rootTree = tree
        self.entries = entries
    }
}

/// One index entry as git recorded it: the file's path in the work tree and what `lstat` said when git last
/// knew its content (32-bit fields, as the file holds them).
struct IndexEntryStat: Equatable, Sendable {
    /// The path's bytes as git stores them (compared as bytes: Swift's String equality would merge Unicode forms).
    let path: [UInt8]
    let changedSeconds: UInt32
    let changedNanoseconds: UInt32
    let modifiedSeconds: UInt32
    let modifiedNanoseconds: UInt32
    let inode: UInt32
    let mode: UInt32
    let uid: UInt32
    let gid: UInt32
    let size: UInt32
    /// `git update-index --assume-unchanged`: git does not look at the file.
    let assumeUnchanged: Bool
    /// Outside a sparse checkout: the file is not in the work tree.
    let skipWorktree: Bool
}

/// A bounds-checked walk over an index file's bytes.
private struct IndexFileReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let version: UInt32
    let entryCount: Int
    /// The SHA-1 trailer: extensions end where it starts.
    private static let checksumSize = 20
    private static let oidSize = 20
    /// ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each), the object id and 16 bits of flags.
    private static let fixedEntrySize = 40 + oidSize + 2

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 12 + Self.checksumSize,
              bytes[0] == UInt8(ascii: "D"), bytes[1] == UInt8(ascii: "I"),
              bytes[2] == UInt8(ascii: "R"), bytes[3] == UInt8(ascii: "C") else { return nil }
        self.bytes = bytes
        version = Self.bigEndian32(bytes, at: 4)
        entryCount = Int(Self.bigEndian32(bytes, at: 8))
        // Every entry takes at least its fixed part: a count the file cannot hold is rejected before anything is
        // sized by it (collecting the entries reserves room for them).
        guard (2...4).contains(version),
              entryCount <= (bytes.count - 12 - Self.checksumSize) / Self.fixedEntrySize else { return nil }
    }

    /// `collecting` is given each entry on the way (see `skipEntries`).
    func validRootTree(collecting: ((IndexEntryStat) -> Void)? = nil) -> OID? {
        guard let extensionsStart = skipEntries(collecting: collecting) else { return nil }
        let end = bytes.count - Self.checksumSize
        var offset = extensionsStart
        var root: (count: Int, tree: OID)?
        while offset < end {
            guard end - offset >= 8 else { return nil }
            let signature = bytes[offset..<offset + 4]
            let size = Int(Self.bigEndian32(bytes, at: offset + 4))
            offset += 8
            guard size <= end - offset else { return nil }
            if signature.elementsEqual("TREE".utf8) {
                root = rootRecord(in: offset..<offset + size)
            } else if let first = signature.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                // Lower-case first letter: an extension the reader must understand (split index, sparse index, …).
                return nil
            }
            offset += size
        }
        guard offset == end, let root, root.count == entryCount else { return nil }
        return root.tree
    }

    /// The offset just past the last entry; nil for a malformed entry or one a cache-tree cannot vouch for.
    /// `collecting` is given each entry, in the file's (sorted) order.
    func skipEntries(collecting: ((IndexEntryStat) -> Void)? = nil) -> Int? {
        let end = bytes.count - Self.checksumSize
        let fixed = Self.fixedEntrySize
        var offset = 12
        var previousName: [UInt8] = []
        var previousNameLength = 0
        for _ in 0..<entryCount {
            guard end - offset >= fixed else { return nil }
            let entryStart = offset
            let mode = Self.bigEndian32(bytes, at: offset + 24)
            let flags = Self.bigEndian16(bytes, at: offset + fixed - 2)
            var extended: UInt16 = 0
            var nameStart = offset + fixed
            // Stage bits: an unmerged entry (which no valid cache-tree covers anyway).
            guard flags & 0x3000 == 0, mode & 0o170000 != 0o040000 else { return nil }
            if flags & 0x4000 != 0 {
                guard version >= 3, end - nameStart >= 2 else { return nil }
                extended = Self.bigEndian16(bytes, at: nameStart)
                // Intent-to-add and sparse-directory entries are not in the trees the index makes.
                guard extended & 0x2000 == 0 else { return nil }
                nameStart += 2
            }
            var cursor = nameStart
            let name: Range<Int>
            if version == 4 {
                // The name drops N bytes from the end of the previous name and adds a NUL-terminated suffix.
                guard let (strip, afterNumber) = readOffsetNumber(at: cursor), strip <= previousNameLength else { return nil }
                cursor = afterNumber
                guard let terminator = nul(from: cursor, before: end) else { return nil }
                previousNameLength = previousNameLength - strip + (terminator - cursor)
                guard previousNameLength > 0 else { return nil }
                name = cursor..<terminator
                if collecting != nil {
                    previousName.removeLast(strip)
                    previousName.append(contentsOf: bytes[name])
                }
                offset = terminator + 1
            } else {
                guard let terminator = nul(from: cursor, before: end), terminator > cursor else { return nil }
                // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes from their start.
                let length = (terminator - offset + 8) & ~7
                guard length <= end - offset else { return nil }
                name = cursor..<terminator
                offset += length
            }
            if let collecting {
                let field = { (index: Int) in Self.bigEndian32(self.bytes, at: entryStart + 4 * index) }
                collecting(IndexEntryStat(
                    path: version == 4 ? previousName : Array(bytes[name]),
                    changedSeconds: field(0), changedNanoseconds: field(1), modifiedSeconds: field(2), modifiedNanoseconds: field(3),
                    inode: field(5), mode: mode, uid: field(7), gid: field(8), size: field(9),
                    assumeUnchanged: flags & 0x8000 != 0, skipWorktree: extended & 0x4000 != 0))
            }
        }
        return offset
    }

    /// The root record of a TREE extension: an empty path, the entry count (-1 when invalid), the number of
    /// subtrees and, when valid, the tree's object id.
    private func rootRecord(in range: Range<Int>) -> (count: Int, tree: OID)? {
        var cursor = range.lowerBound
        guard cursor < range.upperBound, bytes[cursor] == 0 else { return nil }
        cursor += 1
        guard let (count, afterCount) = readDecimal(at: cursor, before: range.upperBound, terminator: UInt8(ascii: " ")),
              count >= 0,
              let (_, afterSubtrees) = readDecimal(at: afterCount, before: range.upperBound, terminator: UInt8(ascii: "\n")),
              range.upperBound - afterSubtrees >= Self.oidSize else { return nil }
        return (count, OID(bytes: Array(bytes[afterSubtrees..<afterSubtrees + Self.oidSize])))
    }

    /// An optionally negative decimal ended by `terminator`; the value and the offset past the terminator.
    private func readDecimal(at start: Int, before end: Int, terminator: UInt8) -> (Int, Int)? {
        var cursor = start
        let negative = cursor < end && bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var value = 0
        var digits = 0
        while cursor < end, bytes[cursor] != terminator {
            let byte = bytes[cursor]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 10 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            cursor += 1
        }
        guard digits > 0, cursor < end else { return nil }
        return (negative ? -value : value, cursor + 1)
    }

    /// git's offset encoding of the v4 prefix length: 7 bits a byte, each continuation adding one.
    private func readOffsetNumber(at start: Int) -> (Int, Int)? {
        var cursor = start
        var value = 0
        for position in 0..<5 {
            guard cursor < bytes.count - Self.checksumSize else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            value = (position == 0 ? 0 : (value + 1) << 7) | Int(byte & 0x7f)
            if byte & 0x80 == 0 { return (value, cursor) }
        }
        return nil
    }

    private func nul(from start: Int, before end: Int) -> Int? {
        var cursor = start
        while cursor < end {
            if bytes[cursor] == 0 { return cursor }
            cursor += 1
        }
        return nil
    }

    private static func bigEndian32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    private static func bigEndian16(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}
