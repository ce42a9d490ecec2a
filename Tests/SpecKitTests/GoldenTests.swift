import Foundation
import Testing
@testable import SpecKit

/// Before/after rewrites of every spec format, compared byte for byte with committed golden files.
@Suite struct GoldenTests {
    @Test func corpusIsLargeAndCoversEveryKind() {
        let cases = GoldenCase.all()
        #expect(cases.count >= 40)
        #expect(Set(cases.map(\.kind)) == Set(SpecFileKind.allCases))
    }

    @Test(arguments: GoldenCase.all())
    func rewriteMatchesGoldenFile(_ golden: GoldenCase) throws {
        let input = try golden.input()
        let expected = try golden.expected()
        let plan = try SpecRewriter.plan(input, kind: golden.kind, versions: golden.versions)
        #expect(plan.newBytes == expected,
                "\(golden.name) differs from expected:\n\(unifiedDiff(old: expected, new: plan.newBytes, path: golden.name))")
        #expect(plan.hasChanges == (input != expected))
        #expect(try TextEdit.apply(plan.edits, to: input) == plan.newBytes)
    }

    @Test(arguments: GoldenCase.all())
    func unrewritableRequirementsAreReported(_ golden: GoldenCase) throws {
        let input = try golden.input()
        let requirements = try SpecReader.read(input, kind: golden.kind)
        let unrewritable = requirements.filter { !$0.rewritable }
        #expect(unrewritable.map(\.name) == golden.skipped)
        #expect(unrewritable.allSatisfy { $0.reason?.isEmpty == false })
        let plan = try SpecRewriter.plan(input, kind: golden.kind, versions: golden.versions)
        let requested = unrewritable.filter { requirement in
            SpecRewriter.version(for: requirement, in: golden.versions).map { requirement.needsPin(to: $0) } ?? false
        }
        #expect(plan.skipped.map(\.request.requirement) == requested)
    }

    @Test(arguments: GoldenCase.all())
    func secondRewriteChangesNothing(_ golden: GoldenCase) throws {
        let once = try SpecRewriter.plan(try golden.input(), kind: golden.kind, versions: golden.versions).newBytes
        let twice = try SpecRewriter.plan(once, kind: golden.kind, versions: golden.versions)
        #expect(twice.edits.isEmpty)
        #expect(twice.newBytes == once)
        #expect(twice.rewritten.isEmpty)
    }

    @Test(arguments: GoldenCase.all().filter { $0.name.hasSuffix("crlf") })
    func crlfFixturesReallyUseCRLF(_ golden: GoldenCase) throws {
        let bytes = try golden.input()
        let lineFeeds = bytes.indices.filter { bytes[$0] == 0x0A }
        #expect(!lineFeeds.isEmpty)
        #expect(lineFeeds.allSatisfy { $0 > 0 && bytes[$0 - 1] == 0x0D })
    }
}
