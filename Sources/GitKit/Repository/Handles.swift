internal import CLibgit2
import Foundation

// Owners of libgit2 handles: each frees its pointer in deinit and keeps the repository alive
// while it lives. None of them is Sendable; they never leave the thread that made them.

/// Owns a `git_object` (commit, tree, blob, tag or any object) and frees it with `git_object_free`.
final class ObjectHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_object_free(pointer) }
}

/// Owns a `git_reference`.
final class ReferenceHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_reference_free(pointer) }

    /// The full reference name, e.g. "refs/heads/main".
    var name: String { String(cString: git_reference_name(pointer)) }

    /// The target of a direct reference (nil for a symbolic one).
    var directTarget: OID? { git_reference_target(pointer).map(OID.init) }

    /// The target name of a symbolic reference (nil for a direct one).
    var symbolicTarget: String? { git_reference_symbolic_target(pointer).map { String(cString: $0) } }
}

/// Owns a `git_remote`.
final class RemoteHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_remote_free(pointer) }
}

/// Owns a `git_refdb`.
final class RefdbHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_refdb_free(pointer) }
}

/// Owns a `git_index`.
final class IndexHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_index_free(pointer) }
}

/// Owns a `git_config`.
final class ConfigHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_config_free(pointer) }
}

/// Owns a `git_revwalk`.
final class RevwalkHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_revwalk_free(pointer) }
}

/// Owns a `git_status_list`.
final class StatusListHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_status_list_free(pointer) }
}

/// Owns a `git_tree_entry` returned by `git_tree_entry_bypath`.
final class TreeEntryHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_tree_entry_free(pointer) }
}

/// Owns a `git_reference_iterator`.
final class ReferenceIteratorHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_reference_iterator_free(pointer) }
}

/// Owns a `git_branch_iterator`.
final class BranchIteratorHandle {
    let pointer: OpaquePointer
    private let owner: AnyObject?
    init(_ pointer: OpaquePointer, owner: AnyObject?) { self.pointer = pointer; self.owner = owner }
    deinit { git_branch_iterator_free(pointer) }
}

/// Owns a `git_signature` made by GitKit.
final class SignatureHandle {
    let pointer: UnsafeMutablePointer<git_signature>
    init(_ pointer: UnsafeMutablePointer<git_signature>) { self.pointer = pointer }
    deinit { git_signature_free(pointer) }
}

/// Calls a libgit2 constructor that fills an out-pointer and returns the (checked) pointer.
func make(_ function: String, _ body: (inout OpaquePointer?) -> Int32) throws(GitError) -> OpaquePointer {
    var pointer: OpaquePointer?
    try check(body(&pointer), function)
    guard let pointer else {
        throw GitError(code: .other(-1), message: "\(function) returned no object", function: function)
    }
    return pointer
}

/// Runs `body` and maps a `.notFound` GitError to nil, for lookups whose absence is an answer.
func nilIfNotFound<T>(_ body: () throws(GitError) -> T) throws(GitError) -> T? {
    do {
        return try body()
    } catch where error.code == .notFound {
        return nil
    }
}

/// Lends a `git_strarray` view of `strings` to `body`; the C strings live only during the call.
func withStrarray<T>(_ strings: [String], _ body: (UnsafeMutablePointer<git_strarray>) throws(GitError) -> T) throws(GitError) -> T {
    var cStrings: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    let count = cStrings.count
    return try cStrings.withUnsafeMutableBufferPointer { (buffer) throws(GitError) -> T in
        var array = git_strarray(strings: buffer.baseAddress, count: count)
        return try body(&array)
    }
}

/// Copies and disposes a `git_strarray` that libgit2 filled.
func takeStrarray(_ array: inout git_strarray) -> [String] {
    defer { git_strarray_dispose(&array) }
    guard let strings = array.strings else { return [] }
    return (0..<array.count).compactMap { strings[$0].map { String(cString: $0) } }
}

/// Copies and disposes a `git_buf` that libgit2 filled.
func takeBuf(_ buf: inout git_buf) -> String {
    defer { git_buf_dispose(&buf) }
    guard let ptr = buf.ptr else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: ptr, count: buf.size), as: UTF8.self)
}
