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
