import Foundation
import Testing
@testable import ModKitCLI
import ModKit

/// The outcome vocabulary in code and in docs/json.md are the same words.
@Suite struct ModuleOutcomeTests {
    @Test func everyOutcomeIsDocumentedAndNoOther() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/json.md")
        let text = try String(contentsOf: file, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Outcomes\n").last?.components(separatedBy: "\n## ").first)
        let documented = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(documented == ModuleOutcome.allCases.map(\.rawValue))
    }

    @Test func onlyKeptAndFailedNeedAttention() {
        #expect(ModuleOutcome.allCases.filter(\.needsAttention) == [.kept, .failed])
    }
}
