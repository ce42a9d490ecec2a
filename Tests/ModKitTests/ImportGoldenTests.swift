import Foundation
import Testing
@testable import ModKit

/// The golden inputs and expected outputs next to this file; `{{REMOTES}}` in an input stands for the folder of the remotes.
enum ImportGolden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ImportGolden")
    /// What `{{REMOTES}}` becomes in the unit tests, and what the end-to-end tests replace their sandbox path by before comparing.
    static let remotes = "/srv/git"

    /// Copies the input folder `name` into `destination` with `{{REMOTES}}` replaced.
    static func instantiate(_ name: String, remotes: String, into destination: URL) throws {
        let source = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            let text = try String(contentsOf: source.appendingPathComponent(file), encoding: .utf8)
            try text.replacingOccurrences(of: "{{REMOTES}}", with: remotes)
                .write(to: destination.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
    }

    /// Compares `actual` with the golden file; `MODKIT_UPDATE_GOLDEN=1` rewrites it instead.
    static func check(_ actual: String, against name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["MODKIT_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(name) differs; rerun with MODKIT_UPDATE_GOLDEN=1 to see the change in git diff", sourceLocation: sourceLocation)
    }

    /// Warnings as `modkit init` prints their first line: `file:line:col: warning: message`.
    static func warningLines(_ result: ImportResult) -> String {
        result.warnings.map { warning in
            (warning.location.map { "\($0): " } ?? "") + "warning: " + warning.message + "\n"
        }.joined()
    }
}

@Suite struct ImportGoldenTests {
    /// Imports `input` from a copy of the golden folder `folder` and checks the manifest and the warnings against their golden files.
    func importGolden(_ folder: String, input: String, format: ImportFormat? = nil) throws -> ImportResult {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        try ImportGolden.instantiate(folder, remotes: ImportGolden.remotes, into: temp.appendingPathComponent(folder))
        let result = try ManifestImporter.read(temp.appendingPathComponent(folder).appendingPathComponent(input),
                                               displayPath: "\(folder)/\(input)", format: format, workspaceRoot: temp, exact: false)
        let text = ManifestWriter.render(workspace: "Golden", imported: result)
        _ = try ManifestLoader.parse(text: text, file: temp.appendingPathComponent("modkit.yml"), displayPath: "modkit.yml")
        try ImportGolden.check(text, against: "\(folder).modkit.yml")
        try ImportGolden.check(ImportGolden.warningLines(result), against: "\(folder).warnings.txt")
        return result
    }

    @Test func repoManifestWithIncludeRemoveAndExtend() throws {
        let result = try importGolden("repo", input: "default.xml")
        #expect(result.format == .repo)
        #expect(result.modules.map(\.name) == ["soong", "base", "lint", "sample", "tools_soong"])
        #expect(result.modules.first?.groups == ["pdk", "tradefed", "core"])
        #expect(!result.modules.contains { $0.sourceName == "platform/external/legacy" })
    }

    @Test func westManifestWithURLBaseAndRepoPath() throws {
        let result = try importGolden("west", input: "west.yml")
        #expect(result.modules.map(\.url) == ["/srv/git/zephyr/hal-nordic", "/srv/git/zephyr/mbedtls", "/srv/git/vendor/sdk-tools"])
        #expect(result.imports == [ManifestImport(module: "sdk_tools")], "'import: true' is recorded under the modkit name")
        #expect(result.modules.last?.depth == 1, "clone-depth becomes depth")
    }

    @Test func vcstoolFileSkipsNonGitWithAWarning() throws {
        let result = try importGolden("vcstool", input: "product.repos")
        #expect(result.modules.map(\.path) == ["src/core", "src/net-utils", "src/ui"])
        #expect(result.warnings.contains { $0.message.contains("type 'svn'") && $0.location?.line == 11 })
    }

