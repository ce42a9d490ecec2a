import Foundation
import Testing

/// `modkit api` and `release --plan` read an interface's API with the real compilers (swiftc + swift-api-digester,
/// clang's JSON AST) at its version tag and now, and the release follows what they find, whatever the commits say.
@Suite struct InterfaceAPIEndToEndTests {
    /// Swift: a removed protocol requirement is breaking (2.0, and 2.0.0 for the implementation) under `chore:` commits;
    /// `=minor` is refused naming the change and taken with --allow-understated-bump; `api --check` fails until VERSION says 2.0.
    @Test(.timeLimit(.minutes(5)))
    func swiftRemovalIsBreakingEvenUnderChoreCommits() throws {
        let pair = try PaymentsPair()
        try pair.changeInterface(pair.removed)
        let untouched = try ReadOnlyCommandsEndToEndTests.Digest([pair.sandbox.url("ws")])
        let json = try pair.modkit("api", "--json")
        #expect(json.status == 0, "\(json.err)")
        let flat = json.out.filter { !$0.isWhitespace }
        #expect(flat.contains("\"impact\":\"breaking\"") && flat.contains("\"required\":\"2.0\"") && flat.contains("\"understated\":true"), "\(json.out)")
        #expect(flat.contains("\"kind\":\"removed\"") && flat.contains("refund(id:)"), "\(json.out)")
        let check = try pair.modkit("api", "--check")
        #expect(check.status == 1, "\(check.out)\(check.err)")
        #expect(check.out.contains("removed protocol PaymentService › func refund(id:)"), "\(check.out)")
        #expect(try untouched.differences(to: ReadOnlyCommandsEndToEndTests.Digest([pair.sandbox.url("ws")])) == [],
                "api compiles in a scratch directory and reads the old version with git archive: it writes nothing here")

        let plan = try pair.modkit("release", "R1", "--plan")
        #expect(plan.status == 0, "\(plan.err)")
        #expect(plan.out.contains("PaymentsInterface  1.0      2.0"), "\(plan.out)")
        #expect(plan.out.contains("Payments           1.0.0    2.0.0"), "\(plan.out)")
        #expect(plan.out.contains("API changes of PaymentsInterface since 1.0:\n  removed protocol PaymentService › func refund(id:)"), "\(plan.out)")

        let refused = try pair.modkit("release", "R1", "PaymentsInterface=minor", "--plan")
        #expect(refused.status == 2, "\(refused.out)")
        #expect(refused.err.contains("PaymentsInterface: 1.1 understates its API change since 1.0: breaking, requires 2.0 or later"), "\(refused.err)")
        #expect(refused.err.contains("removed protocol PaymentService › func refund(id:)"), "\(refused.err)")
        let allowed = try pair.modkit("release", "R1", "PaymentsInterface=minor", "--allow-understated-bump", "--plan")
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(allowed.out.contains("PaymentsInterface  1.0      1.1") && allowed.out.contains("released with --allow-understated-bump"), "\(allowed.out)")

