internal import CLibgit2

/// A tag and the commit it names.
public struct TagInfo: Sendable, Equatable {
    /// The short tag name, e.g. "v1.2.0".
    public var name: String
    /// The commit the tag peels to.
    public var commit: OID
    /// The annotated tag object; nil for a lightweight tag.
    public var tagObject: OID?
    /// The annotation as stored (git ends it with a newline); nil for a lightweight tag.
    public var message: String?

    public init(name: String, commit: OID, tagObject: OID?, message: String?) {
        self.name = name
        self.commit = commit
        self.tagObject = tagObject
        self.message = message
    }
}

extension Repository {
    /// Creates an annotated tag on `commit`; throws `.exists` when the tag exists unless `force`; tagger defaults to `defaultSignature()`.
    @discardableResult
    public func createAnnotatedTag(_ name: String, at commit: OID, message: String, tagger: Signature? = nil,
                                   force: Bool = false) throws -> OID {
        let target = try lookupCommit(commit)
        let signature = try (tagger ?? defaultSignature()).makeHandle()
        let text = try prettify(message)
        var oid = git_oid()
        try check(git_tag_create(&oid, pointer, name, target.pointer, signature.pointer, text, force ? 1 : 0),
                  "git_tag_create")
        return OID(oid)
    }

    /// Deletes a tag; throws `.notFound` when it does not exist.
    public func deleteTag(_ name: String) throws {
        try check(git_tag_delete(pointer, name), "git_tag_delete")
    }

    /// Tag names matching a glob pattern (e.g. "v1.*"), sorted.
    public func tagNames(matching pattern: String = "*") throws -> [String] {
        var array = git_strarray()
        try check(git_tag_list_match(&array, pattern, pointer), "git_tag_list_match")
        return takeStrarray(&array).sorted()
    }

    /// Looks up a tag (annotated or lightweight); nil when it does not exist.
    public func tag(_ name: String) throws -> TagInfo? {
        guard let ref = try nilIfNotFound({ () throws(GitError) in try lookupReference("refs/tags/" + name) }),
              var target = ref.directTarget.map({ $0.gitOID }) else { return nil }
        let commit = try peelToCommit(ref)
        let object = ObjectHandle(try make("git_object_lookup") { git_object_lookup(&$0, pointer, &target, GIT_OBJECT_ANY) },
                                  owner: self)
        guard git_object_type(object.pointer) == GIT_OBJECT_TAG else {
            return TagInfo(name: name, commit: commit, tagObject: nil, message: nil)
        }
        let message = git_tag_message(object.pointer).map { String(cString: $0) } ?? ""
        return TagInfo(name: name, commit: commit, tagObject: OID(target), message: message)
    }

    /// Cleans a message the way `git commit` does (trailing whitespace, final newline); comments are kept.
    func prettify(_ message: String) throws(GitError) -> String {
        var buf = git_buf()
        try check(git_message_prettify(&buf, message, 0, CChar(UInt8(ascii: "#"))), "git_message_prettify")
        return takeBuf(&buf)
    }
}
