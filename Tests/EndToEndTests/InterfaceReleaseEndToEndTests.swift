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
        // With the interface at 1.1 the implementation lands in 1.1.0 <= v < 2.0.0: raised to 1.1.0, or kept where asked inside.
        let raised = try pair.modkit("release", "R1", "PaymentsInterface=minor", "Payments=1.0.5", "--plan")
        #expect(raised.status == 0 && raised.out.contains("Payments           1.0.0    1.1.0"), "\(raised.out)\(raised.err)")
        #expect(raised.out.contains("implements PaymentsInterface 1.1: at least 1.1.0"), "\(raised.out)")
        let inside = try pair.modkit("release", "R1", "PaymentsInterface=minor", "Payments=1.9.3", "--plan")
        #expect(inside.status == 0 && inside.out.contains("Payments           1.0.0    1.9.3"), "\(inside.out)\(inside.err)")
    }

    /// `modkit guard` in the pair, then the interface moves to 2.0 and only its guard is regenerated: the implementation's
    /// header no longer compiles, with one error naming the version required and the version found; 1.3 still compiles.
    @Test func theImplementationsGuardRefusesAnotherXNamingBothVersions() throws {
        let pair = try PaymentsPair()
        #expect(try pair.modkit("guard").status == 0)
        try pair.sandbox.write("#include \"PaymentsVersion.h\"\nint main(void) { return 0; }\n", to: "c/main.c")
        func compile() throws -> ProcessResult {
            let includes = ["Payments", "PaymentsInterface"].flatMap { ["-I", pair.sandbox.url("ws/\($0)/Generated").path] }
            return try pair.sandbox.run("/usr/bin/env", ["cc", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"] + includes + [pair.sandbox.url("c/main.c").path],
                                        in: pair.sandbox.url("c"))
        }
        #expect(try compile().status == 0)
        for (version, builds) in [("1.3", true), ("2.0", false), ("0.9", false)] {
            try pair.sandbox.write("\(version)\n", to: "ws/PaymentsInterface/VERSION")
            let regenerated = try pair.modkit("guard", "PaymentsInterface")
            #expect(regenerated.status == 0, "\(regenerated.err)")
            let result = try compile()
            if builds {
                #expect(result.status == 0 && result.err.isEmpty, "PaymentsInterface \(version):\n\(result.err)")
            } else {
                let errors = result.err.split(separator: "\n").filter { $0.contains(": error: ") }
                #expect(result.status != 0 && errors.count == 1, "PaymentsInterface \(version):\n\(result.err)")
                #expect(errors.first?.hasSuffix("error: Payments 1.0.0 requires PaymentsInterface 1.0 (interface rule: 1.y with y >= 0); "
                                                + "found PaymentsInterface \(version). Run modkit sync / modkit pin and then modkit guard.") == true,
                        "PaymentsInterface \(version):\n\(result.err)")
            }
        }
    }
}
