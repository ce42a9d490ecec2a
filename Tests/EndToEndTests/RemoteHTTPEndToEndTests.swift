import Foundation
import Testing

/// `modkit sync` over smart HTTP (`git http-backend`) with basic auth from a git credential helper, and over
/// https with a self-signed certificate authority.
@Suite(.serialized, .enabled(if: RemoteTools.available, "needs openssl and python3 (.ci/run installs them)"))
struct RemoteHTTPEndToEndTests {
    @Test func credentialHelperAuthenticatesAndWrongPasswordFailsFastWithoutLeaking() throws {
        let sandbox = try Sandbox()
        for name in ["Core", "Network"] { try sandbox.makeRemote(name) }
        let password = "pw-\(UUID().uuidString.prefix(12))"
        let wrong = "wrong-\(UUID().uuidString.prefix(12))"
        let (server, base) = try sandbox.startHTTPServerWithStoredCredential(password: password)
        defer { server.stop() }
        try sandbox.writeRemoteManifest([("Core", "\(base)/Core.git"), ("Network", "\(base)/Network.git")])

        let synced = try sandbox.modkitRemote("sync")
        #expect(synced.status == 0, "\(synced.err)")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnRemoteHead("Core"))
        #expect(try sandbox.spawnHead("Network") == sandbox.spawnRemoteHead("Network"))

        // A wrong password (helper and url) fails that repository quickly; the other one goes on.
        try sandbox.write("http://alice:\(wrong)@127.0.0.1:\(server.port)\n", to: "credentials")
        try sandbox.writeRemoteManifest([("Core", "\(base)/Core.git"), ("Fresh", "http://alice:\(wrong)@127.0.0.1:\(server.port)/Network.git")])
        let pushed = try sandbox.spawnPushNewCommit("Core")
        let started = Date()
        let failed = try sandbox.modkitRemote("sync")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(failed.status == 1)
        #expect(failed.err.contains("authentication failed for http://127.0.0.1:\(server.port)/Core.git"), "\(failed.err)")
        #expect(failed.err.contains("authentication failed for http://alice@127.0.0.1:\(server.port)/Network.git"), "\(failed.err)")
        let doctor = try sandbox.modkitRemote("doctor", "--json")
        for output in [synced.out, synced.err, failed.out, failed.err, doctor.out, doctor.err] {
            #expect(!output.contains(password) && !output.contains(wrong), "a password leaked: \(output)")
        }
        #expect(doctor.out.contains("\"problem\" : \"authFailed\""), "\(doctor.out)")
        #expect(try sandbox.spawnHead("Core") != pushed)
    }

    @Test func selfSignedCertificateIsRefusedUntilSSLCAInfoNamesTheCA() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        let tls = try sandbox.makeTLSCertificates()
        let server = try HTTPGitServer(sandbox: sandbox, root: sandbox.url("remotes"), user: "alice", password: "tls-pw",
                                       tls: (tls.cert, tls.key))
        defer { server.stop() }
        try sandbox.spawnGit("config", "--global", "credential.helper", "store --file=\(sandbox.url("credentials").path)")
        try sandbox.write("https://alice:tls-pw@127.0.0.1:\(server.port)\n", to: "credentials")
        try sandbox.writeRemoteManifest([("Core", "https://127.0.0.1:\(server.port)/Core.git")])

        let refused = try sandbox.modkitRemote("sync")
        #expect(refused.status == 1)
        #expect(refused.err.contains("the TLS certificate of 127.0.0.1 is not trusted"), "\(refused.err)")
        #expect(refused.err.contains("http.sslCAInfo"), "\(refused.err)")

        try sandbox.spawnGit("config", "--global", "http.sslCAInfo", tls.ca)
        let trusted = try sandbox.modkitRemote("sync")
        #expect(trusted.status == 0, "\(trusted.err)")
        #expect(try sandbox.spawnHead("Core") == sandbox.spawnRemoteHead("Core"))
    }
}
