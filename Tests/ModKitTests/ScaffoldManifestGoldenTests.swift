import Foundation
import Testing
@testable import ModKit

/// `modkit new`'s manifest edit against committed goldens: the file differs from before only by the added lines.
/// Regenerate with MODKIT_UPDATE_GOLDEN=1 after checking the diff by eye.
@Suite struct ScaffoldManifestGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ScaffoldGolden")

    static let cases: [(String, [ManifestAppender.Entry])] = [
        ("commented", [.init(name: "Payments", path: "Libs/Payments", url: "Payments.git")]),
        ("empty-flow", [.init(name: "Payments", path: "Payments")]),
        ("no-final-newline", [.init(name: "PaymentsInterface", path: "PaymentsInterface"), .init(name: "Payments", path: "Payments")]),
        ("flow", [.init(name: "Payments", path: "Libs/Payments")]),
        ("crlf", [.init(name: "Wallet", path: "Libs/Wallet", url: "file:///srv/git/Wallet.git")]),
        ("null", [.init(name: "Payments", path: "Payments")]),
    ]

    @Test(arguments: cases.map(\.0))
    func appendMatchesGolden(_ name: String) throws {
        let entries = try #require(Self.cases.first { $0.0 == name }?.1)
        let input = try String(contentsOf: Self.folder.appendingPathComponent("\(name).in.yml"), encoding: .utf8)
        let output = try ManifestAppender.append(entries, to: input)
        let goldenURL = Self.folder.appendingPathComponent("\(name).out.yml")
        if ProcessInfo.processInfo.environment["MODKIT_UPDATE_GOLDEN"] == "1" {
            try Data(output.utf8).write(to: goldenURL)
        }
        let golden = try String(contentsOf: goldenURL, encoding: .utf8)
        #expect(output == golden, "\(name): got\n\(output)")

        // The result is a valid manifest whose last modules are the new ones.
        let file = URL(fileURLWithPath: "/workspace/modkit.yml")
        let before = try ManifestLoader.parse(text: input, file: file, displayPath: "modkit.yml")
        let after = try ManifestLoader.parse(text: output, file: file, displayPath: "modkit.yml")
        #expect(after.modules.count == before.modules.count + entries.count)
        #expect(after.modules.suffix(entries.count).map { ManifestAppender.Entry(name: $0.name, path: $0.path, url: $0.url) } == entries)
    }

    @Test func onlyLinesAreAddedToABlockSequence() throws {
        let input = try String(contentsOf: Self.folder.appendingPathComponent("commented.in.yml"), encoding: .utf8)
        let output = try ManifestAppender.append([.init(name: "Payments", path: "Libs/Payments")], to: input)
        let diff = LineDiff.unified(old: input, new: output, oldPath: "a", newPath: "b")
        let changed = diff.split(separator: "\n").dropFirst(2).filter { $0.hasPrefix("+") || $0.hasPrefix("-") }
        #expect(changed == ["+", "+    -   name: Payments", "+        path: Libs/Payments"])
    }

    /// YAML also breaks lines at a lone CR and at NEL: the edit lands where the parser says, every other byte kept.
    @Test func linesBrokenByLoneCROrNELAreKeptAsTheyAre() throws {
        let file = URL(fileURLWithPath: "/workspace/modkit.yml")
        let flow = "version: 1\rmodules: [{name: A, path: A},\r  {name: B, path: B, revision: \"L\r\r B\"}]\r# end\r"
        let editedFlow = try ManifestAppender.append([.init(name: "C", path: "C")], to: flow)
        #expect(editedFlow == "version: 1\rmodules: [{name: A, path: A},\r  {name: B, path: B, revision: \"L\r\r B\"}, {name: C, path: C}]\r# end\r")
        #expect(try ManifestLoader.parse(text: editedFlow, file: file, displayPath: "modkit.yml").modules.map(\.name) == ["A", "B", "C"])

        let block = "version: 1\u{85}modules:\u{85}  - name: A\u{85}    path: A\u{85}"
        let editedBlock = try ManifestAppender.append([.init(name: "C", path: "C")], to: block)
        #expect(editedBlock == block + "  - name: C\n    path: C\n")
        #expect(try ManifestLoader.parse(text: editedBlock, file: file, displayPath: "modkit.yml").modules.map(\.name) == ["A", "C"])
    }
}
