import Foundation
import Testing
@testable import ModKit

/// The one renderer: excerpts cut around the caret, errors capped with an exact count of the rest, warnings of one kind folded.
@Suite struct DiagnosticReportTests {
    func error(_ message: String, line: Int = 1, column: Int, in sourceLine: String) -> Diagnostic {
        .error(message, at: SourceLocation(file: "m.yml", line: line, column: column), sourceLine: sourceLine)
    }

    @Test func aLongLineIsCutAroundTheCaretWithMarkers() {
        let line = String(repeating: "x", count: 150_000) + "BAD" + String(repeating: "y", count: 150_000)
        let lines = error("bad entry", column: 150_001, in: line).description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "m.yml:1:150001: error: bad entry")
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"), "\(lines[1])")
        #expect(lines[1].count == SourceExcerpt.width + 2)
        // The caret stands under the B of BAD.
        let caret = lines[2].count - 1
        #expect(lines[2].last == "^")
        #expect(Array(lines[1])[caret] == "B", "\(lines[1])\n\(lines[2])")
    }

    @Test func aShortLineIsShownWholeAndTheEndOfALongOneWithoutATrailingMarker() {
        #expect(error("odd", column: 3, in: "a: [b").description == "m.yml:1:3: error: odd\na: [b\n  ^")
        let line = String(repeating: "z", count: 500) + "]"
        let lines = error("missing ']'", column: 502, in: line).description.split(separator: "\n").map(String.init)
        #expect(lines[1] == "…" + String(repeating: "z", count: SourceExcerpt.width - 1) + "]")
        #expect(lines[2] == String(repeating: " ", count: SourceExcerpt.width + 1) + "^", "just past the end, where the bracket is missing")
        let start = error("first", column: 1, in: line).description.split(separator: "\n").map(String.init)
        #expect(start[1] == String(repeating: "z", count: SourceExcerpt.width) + "…")
        #expect(start[2] == "^")
    }

    @Test func afterFiftyErrorsTheRestAreCountedExactly() {
        let line = String(repeating: "a, ", count: 120)
        let diagnostics = (0..<120).map { error("entry \($0) is not a mapping", column: 1 + 3 * $0, in: line) }
        let report = diagnostics.report(colored: false)
        #expect(report.components(separatedBy: ": error: ").count - 1 == Diagnostic.reportLimit)
        #expect(report.hasPrefix("m.yml:1:1: error: entry 0 is not a mapping\n"))
        #expect(report.contains("entry 49 is not a mapping") && !report.contains("entry 50 is not a mapping"))
        #expect(report.hasSuffix("\nmodkit: and 70 more errors (--json lists them all)"), "\(report.suffix(200))")
        #expect(report.split(separator: "\n").allSatisfy { $0.count <= SourceExcerpt.width + 60 })
    }

    @Test func warningsOfOneKindAreFoldedAndNoPlaceGivesTheProgramsName() {
        let line = "<project name=\"p\" x1=\"1\" x2=\"2\" x3=\"3\" x4=\"4\" x5=\"5\"/>"
        let warnings = (1...5).map { index in
            Diagnostic(severity: .warning, message: "attribute x\(index)=\"\(index)\" of <project name=\"p\"> is not carried over",
                       location: SourceLocation(file: "d.xml", line: 1, column: 1), sourceLine: line)
        }
        let report = (warnings + [.error("no manifest")]).report(colored: false)
        #expect(report.components(separatedBy: "warning:").count == 2, "\(report)")
        #expect(report.contains("attribute x1=\"1\" of <project name=\"p\"> is not carried over — and 4 more like this (d.xml:1, d.xml:1, d.xml:1, …; -v lists all)"),
                "\(report)")
        #expect(report.hasSuffix("\nmodkit: error: no manifest"))
        #expect((warnings + [.error("no manifest")]).report(colored: false, foldingWarnings: false).components(separatedBy: "warning:").count == 6)
    }

    @Test func afterFiftyKindsOfWarningTheRestAreCountedAndVerboseShowsEveryOne() {
        let warnings = (0..<60).map { Diagnostic(severity: .warning, message: "odd thing number \($0)") }
        let report = warnings.report(colored: false)
        #expect(report.components(separatedBy: "warning:").count - 1 == Diagnostic.reportLimit)
        #expect(report.hasSuffix("\nmodkit: and 10 more warnings (-v lists them all)"), "\(report.suffix(200))")
        #expect(warnings.report(colored: false, foldingWarnings: false).components(separatedBy: "warning:").count - 1 == 60)
    }

    @Test func aFindingIsOneLineHoweverItsRequirementIsWritten() {
        #expect("\"~> 1.0\",\n      \"< 2.0\"".onOneLine() == "\"~> 1.0\", \"< 2.0\"")
        #expect("a  b".onOneLine() == "a  b", "spaces within a line are kept")
        #expect(("\"" + String(repeating: " ", count: 300_000)).onOneLine() == "\"")
        #expect(String(repeating: "v", count: 500).onOneLine(limit: 10) == "vvvvvvvvvv…")
        var finding = PinFinding(kind: .loose, module: "App", path: "App/App.podspec.json", line: 4, dependency: "Core",
                                 requirement: "\"~> 1.0\",\n      \"< 2.0\"")
        finding.version = "1.0.1"
        #expect(finding.message == "App/App.podspec.json:4: 'Core' is loose (\"~> 1.0\", \"< 2.0\"); pin: 1.0.1")
    }

    /// A byte column (SpecKit's) becomes the character column the excerpt puts its caret at.
    @Test func byteColumnsBecomeScalarColumns() {
        let line = Array("let café = \"日本".utf8)
        #expect(SourceExcerpt.scalarColumn(ofByteColumn: 1, in: line) == 1)
        #expect(SourceExcerpt.scalarColumn(ofByteColumn: 10, in: line) == 9, "the space after café: byte 10, character 9")
        #expect(SourceExcerpt.scalarColumn(ofByteColumn: 13, in: line) == 12, "the quote")
        #expect(SourceExcerpt.scalarColumn(ofByteColumn: 15, in: line) == 13, "inside 日")
        #expect(SourceExcerpt.scalarColumn(ofByteColumn: 17, in: line) == 14, "本, after the 3 bytes of 日")
        #expect(SourceExcerpt.scalarColumn(ofByteColumn: line.count + 1, in: line) == 15, "just past the end")
        let excerpt = SourceExcerpt(line: String(decoding: line, as: UTF8.self), column: SourceExcerpt.scalarColumn(ofByteColumn: 13, in: line))
        #expect(excerpt.caret == String(repeating: " ", count: 11) + "^")
    }
}
