internal import CLibgit2
import Foundation

/// Who made a commit or tag, and when.
public struct Signature: Sendable, Equatable {
    public var name: String
    public var email: String
    public var date: Date

    public init(name: String, email: String, date: Date = Date()) {
        self.name = name
        self.email = email
        self.date = date
    }

    init(_ signature: UnsafePointer<git_signature>) {
        name = String(cString: signature.pointee.name)
        email = String(cString: signature.pointee.email)
        date = Date(timeIntervalSince1970: TimeInterval(signature.pointee.when.time))
    }

    /// A libgit2 signature in the local time zone of `date`.
    func makeHandle() throws(GitError) -> SignatureHandle {
        var raw: UnsafeMutablePointer<git_signature>?
        let offsetMinutes = Int32(TimeZone.current.secondsFromGMT(for: date) / 60)
        try check(git_signature_new(&raw, name, email, git_time_t(date.timeIntervalSince1970.rounded(.down)), offsetMinutes),
                  "git_signature_new")
        guard let raw else { throw GitError(code: .invalid, message: "no signature", function: "git_signature_new") }
        return SignatureHandle(raw)
    }
}

extension Repository {
    /// The user's signature from `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL`, else `user.name`/`user.email` config (repository, then global).
    public func defaultSignature() throws -> Signature {
        let environment = ProcessInfo.processInfo.environment
        func value(_ variable: String, _ key: String, _ example: String) throws -> String {
            if let text = environment[variable], !text.isEmpty { return text }
            if let text = try configString(key), !text.isEmpty { return text }
            throw GitError(code: .notFound, errorClass: "config",
                           message: "\(key) is not set; run `git config --global \(key) \"\(example)\"`",
                           function: "defaultSignature")
        }
        return Signature(name: try value("GIT_AUTHOR_NAME", "user.name", "Your Name"),
                         email: try value("GIT_AUTHOR_EMAIL", "user.email", "you@example.com"))
    }
}