    @Test func formatIsDetectedByContentWhateverTheFileName() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        try ImportGolden.instantiate("west", remotes: "/srv/git", into: temp)
        try FileManager.default.moveItem(at: temp.appendingPathComponent("west.yml"), to: temp.appendingPathComponent("deps.txt"))
        let result = try ManifestImporter.read(temp.appendingPathComponent("deps.txt"), displayPath: "deps.txt", workspaceRoot: temp, exact: false)
        #expect(result.format == .west)
    }

    @Test func malformedXMLFailsWithLineAndColumn() throws {
        let file = ImportGolden.directory.appendingPathComponent("broken/bad.xml")
        #expect {
            _ = try ManifestImporter.read(file, displayPath: "bad.xml", workspaceRoot: file.deletingLastPathComponent(), exact: false)
        } throws: { error in
            guard let error = error as? ManifestError, let location = error.diagnostics.first?.location else { return false }
            return location.file == "bad.xml" && location.line >= 4 && error.diagnostics[0].message.hasPrefix("invalid XML")
        }
    }

    @Test func malformedYAMLFailsWithLineAndColumn() throws {
        let file = ImportGolden.directory.appendingPathComponent("broken/bad.repos")
        #expect {
            _ = try ManifestImporter.read(file, displayPath: "bad.repos", workspaceRoot: file.deletingLastPathComponent(), exact: false)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.first?.description.hasPrefix("bad.repos:5:1: error: invalid YAML") == true
        }
    }
}

@Suite struct ImportPartsTests {
    @Test func relativeSubmoduleURLsResolveLikeGit() {
        #expect(RelativeURL.resolveGit("../Core.git", against: "https://host/org/super.git") == "https://host/org/Core.git")
        #expect(RelativeURL.resolveGit("../../other/Core.git", against: "https://host/org/super.git/") == "https://host/other/Core.git")
        #expect(RelativeURL.resolveGit("./sub", against: "/srv/git/super") == "/srv/git/super/sub")
        #expect(RelativeURL.resolveGit("../Core.git", against: "git@host:org/super.git") == "git@host:org/Core.git")
        #expect(RelativeURL.resolveGit("../Core.git", against: "git@host:super.git") == "git@host:Core.git")
    }

    @Test func relativeRepoFetchJoinsLikeAURL() {
        #expect(RelativeURL.resolveRepo("..", against: "https://host/platform/manifest") == "https://host")
        #expect(RelativeURL.resolveRepo(".", against: "https://host/platform/manifest.git") == "https://host/platform")
        #expect(RelativeURL.resolveRepo("../mirror", against: "/srv/git/platform/manifest") == "/srv/git/mirror")
    }

    @Test func gitConfigKeepsLinesQuotesAndComments() throws {
        let config = try GitConfigParser("""
        # comment
        [submodule "Libs/Core"]
        \tpath = Libs/Core ; trailing comment
        \turl = "../Core.git"
        [submodule "Odd \\"name\\""]
        \tURL = a\\
        b
        \tshallow
        """)
        #expect(config.sections.map(\.subsection) == ["Libs/Core", "Odd \"name\""])
        #expect(config.entries.map(\.key) == ["path", "url", "url", "shallow"])
        #expect(config.entries.map(\.value) == ["Libs/Core", "../Core.git", "ab", "true"])
        #expect(config.entries.map(\.line) == [3, 4, 6, 8])
    }

    @Test func gitConfigSyntaxErrorNamesLineAndColumn() {
        #expect(throws: GitConfigParser.SyntaxError.self) { try GitConfigParser("[submodule \"x\"\n\tpath = a\n") }
        do {
            _ = try GitConfigParser("[submodule \"x\"]\n\tpath a\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2 && error.column == 7)
        }
    }

    @Test func namesComeFromTheLastComponentAndStayUnique() {
        var modules = ["platform/build/soong", "tools/soong", "soong", "9patch.git", "my-lib"].map {
            ImportedModule(sourceName: $0, url: "https://h/\($0)", path: $0)
        }
        ManifestImporter.assignNames(&modules)
        #expect(modules.map(\.name) == ["soong", "tools_soong", "soong_2", "_9patch", "my_lib"])
    }
}
