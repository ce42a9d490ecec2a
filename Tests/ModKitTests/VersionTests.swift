import Foundation
import Testing
@testable import ModKit

@Suite struct VersionTests {
    @Test func semanticVersionParsing() {
        let v = SemanticVersion("1.2.3-beta.1+build.5")
        #expect(v?.major == 1 && v?.minor == 2 && v?.patch == 3)
        #expect(v?.prerelease == ["beta", "1"] && v?.build == ["build", "5"])
        #expect(v?.description == "1.2.3-beta.1+build.5")
        #expect(SemanticVersion("1.2.3+build")?.build == ["build"])
        for bad in ["1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-01", "v1.2.3", "1.2.x", "", "1.2.3+", "1.2.3-a..b"] {
            #expect(SemanticVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func semanticVersionPrecedence() {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                       "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "1.10.0", "2.0.0"].map { SemanticVersion($0)! }
        #expect(ordered.shuffled().sorted() == ordered)
        for (a, b) in zip(ordered, ordered.dropFirst()) { #expect(a < b) }
        #expect(SemanticVersion("1.0.0+a")!.hasSamePrecedence(as: SemanticVersion("1.0.0+b")!))
    }

    /// A workspace with one module directory holding `files`.
    func workspace(_ files: [String: String], moduleYAML: String = "{name: Core, path: Libs/Core}") throws -> (Manifest, URL) {
        let root = try makeTemporaryDirectory()
        let dir = root.appendingPathComponent("Libs/Core")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        let manifest = try ManifestLoader.parse(text: "version: 1\nmodules:\n  - \(moduleYAML)\n",
                                                file: root.appendingPathComponent("modkit.yml"), displayPath: "modkit.yml")
        return (manifest, root)
    }

    func read(_ files: [String: String], moduleYAML: String = "{name: Core, path: Libs/Core}") throws -> ModuleVersion {
        let (manifest, root) = try workspace(files, moduleYAML: moduleYAML)
        defer { try? FileManager.default.removeItem(at: root) }
        return VersionReader.read(module: manifest.modules[0], in: manifest)
    }

    @Test func podspecVersionSkipsOtherKeys() throws {
        let podspec = """
        # s.version = '0.0.1' in a comment
        Pod::Spec.new do |spec|
          spec.name         = 'Core'
          spec.swift_version = '5.0'
          spec.version_tag  = '9.9.9'
          spec.version      = "1.0.1" # the release
          spec.version      = '2.0.0'
        end
        """
        let v = try read(["Core.podspec": podspec])
        #expect(v.version == SemanticVersion("1.0.1"))
        #expect(v.raw == "1.0.1")
        #expect(v.source == .podspec("Libs/Core/Core.podspec"))
        #expect(v.location == SourceLocation(file: "Libs/Core/Core.podspec", line: 6, column: 23))
    }

    @Test func podspecForms() throws {
        #expect(try read(["Other.podspec": "Pod::Spec.new do |s|\n  s.version = %q{3.1.4}\nend\n"]).version == SemanticVersion("3.1.4"))
        #expect(try read(["Core.podspec": "Pod::Spec.new do |s|\n  s.version='1.2.3-rc.1'\nend\n",
                          "Legacy.podspec": "Pod::Spec.new do |s|\n  s.version = '0.1.0'\nend\n"]).version == SemanticVersion("1.2.3-rc.1"))
        // Two podspecs, none named after the module: ambiguous, so the VERSION file answers.
        #expect(try read(["A.podspec": "Pod::Spec.new do |s|\n s.version = '1.0.0'\nend\n",
                          "B.podspec": "Pod::Spec.new do |s|\n s.version = '2.0.0'\nend\n", "VERSION": "3.0.0\n"]).source == .versionFile)
    }

    @Test func nonLiteralPodspecVersionFallsBackToVersionFile() throws {
        let podspec = "Pod::Spec.new do |s|\n  s.version = File.read('VERSION').strip\nend\n"
        let v = try read(["Core.podspec": podspec, "VERSION": "  4.5.6\n"])
        #expect(v.version == SemanticVersion("4.5.6"))
        #expect(v.source == .versionFile)
        let alone = try read(["Core.podspec": podspec])
        #expect(alone.version == nil)
        #expect(alone.raw == "File.read('VERSION').strip")
        #expect(alone.source == .podspec("Libs/Core/Core.podspec"))
    }

    @Test func podspecJSONAndVersionFile() throws {
        let json = try read(["Core.podspec.json": "{\n  \"name\": \"Core\",\n  \"version\": \"2.3.0\"\n}\n"])
        #expect(json.version == SemanticVersion("2.3.0"))
        #expect(json.source == .podspec("Libs/Core/Core.podspec.json"))
        #expect(json.location?.line == 3)
        let file = try read(["VERSION": "1.4.0\n"])
        #expect(file.version == SemanticVersion("1.4.0") && file.source == .versionFile)
        let bad = try read(["VERSION": "1.4\n"])
        #expect(bad.version == nil && bad.raw == "1.4")
    }

    @Test func manifestVersionWinsAndMissingDirectoryIsNone() throws {
        let v = try read(["Core.podspec": "Pod::Spec.new do |s|\n s.version = '1.0.0'\nend\n"],
                         moduleYAML: "{name: Core, path: Libs/Core, version: 9.0.0}")
        #expect(v.version == SemanticVersion("9.0.0") && v.source == .manifest)
        #expect(v.location == SourceLocation(file: "modkit.yml", line: 3, column: 44))
        let missing = try read([:], moduleYAML: "{name: Core, path: Libs/Gone}")
        #expect(missing.source == .none && missing.version == nil)
        let empty = try read([:])
        #expect(empty.source == .none)
    }
}
