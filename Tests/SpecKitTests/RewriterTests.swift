import Testing
@testable import SpecKit

/// Edit plans, their application, and the unified diff printed by `--dry-run`.
@Suite struct RewriterTests {
    @Test func planListsEditsAndOutcomes() throws {
        let text = "Pod::Spec.new do |s|\n  s.dependency 'A'\n  s.dependency 'B', '1.0.0'\n  s.dependency 'C', v\n  s.dependency 'D', '~> 1.0', '< 2'\nend\n"
        let requirements = try SpecReader.read(text, kind: .podspec)
        let pins = requirements.map { PinRequest(requirement: $0, version: "1.0.0") }
        let plan = try SpecRewriter.plan(text, pins: pins)
        #expect(plan.edits == [
            TextEdit(range: 39..<39, replacement: ", '1.0.0'"),
            TextEdit(range: 110..<120, replacement: ""),
            TextEdit(range: 120..<125, replacement: "'1.0.0'"),
        ])
        #expect(plan.rewritten.map(\.requirement.name) == ["A", "D"])
        #expect(plan.unchanged.map(\.requirement.name) == ["B"])
        #expect(plan.skipped.map(\.request.requirement.name) == ["C"])
        #expect(plan.newText == "Pod::Spec.new do |s|\n  s.dependency 'A', '1.0.0'\n  s.dependency 'B', '1.0.0'\n  s.dependency 'C', v\n  s.dependency 'D', '1.0.0'\nend\n")
    }

    @Test func refusesUnsafeVersionsAndForeignRequirements() throws {
        let text = "github \"acme/Core\" ~> 1.0\n"
        let requirement = try SpecReader.read(text, kind: .cartfile)[0]
        let plan = try SpecRewriter.plan(text, pins: [PinRequest(requirement: requirement, version: "1.0\" # evil")])
        #expect(plan.newText == text)
        #expect(plan.skipped.count == 1)
        #expect(throws: TextEditError.self) {
            try SpecRewriter.plan("github \"acme/Core\" >= 1.0\n", pins: [PinRequest(requirement: requirement, version: "1.0.1")])
        }
    }

    @Test func applyRejectsOverlapsAndWorksBackToFront() throws {
        #expect(try TextEdit.apply([TextEdit(range: 4..<5, replacement: "X"), TextEdit(range: 0..<1, replacement: "yy")], to: "abcdef") == "yybcdXf")
        #expect(throws: TextEditError.self) {
            try TextEdit.apply([TextEdit(range: 0..<3, replacement: ""), TextEdit(range: 2..<4, replacement: "")], to: "abcdef")
        }
        #expect(throws: TextEditError.self) { try TextEdit.apply([TextEdit(range: 5..<9, replacement: "")], to: "abc") }
    }

    @Test func multibyteTextKeepsByteOffsets() throws {
        let text = "# Zahlungen für Ümlaute 🚀\ngithub \"acme/Core\" ~> 1.0 # ünïcode\n"
        let plan = try SpecRewriter.plan(text, kind: .cartfile, versions: ["Core": "1.0.1"])
        #expect(plan.newText == "# Zahlungen für Ümlaute 🚀\ngithub \"acme/Core\" == 1.0.1 # ünïcode\n")
    }

    @Test func unifiedDiffHasHunksWithThreeLinesOfContext() {
        let old = (1...12).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 2\n", with: "line two\n").replacingOccurrences(of: "line 11\n", with: "")
        #expect(unifiedDiff(old: old, new: new, path: "Core.podspec") == """
        --- a/Core.podspec
        +++ b/Core.podspec
        @@ -1,5 +1,5 @@
         line 1
        -line 2
        +line two
         line 3
         line 4
         line 5
        @@ -8,5 +8,4 @@
         line 8
         line 9
         line 10
        -line 11
         line 12

        """)
        #expect(unifiedDiff(old: old, new: old, path: "x") == "")
    }

    @Test func unifiedDiffMergesCloseChangesAndMarksMissingNewline() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh"
        let new = "A\nb\nc\nd\ne\nf\ng\nH"
        #expect(unifiedDiff(old: old, new: new, path: "Cartfile") == """
        --- a/Cartfile
        +++ b/Cartfile
        @@ -1,8 +1,8 @@
        -a
        +A
         b
         c
         d
         e
         f
         g
        -h
        \\ No newline at end of file
        +H
        \\ No newline at end of file

        """)
    }

    @Test func unifiedDiffOfAGoldenCaseMatchesTheEdit() throws {
        let old = "platform :ios, '13.0'\r\ntarget 'App' do\r\n  pod 'Core'\r\nend\r\n"
        let plan = try SpecRewriter.plan(old, kind: .podfile, versions: ["Core": "1.0.1"])
        #expect(unifiedDiff(old: old, new: plan.newText, path: "Podfile") ==
            "--- a/Podfile\n+++ b/Podfile\n@@ -1,4 +1,4 @@\n platform :ios, '13.0'\r\n target 'App' do\r\n-  pod 'Core'\r\n+  pod 'Core', '1.0.1'\r\n end\r\n")
    }
}