        try pair.sandbox.write("2.0\n", to: "ws/PaymentsInterface/VERSION")
        let right = try pair.modkit("api", "--check")
        #expect(right.status == 0, "\(right.out)\(right.err)")
    }

    /// A whole release of a breaking interface change: x.y versions written, tags, the changelog's API section, guards in interface mode.
    @Test(.timeLimit(.minutes(5)))
    func aReleaseOfABreakingChangeWritesTwoPartVersionsTagsChangelogAndInterfaceGuards() throws {
        let pair = try PaymentsPair()
        try pair.changeInterface(pair.removed)
        try pair.sandbox.git("init", "-q", "--bare", "remote.git")
        try pair.sandbox.git("remote", "add", "origin", pair.sandbox.url("remote.git").path, in: "ws")
        try pair.sandbox.git("push", "-q", "-u", "origin", "main", "--follow-tags", in: "ws")
        let release = try pair.modkit("release", "R1", "--yes")
        #expect(release.status == 0, "\(release.out)\(release.err)")
        #expect(try pair.sandbox.read("ws/PaymentsInterface/VERSION") == "2.0\n")
        #expect(try pair.sandbox.read("ws/Payments/VERSION") == "2.0.0\n")
        let tags = try pair.sandbox.git("tag", in: "ws").split(separator: "\n")
        #expect(tags.contains("PaymentsInterface/2.0") && tags.contains("Payments/2.0.0"), "\(tags)")
        let changelog = try pair.sandbox.read("ws/PaymentsInterface/CHANGELOG.md")
        #expect(changelog.contains("## 2.0 — ") && changelog.contains("### API changes\n\n- removed protocol PaymentService › func refund(id:)"), "\(changelog)")
        let header = try pair.sandbox.read("ws/Payments/Generated/PaymentsVersion.h")
        #expect(header.contains("requires PaymentsInterface 2.0 (interface rule: 2.y with y >= 0)"), "\(header)")
        let after = try pair.modkit("api", "--check")
        #expect(after.status == 0 && after.out.contains("no API change"), "\(after.out)\(after.err)")
    }

    /// Swift: an added protocol requirement is additive (1.1, the implementation at 1.1.0), though swift-api-digester calls it breaking.
    @Test(.timeLimit(.minutes(5)))
    func swiftAddedRequirementIsAdditive() throws {
        let pair = try PaymentsPair()
        try pair.changeInterface(pair.added)
        let plan = try pair.modkit("release", "R1", "--plan", "--json")
        #expect(plan.status == 0, "\(plan.err)")
        let flat = plan.out.filter { !$0.isWhitespace }
        #expect(flat.contains("\"next\":\"1.1\"") && flat.contains("\"next\":\"1.1.0\""), "\(plan.out)")
        #expect(flat.contains("addedprotocolPaymentService›funcbalance()"), "\(plan.out)")
        let same = try pair.modkit("api")
        #expect(same.status == 0 && same.out.contains("additive: requires 1.1"), "\(same.out)\(same.err)")
    }

    /// Objective-C pod: the same rules over a header with `@protocol PaymentService <NSObject>`, read from clang's JSON AST.
    @Test(.timeLimit(.minutes(5)))
    func objectiveCInterfacePodFollowsTheSameRules() throws {
        let removal = try PaymentsPair(objc: true)
        try removal.changeInterface(removal.removed)
        let plan = try removal.modkit("release", "R1", "--plan")
        #expect(plan.status == 0, "\(plan.err)")
        #expect(plan.out.contains("PaymentsInterface  1.0      2.0") && plan.out.contains("2.0.0"), "\(plan.out)")
        #expect(plan.out.contains("removed @protocol PaymentService › -refundWithIdentifier:"), "\(plan.out)")
        let refused = try removal.modkit("release", "R1", "PaymentsInterface=minor", "--plan")
        #expect(refused.status == 2 && refused.err.contains("understates"), "\(refused.err)")
        #expect(try removal.modkit("release", "R1", "PaymentsInterface=minor", "--allow-understated-bump", "--plan").status == 0)

        let addition = try PaymentsPair(objc: true)
        try addition.changeInterface(addition.added)
        let check = try addition.modkit("api", "--check")
        #expect(check.status == 1 && check.out.contains("added @protocol PaymentService › -balance"), "\(check.out)\(check.err)")
        let json = try addition.modkit("api", "--json")
        #expect(json.status == 0 && json.out.filter { !$0.isWhitespace }.contains("\"impact\":\"additive\""), "\(json.out)")
        let additive = try addition.modkit("release", "R1", "--plan")
        #expect(additive.out.contains("PaymentsInterface  1.0      1.1") && additive.out.contains("1.1.0"), "\(additive.out)")
        let podspec = try addition.sandbox.read("ws/PaymentsInterface/PaymentsInterface.podspec")
        try addition.sandbox.write(podspec.replacingOccurrences(of: "'1.0'", with: "'1.1'"), to: "ws/PaymentsInterface/PaymentsInterface.podspec")
        let right = try addition.modkit("api", "--check")
        #expect(right.status == 0, "\(right.out)\(right.err)")
    }
}
