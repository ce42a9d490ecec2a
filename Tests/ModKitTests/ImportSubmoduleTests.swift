import Foundation
import Testing
@testable import ModKit

/// `.gitmodules` beside a folder that is no git repository: what is not carried over is warned about at its line, a
/// section without path or url is an error, and `--exact` is refused up front, every problem in one run.
@Suite struct ImportSubmoduleTests {
    func read(_ text: String, exact: Bool = false) throws(ManifestError) -> ImportResult {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-import-submodules-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }
        try? Data(text.utf8).write(to: temp.appendingPathComponent(".gitmodules"))
        return try ManifestImporter.read(temp.appendingPathComponent(".gitmodules"), displayPath: ".gitmodules", workspaceRoot: temp, exact: exact)
    }

    @Test func whatIsNotCarriedOverIsWarnedAboutInFileOrder() throws {
        let result = try read("""
            [core]
            \tbare = false
            [submodule "A"]
            \tpath = Libs/A
            \turl = ../A.git
            \tbranch = .
            \tshallow = true
            \tupdate = rebase
            [submodule "B"]
            \tpath = Libs/B
            \turl = https://example.com/B.git
            \tbranch = main

            """)
        #expect(result.modules.map { "\($0.name) \($0.path) \($0.revision ?? "-")" } == ["A Libs/A -", "B Libs/B main"])
        #expect(result.modules.first?.url.hasSuffix("/A.git") == true)
        let warnings = result.warnings.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
        #expect(warnings.count == 5, "\(warnings)")
        #expect(warnings.first == "1:1 section [core] is not about a submodule; not carried over")
        #expect(warnings.dropFirst().first?.hasSuffix("is not the root of a git repository; the recorded submodule commits are not noted") == true)
        #expect(Array(warnings.dropFirst(2)) == [
            "6:2 submodule 'A': 'branch = .' follows the superproject's branch, but HEAD is detached; no branch carried over",
            "7:2 submodule 'A': 'shallow = true' is not carried over",
            "8:2 submodule 'A': 'update = rebase' is not carried over; modkit sync checks out the manifest revision (and never drops local work)",
        ])
    }

    @Test func sectionsWithoutPathOrURLAndExactWithoutCommitsAreAllReported() {
        do {
            _ = try read("""
                [submodule "B"]
                \tpath = Libs/B
                [submodule "C"]
                \turl = https://example.com/C.git

                """, exact: true)
            Issue.record("a section without url must fail")
        } catch {
            let messages = error.diagnostics.map { "\($0.location.map { "\($0.line)" } ?? "-") \($0.message)" }
            #expect(messages.count == 3, "\(messages)")
            #expect(messages.first?.hasPrefix("1 --exact needs the commits the superproject records, but ") == true)
            #expect(Array(messages.dropFirst()) == ["1 submodule 'B' has no 'url'", "3 submodule 'C' has no 'path'"])
        }
    }
}
