import Foundation
import Testing

/// SpecKit is the only target that reads or writes spec file contents: no other target's code names a spec or lock
/// file, or spells the syntax only a spec parser needs. Other targets hand SpecKit bytes and write back what it planned.
@Suite struct SpecOwnershipTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// String literals that only code reading spec contents needs: file names, and the syntax of the formats.
    static let forbidden = [
        "\".podspec\"", "\".podspec.json\"", "\"Podfile\"", "\"Podfile.lock\"", "\"Package.swift\"", "\"Package.resolved\"",
        "\"Cartfile\"", "\"Cartfile.private\"", "\"Cartfile.resolved\"", "Pod::Spec", "\"PODS:\"", "CHECKOUT OPTIONS:\"",
        "\"swift-tools-version", "\".package(", "\"github \"", "\"pins\"", "JSONSerialization",
    ]

    /// Code that names a spec file without reading its contents, or parses JSON that is no spec file, and why.
    static let allowed: [String: String] = [
        "ModKit/Scaffold/TemplateLibrary.swift": "recognises a templates folder by the existence of a Package.swift; reads no contents",
        "ModKit/API/APIReaders.swift": "parses the compilers' JSON (swift-api-digester's SDK dump, clang's AST dump), never a spec file",
    ]

    @Test func noOtherTargetSpellsSpecSyntaxOrFileNames() throws {
        let enumerator = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
        var checked = 0
        var offences: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(Self.sources.path.count + 1))
            guard !relative.hasPrefix("SpecKit/"), Self.allowed[relative] == nil else { continue }
            checked += 1
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for token in Self.forbidden where line.contains(token) {
                    offences.append("Sources/\(relative):\(number + 1): \(token)")
                }
            }
        }
        #expect(checked > 50, "the scan found the sources")
        #expect(offences.isEmpty, "spec contents are SpecKit's alone:\n\(offences.joined(separator: "\n"))")
    }

    @Test func theScanFindsAnOffence() throws {
        let line = "let lock = contents(\"Podfile.lock\")"
        #expect(Self.forbidden.contains { line.contains($0) })
    }
}
