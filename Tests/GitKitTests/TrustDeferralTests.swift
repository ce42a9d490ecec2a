import Foundation
@testable import GitKit
import Testing

/// libgit2 on Debian parses the system certificate bundle in git_libgit2_init; GitKit defers that to the
/// first network operation (see Sources/CTrustDeferral).
@Suite struct TrustDeferralTests {
    /// Whether this process loaded an mbedTLS-backed libgit2, the only kind that parses a bundle at start-up.
    private var libgit2UsesMbedTLS: Bool {
        ((try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? "").contains("libmbedtls")
    }

    @Test func startUpLeavesTheBundleForTheFirstNetworkOperation() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        _ = try Repository.create(at: sandbox.at("repo"))  // initialises libgit2
        guard libgit2UsesMbedTLS else { return }
        let fixture = try RemoteFixture(in: sandbox)
        // Before the first network operation of this test process the start-up bundle is still deferred;
        // other suites may already have made one, which loads or replaces it.
        let repo = try Repository.clone(url: fixture.fileURL, to: sandbox.at("clone"))
        #expect(!TLSTrust.startupBundleIsDeferred, "a network operation settles the trust store")
        #expect(try repo.head() == .branch(name: "main", commit: fixture.c3))
    }
}
