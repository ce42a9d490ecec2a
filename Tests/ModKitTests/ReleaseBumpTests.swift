import Foundation
import Testing
@testable import ModKit

@Suite struct VersionBumpTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ReleaseGolden")

    func workspace(_ files: [String: String], manifest: String) throws -> (URL, Manifest) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-bump-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let file = root.appendingPathComponent("modkit.yml")
        try manifest.write(to: file, atomically: true, encoding: .utf8)
        return (root, try ManifestLoader.parse(text: manifest, file: file, displayPath: "modkit.yml"))
    }

    /// firebase-ios-sdk: several podspecs at one root in lockstep give the module its version and are bumped together, byte for byte.
    @Test func podsOfOneModuleInLockstepAreReadAndBumpedTogether() throws {
        func podspec(_ name: String, _ version: String) -> String {
            "Pod::Spec.new do |s|\r\n  s.name    = '\(name)'\r\n  s.version = '\(version)'\r\n  s.dependency 'FirebaseCore', '\(version)'\r\nend\r\n"
        }
        let (root, manifest) = try workspace(["firebase/FirebaseCore.podspec": podspec("FirebaseCore", "12.19.0"),
                                              "firebase/FirebaseAuth.podspec": podspec("FirebaseAuth", "12.19.0")],
                                             manifest: "version: 1\nmodules:\n  - name: firebase-ios-sdk\n    path: firebase\n")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(VersionReader.read(module: manifest.modules[0], in: manifest).version?.description == "12.19.0")
        var edits = EditSet()
        try VersionBump.plan(manifest.modules[0], in: manifest, to: "12.20.0", edits: &edits)
        let byName = Dictionary(uniqueKeysWithValues: edits.changed.map { ($0.url.lastPathComponent, $0.currentText) })
        #expect(byName.count == 2, "\(byName.keys)")
        #expect(byName["FirebaseAuth.podspec"] == podspec("FirebaseAuth", "12.19.0").replacingOccurrences(of: "s.version = '12.19.0'", with: "s.version = '12.20.0'"))

        // Pods at different versions speak for none: the module has no podspec version, and a bump leaves them alone.
        try podspec("FirebaseAuth", "11.0.0").write(to: root.appendingPathComponent("firebase/FirebaseAuth.podspec"), atomically: true, encoding: .utf8)
        #expect(VersionReader.read(module: manifest.modules[0], in: manifest).version == nil)
        var apart = EditSet()
        try VersionBump.plan(manifest.modules[0], in: manifest, to: "12.20.0", edits: &apart)
        #expect(apart.changed.map(\.url.lastPathComponent) == ["VERSION"])
    }

    @Test func bumpChangesOnlyTheModuleVersionOfAPodspec() throws {
        let before = try String(contentsOf: Self.golden.appendingPathComponent("Feature.podspec.before"), encoding: .utf8)
        let after = try String(contentsOf: Self.golden.appendingPathComponent("Feature.podspec.after"), encoding: .utf8)
        let (root, manifest) = try workspace(["Feature/Feature.podspec": before],
                                             manifest: "version: 1\nmodules:\n  - name: Feature\n    path: Feature\n")
        defer { try? FileManager.default.removeItem(at: root) }
        var edits = EditSet()
        try VersionBump.plan(manifest.modules[0], in: manifest, to: "1.1.0", edits: &edits)
        #expect(edits.changed.count == 1)
        #expect(edits.changed.first?.currentText == after)
        #expect(try String(contentsOf: root.appendingPathComponent("Feature/Feature.podspec"), encoding: .utf8) == before,
                "planning writes nothing")
        try edits.apply()
        #expect(try String(contentsOf: root.appendingPathComponent("Feature/Feature.podspec"), encoding: .utf8) == after)

        var again = EditSet()
        let reloaded = try ManifestLoader.load(file: manifest.file)
        try VersionBump.plan(reloaded.modules[0], in: reloaded, to: "1.1.0", edits: &again)
        #expect(again.changed.isEmpty, "a second bump to the same version changes nothing")
    }

    @Test func bumpWritesManifestVersionVersionFileAndPodspecJSON() throws {
        let manifestText = """
        version: 1
        modules:
          - name: Core        # the base
            path: Core
            version: 1.0.0    # kept in the manifest
          - name: Net
            path: Net
          - name: Bare
            path: Bare
        """
        let json = "{\n  \"name\": \"Net\",\n  \"version\": \"2.0.0\",\n  \"dependencies\": { \"Core\": [\"1.0.0\"] },\n  \"subspecs\": [{ \"name\": \"x\", \"version\": \"9\" }]\n}\n"
        let (root, manifest) = try workspace(["Core/VERSION": "1.0.0\n", "Net/Net.podspec.json": json, "Bare/README.md": "x\n"],
                                             manifest: manifestText)
        defer { try? FileManager.default.removeItem(at: root) }
        var edits = EditSet()
        for module in manifest.modules { try VersionBump.plan(module, in: manifest, to: "2.1.0", edits: &edits) }
        let byName = Dictionary(uniqueKeysWithValues: edits.changed.map { ($0.url.path.replacingOccurrences(of: root.path + "/", with: ""), $0.currentText) })
        #expect(byName["modkit.yml"] == manifestText.replacingOccurrences(of: "version: 1.0.0    # kept", with: "version: 2.1.0    # kept"))
        #expect(byName["Core/VERSION"] == "2.1.0\n")
        #expect(byName["Net/Net.podspec.json"] == json.replacingOccurrences(of: "\"version\": \"2.0.0\"", with: "\"version\": \"2.1.0\""))
        #expect(byName["Bare/VERSION"] == "2.1.0\n", "a module with no version source gets a VERSION file")
        #expect(edits.diff().contains("--- a/") && edits.diff().contains("+2.1.0"))
    }
}

@Suite struct ChangelogTests {
    @Test func newSectionGoesAboveThePreviousOneAndIsNotDuplicated() {
        let text = "# Changelog\n\nAll notable changes.\n\n## 1.0.0 — 2026-01-02\n\n- First release.\n"
        let updated = Changelog.adding(version: "1.1.0", date: "2026-11-30", entries: ["Resume uploads", "Fix retry"], to: text)
        #expect(updated == "# Changelog\n\nAll notable changes.\n\n## 1.1.0 — 2026-11-30\n\n- Resume uploads\n- Fix retry\n\n## 1.0.0 — 2026-01-02\n\n- First release.\n")
        #expect(Changelog.adding(version: "1.1.0", date: "2026-12-01", entries: ["Other"], to: updated!) == nil)
    }

    @Test func missingOrTitleOnlyChangelogs() {
        #expect(Changelog.adding(version: "1.0.0", date: "2026-11-30", entries: [], to: nil) == "# Changelog\n\n## 1.0.0 — 2026-11-30\n\n- No changes.\n")
        #expect(Changelog.adding(version: "1.0.0", date: "2026-11-30", entries: ["A"], to: "# Changelog\n\n")
                == "# Changelog\n\n## 1.0.0 — 2026-11-30\n\n- A\n")
    }
}
