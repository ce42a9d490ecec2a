import Foundation
import Testing

/// An interface module is versioned x.y and its implementation shares its x, whatever the commits say.
@Suite struct InterfaceReleaseEndToEndTests {
    /// `=major` is x+1 and the implementation follows to 2.0.0; `=minor` is y+1 with the implementation at 1.1.0; `=patch` is refused.
    @Test func overridesMoveAnInterfaceByItsTwoPartsAndTheImplementationFollows() throws {
        let pair = try PaymentsPair()
        try pair.changeInterface(PaymentsPair.swiftInterface + "// tidy\n")
        let major = try pair.modkit("release", "R1", "PaymentsInterface=major", "--plan")
        #expect(major.status == 0, "\(major.err)")
        #expect(major.out.contains("PaymentsInterface  1.0      2.0"), "\(major.out)")
        #expect(major.out.contains("Payments           1.0.0    2.0.0"), "\(major.out)")
        #expect(major.out.contains("PaymentsInterface/2.0 in the manifest repository"), "\(major.out)")
        let minor = try pair.modkit("release", "R1", "PaymentsInterface=minor", "--plan", "--json")
        #expect(minor.status == 0, "\(minor.err)")
        let flat = minor.out.filter { !$0.isWhitespace }
        #expect(flat.contains("\"current\":\"1.0\"") && flat.contains("\"next\":\"1.1\""), "\(minor.out)")
        #expect(flat.contains("\"next\":\"1.1.0\""), "\(minor.out)")
        let exact = try pair.modkit("release", "R1", "PaymentsInterface=1.2", "--plan")
        #expect(exact.status == 0 && exact.out.contains("1.2.0"), "\(exact.out)\(exact.err)")
        let patch = try pair.modkit("release", "R1", "PaymentsInterface=patch", "--plan")
        #expect(patch.status == 2, "\(patch.out)")
        #expect(patch.err.contains("PaymentsInterface is an interface module, versioned x.y; it has no patch releases"), "\(patch.err)")
        let threeParts = try pair.modkit("release", "R1", "PaymentsInterface=1.1.0", "--plan")
        #expect(threeParts.status == 2 && threeParts.err.contains("versioned x.y"), "\(threeParts.err)")
        let leaves = try pair.modkit("release", "R1", "PaymentsInterface=minor", "Payments=2.0.0", "--plan")
        #expect(leaves.status == 2 && leaves.err.contains("would leave its x (1)"), "\(leaves.err)")
    }
}
