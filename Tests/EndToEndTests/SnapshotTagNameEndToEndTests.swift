import Foundation
import Testing

/// A snapshot file comes from a tag, so it is untrusted: the file of tag v9 must name snapshot v9. One copied from
/// another snapshot (or edited) is refused with its position and exit 2, and checkout changes nothing.
@Suite struct SnapshotTagNameEndToEndTests {
    let hardening = HardeningEndToEndTests()

    @Test func aTagWhoseSnapshotFileNamesAnotherSnapshotIsRefused() throws {
        let sandbox = try Sandbox()
        try hardening.workspaceWithSnapshot("snapshot: v1\ncreated: \"2026-11-30T12:00:00Z\"\nmodules:\n  Core: { path: Libs/Core }\n", in: sandbox)
        let head = try sandbox.git("rev-parse", "HEAD", in: "ws")
        let checkout = try sandbox.modkit("checkout", "v9", in: "ws")
        #expect(checkout.status == 2, "\(checkout.out)\(checkout.err)")
        #expect(checkout.err.contains("v9:.modkit/snapshots/v9.yml:1:11: error: the snapshot file of tag v9 names the snapshot 'v1', not 'v9'"), "\(checkout.err)")
        #expect(checkout.err.contains("hint: check out 'v1' if you mean that snapshot"), "\(checkout.err)")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == head)
        #expect(try sandbox.git("status", "--porcelain", in: "ws") == "")

        let listing = try sandbox.modkit("snapshots", in: "ws")
        #expect(listing.status == 2, "\(listing.out)\(listing.err)")
        #expect(listing.err.contains("v9:.modkit/snapshots/v9.yml:1:11:"), "\(listing.err)")
    }
}
