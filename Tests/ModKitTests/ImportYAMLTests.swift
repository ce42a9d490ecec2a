import Foundation
import Testing
@testable import ModKit

/// west.yml and .repos files are read with the schema reader modkit.yml uses: every problem at its line and column,
/// unknown keys as warnings (they are another tool's keys), duplicates and wrong types as errors.
@Suite struct ImportYAMLTests {
    func read(_ name: String, _ bytes: [UInt8]) throws(ManifestError) -> ImportResult {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-import-yaml-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }
        try? Data(bytes).write(to: temp.appendingPathComponent(name))
        return try ManifestImporter.read(temp.appendingPathComponent(name), displayPath: name, workspaceRoot: temp, exact: false)
    }

    func errors(_ name: String, _ text: String) -> [String] {
        do {
            _ = try read(name, Array(text.utf8))
            return []
        } catch {
            return error.diagnostics.map { "\($0.location.map(\.description) ?? "-"): \($0.message)" }
        }
    }

    @Test func invalidUTF8IsReportedAtItsLineAndColumn() {
        let bytes = Array("manifest:\n  projects:\n    - name: a\n      url: file:///a\n      revision: m".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        do {
            _ = try read("west.yml", bytes)
            Issue.record("invalid UTF-8 must fail")
        } catch {
            #expect(error.diagnostics.map { $0.location?.description } == ["west.yml:5:18"], "\(error)")
            #expect(error.diagnostics.first?.message.hasPrefix("west.yml is not valid UTF-8 text") == true)
        }
    }

    @Test func westProblemsAreLocatedAndUnknownKeysAreWarningsWithASuggestion() throws {
        #expect(errors("west.yml", """
            manifest:
              projects:
                - name: a
                  url: file:///a
                  path: one
                  path: two
                - name: [b]
                - name: c
                  url: file:///c
                  clone-depth: none
              remotes: {name: x}

            """) == [
            "west.yml:6:7: duplicate key 'path' in project 'a'; remove one of them",
            "west.yml:7:13: expected a string for 'name', found a sequence",
            "west.yml:10:20: project 'c': 'clone-depth' must be a positive number",
            "west.yml:11:12: expected a sequence for 'remotes', found a mapping",
        ])
        let result = try read("west.yml", Array("manifest:\n  projects:\n    - name: a\n      url: file:///a\n      revison: main\n  selff: {}\n".utf8))
        #expect(result.warnings.map { "\($0.location!.line):\($0.location!.column) \($0.message)" } == [
            "5:7 project 'a': 'revison' is not carried over (did you mean 'revision'?)",
            "6:3 'manifest: selff' is not carried over (did you mean 'self'?)",
        ])
        #expect(result.warnings.allSatisfy { $0.severity == .warning })
    }

    @Test func vcstoolProblemsAreLocated() throws {
        #expect(errors("deps.repos", """
            repositories:
              src/a:
                type: git
                url: file:///a
              src/a:
                type: git
                url: file:///a2
              src/b: plain
              src/c:
                type: git

            """) == [
            "deps.repos:5:3: repository 'src/a' is listed twice",
            "deps.repos:8:10: expected a mapping with 'type' and 'url' for 'src/b', found a string",
            "deps.repos:9:3: repository 'src/c' has no 'url'",
        ])
        let result = try read("deps.repos", Array("repositories:\n  src/a:\n    type: git\n    url: file:///a\n    verison: main\n".utf8))
        #expect(result.warnings.map(\.message) == ["repository 'src/a': 'verison' is not carried over (did you mean 'version'?)"])
    }

    @Test func westAndVcstoolFilesWithAByteOrderMarkReadAsWithout() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let west = try read("west.yml", bom + Array("manifest:\n  projects:\n    - name: a\n      url: file:///a\n      revision: main\n".utf8))
        #expect(west.modules.map(\.path) == ["a"])
        let repos = try read("deps.repos", bom + Array("repositories:\n  src/b:\n    type: git\n    url: file:///b\n    version: main\n".utf8))
        #expect(repos.modules.map(\.path) == ["src/b"])
        #expect(errors("deps.repos", "\u{FEFF}repositories:\n  src/b: [x\n") == ["deps.repos:3:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence started at line 2)"])
    }
}
