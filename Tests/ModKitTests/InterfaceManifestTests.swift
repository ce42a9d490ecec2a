import Foundation
import Testing
@testable import ModKit

/// `implements:` and `guard-mode:` are validated like every key of a module entry.
@Suite struct InterfaceManifestTests {
    let file = URL(fileURLWithPath: "/tmp/ws/modkit.yml")

    func problems(_ text: String) -> [String] {
        do {
            _ = try ManifestLoader.parse(text: text, file: file, displayPath: "modkit.yml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aPairIsReadAndDecidesTheDefaultGuardMode() throws {
        let manifest = try ManifestLoader.parse(text: """
        version: 1
        modules:
          - {name: PaymentsInterface, path: PaymentsInterface}
          - {name: Payments, path: Payments, implements: PaymentsInterface}
          - {name: App, path: App, guard-mode: minimum}
        """, file: file, displayPath: "modkit.yml")
        let payments = try #require(manifest.module(named: "Payments"))
        #expect(payments.implements == "PaymentsInterface")
        #expect(manifest.isInterface("PaymentsInterface") && !manifest.isInterface("Payments"))
        #expect(manifest.implementations(of: "PaymentsInterface").map(\.name) == ["Payments"])
        #expect(manifest.guardMode(of: payments, for: "PaymentsInterface") == .interface)
        #expect(manifest.guardMode(of: payments, for: "Core") == .exact)
        #expect(manifest.guardMode(of: manifest.module(named: "App")!, for: "Payments") == .minimum)
    }

    @Test func anUnknownInterfaceIsAnErrorAtItsValue() {
        let found = problems("version: 1\nmodules:\n  - name: PaymentsInterface\n    path: PI\n  - name: Payments\n    path: P\n    implements: PaymentInterface\n")
        #expect(found == ["""
        modkit.yml:7:17: error: module 'Payments' implements 'PaymentInterface', which is not a module of this workspace (did you mean 'PaymentsInterface'?)
            implements: PaymentInterface
                        ^
        hint: name the interface module's 'name:'
        """])
    }

    @Test func anInterfaceCannotImplementAnotherNorItself() {
        let found = problems("""
        version: 1
        modules:
          - {name: A, path: A}
          - {name: B, path: B, implements: A}
          - {name: C, path: C, implements: B}
          - {name: D, path: D, implements: D}
        """)
        #expect(found.count == 2)
        #expect(found.first?.hasPrefix("modkit.yml:4:36: error: module 'B' is an interface (module 'C' implements it), and an interface cannot implement another") == true, "\(found)")
        #expect(found.last?.hasPrefix("modkit.yml:6:36: error: module 'D' cannot implement itself") == true, "\(found)")
    }

    @Test func anUnknownGuardModeSuggestsOne() {
        let found = problems("version: 1\nmodules:\n  - name: A\n    path: A\n    guard-mode: minimun\n")
        #expect(found.first?.hasPrefix("modkit.yml:5:17: error: unknown guard mode 'minimun' (did you mean 'minimum'?)") == true, "\(found)")
    }
}

/// The comparison of two API dumps: removals and changed signatures are breaking, additions (requirements too) additive.
@Suite struct APIComparisonTests {
    @Test func removalRenameChangeAndAddition() {
        let old = [APIDeclaration(key: "P › pay", signature: "Func Bool Int", isRequirement: true), APIDeclaration(key: "P › refund", signature: "Func Void String", isRequirement: true)]
        #expect(APIComparison.impact(of: APIComparison.changes(from: old, to: old)) == .none)
        let added = old + [APIDeclaration(key: "P › balance", signature: "Func Int", isRequirement: true)]
        #expect(APIComparison.changes(from: old, to: added).map(\.description) == ["added P › balance"])
        #expect(APIComparison.impact(of: APIComparison.changes(from: old, to: added)) == .additive)
        let renamed = [old[0], APIDeclaration(key: "P › refundAll", signature: "Func Void String")]
        #expect(APIComparison.changes(from: old, to: renamed).map(\.description) == ["removed P › refund", "added P › refundAll"])
        #expect(APIComparison.impact(of: APIComparison.changes(from: old, to: renamed)) == .breaking)
        let changed = [APIDeclaration(key: "P › pay", signature: "Func Bool Double"), old[1]]
        #expect(APIComparison.changes(from: old, to: changed).map(\.description) == ["changed P › pay: Func Bool Int → Func Bool Double"])
    }

    @Test func anInterfaceVersionMovesByItsTwoParts() {
        let current = SemanticVersion("1.0", twoParts: true)!
        #expect(current.description == "1.0" && SemanticVersion("1.0") == nil)
        #expect(InterfaceVersions.next(after: current, by: .major, pre: nil).description == "2.0")
        #expect(InterfaceVersions.next(after: current, by: .minor, pre: nil).description == "1.1")
        #expect(InterfaceVersions.next(after: current, by: .patch, pre: nil).description == "1.1")
        #expect(InterfaceVersions.implementationNext(SemanticVersion("1.0.1"), current: SemanticVersion("1.0.0")!, interface: SemanticVersion("1.1", twoParts: true)!)?.description == "1.1.0")
        #expect(InterfaceVersions.implementationNext(SemanticVersion("1.2.3"), current: SemanticVersion("1.2.2")!, interface: SemanticVersion("1.1", twoParts: true)!)?.description == "1.2.3")
        #expect(InterfaceVersions.implementationNext(SemanticVersion("2.0.0"), current: SemanticVersion("1.0.0")!, interface: SemanticVersion("1.1", twoParts: true)!) == nil)
    }
}
