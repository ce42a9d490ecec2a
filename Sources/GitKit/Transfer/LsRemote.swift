internal import CLibgit2
import Foundation

/// One reference a remote advertises, as `git ls-remote` lists it.
public struct RemoteHead: Sendable, Equatable {
    public var name: String
    public var oid: OID
    /// For a symbolic reference such as HEAD, the reference it points at.
    public var symbolicTarget: String?
}

/// The outcome of trying to reach a remote: what `modkit doctor` reports per module.
public struct RemoteAccessCheck: Sendable {
    /// nil when the remote answered.
    public var problem: RemoteProblem?
    /// What went wrong and how to fix it (empty when the remote answered).
    public var message: String
    /// How many references the remote advertised.
    public var referenceCount: Int
}

extension GitKit {
    /// Lists the references of the remote at `url` without a local repository, authenticating like clone and fetch.
    public static func listRemoteReferences(url: String) throws -> [RemoteHead] {
        ensureInitialized()
        let box = RemoteCallbacksBox()
        return try box.run { () throws(GitError) -> [RemoteHead] in
            let remote = RemoteHandle(try make("git_remote_create_detached") { git_remote_create_detached(&$0, url) }, owner: nil)
            var callbacks = git_remote_callbacks()
            try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
            box.install(into: &callbacks)
            var proxy = git_proxy_options()
            try check(git_proxy_options_init(&proxy, UInt32(GIT_PROXY_OPTIONS_VERSION)), "git_proxy_options_init")
            proxy.type = GIT_PROXY_AUTO
            try check(git_remote_connect(remote.pointer, GIT_DIRECTION_FETCH, &callbacks, &proxy, nil), "git_remote_connect")
            defer { git_remote_disconnect(remote.pointer) }
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            try check(git_remote_ls(&heads, &count, remote.pointer), "git_remote_ls")
            guard let heads else { return [] }
            return (0..<count).compactMap { index in
                guard let head = heads[index]?.pointee else { return nil }
                return RemoteHead(name: String(cString: head.name), oid: OID(head.oid),
                                  symbolicTarget: head.symref_target.map { String(cString: $0) })
            }
        }
    }

    /// Tries to reach `url` (ls-remote) and sorts a failure into auth / host key / certificate / unreachable.
    public static func checkRemoteAccess(url: String) -> RemoteAccessCheck {
        do {
            let heads = try listRemoteReferences(url: url)
            return RemoteAccessCheck(problem: nil, message: "", referenceCount: heads.count)
        } catch let error as GitError {
            return RemoteAccessCheck(problem: classify(error), message: error.message, referenceCount: 0)
        } catch {
            return RemoteAccessCheck(problem: .other, message: redactingSecrets("\(error)"), referenceCount: 0)
        }
    }

    /// Sorts a remote operation's error into the problem a user has to fix.
    public static func classify(_ error: GitError) -> RemoteProblem {
        let text = error.message.lowercased()
        switch error.code {
        case .auth: return .authentication
        case .certificate:
            if text.contains("host key") { return text.contains("changed") || text.contains("revoked") ? .hostKeyChanged : .hostKeyUnknown }
            return .certificate
        default: break
        }
        let unreachableHints = ["failed to connect", "connection refused", "could not resolve", "timed out", "no route to host",
                                "network is unreachable", "failed to resolve", "failed to start ssh session", "unexpected eof",
                                "connection reset"]
        if unreachableHints.contains(where: text.contains) { return .unreachable }
        if error.errorClass == "net" || error.errorClass == "os" { return .unreachable }
        return .other
    }
}
