import Foundation
import GitKit

/// git's credential helpers as GitKit's credential store: `git credential fill / approve / reject`, so the
/// user's keychain, libsecret or `store` helper works for modkit as it does for git. It never prompts:
/// prompts are modkit's own, serialised across workers.
public struct GitCredentialHelper: CredentialStore {
    let git: String

    public init(git: String = "git") {
        self.git = git
    }

    public func fill(_ request: CredentialRequest) -> PasswordCredential? {
        guard let output = run("fill", request, credential: nil) else { return nil }
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let username = fields["username"], let password = fields["password"], !password.isEmpty else { return nil }
        return PasswordCredential(username: username, password: password)
    }

    public func approve(_ request: CredentialRequest, _ credential: PasswordCredential) {
        _ = run("approve", request, credential: credential)
    }

    public func reject(_ request: CredentialRequest, _ credential: PasswordCredential) {
        _ = run("reject", request, credential: credential)
    }

    /// Runs `git credential <action>` with the request on stdin; nil when git fails (e.g. no helper has an answer).
    private func run(_ action: String, _ request: CredentialRequest, credential: PasswordCredential?) -> String? {
        var input = "protocol=\(request.scheme)\nhost=\(request.host)\n"
        if !request.path.isEmpty { input += "path=\(request.path)\n" }
        if let username = credential?.username ?? request.username { input += "username=\(username)\n" }
        if let password = credential?.password { input += "password=\(password)\n" }
        input += "\n"

        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        for name in ["GIT_ASKPASS", "SSH_ASKPASS"] { environment.removeValue(forKey: name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [git, "-c", "core.askPass=", "credential", action]
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let ended = ProcessExit(process)
        do { try process.run() } catch { return nil }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
