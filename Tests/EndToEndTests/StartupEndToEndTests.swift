import Foundation
import Testing

/// What every modkit process does before its command runs.
@Suite struct StartupEndToEndTests {
    /// An mbedTLS-backed libgit2 (Debian's) must bind its certificate-bundle parser to modkit's deferral
    /// (Sources/CTrustDeferral), or every command pays for parsing the system bundle at start-up.
    @Test func libgit2StartUpCertificateLoadBindsToTheDeferral() throws {
        #if os(Linux)
        let sandbox = try Sandbox()
        let log = sandbox.root.appendingPathComponent("ld-bindings").path
        var environment = sandbox.environment
        environment["LD_DEBUG"] = "bindings"
        environment["LD_DEBUG_OUTPUT"] = log
        let process = Process()
        process.executableURL = Sandbox.modkitBinary
        process.arguments = ["--version"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // The loader writes <log>.<pid>.
        let output = try String(contentsOfFile: "\(log).\(process.processIdentifier)", encoding: .utf8)
        let bindings = output.split(separator: "\n").filter { $0.contains("`mbedtls_x509_crt_parse_file'") }
        guard output.contains("libmbedx509") else { return }  // libgit2 uses another TLS library here: nothing to defer
        #expect(!bindings.isEmpty, "libgit2 never bound mbedtls_x509_crt_parse_file")
        for binding in bindings {
            #expect(binding.contains("to \(Sandbox.modkitBinary.path) [0]") || binding.contains("to modkit [0]"),
                    "bound elsewhere: \(binding)")
        }
        #endif
    }
}
