import Foundation
import Testing
@testable import ModKit

/// The snapshot file: deterministic text, quoting where YAML needs it, a lossless round trip, and positioned errors.
@Suite struct SnapshotFileTests {
    static let commitA = String(repeating: "a1", count: 20)
    static let commitB = String(repeating: "0", count: 39) + "1"

    static let sample = Snapshot(
        name: "v1.1.1", created: "2026-11-30T12:00:00Z", workspace: "OneForAll",
        manifest: .init(commit: commitA, branch: "main"),
        modules: [
            .init(name: "QCloudCore", kind: .repository, url: "ssh://git@git.example.com/ios/QCloudCore.git", path: "Libs/QCloudCore",
                  commit: commitA, version: "1.0.1", branch: "develop", tag: "v1.1.1"),
            .init(name: "Odd", kind: .repository, url: "../odd,{x}.git", path: "Libs/Odd", commit: commitB, version: "1.0",
                  branch: nil, tag: "yes"),
            .init(name: "COSXML", kind: .directory, path: "BusinessComponents/COSXML", version: "1.2.0", tag: "COSXML/1.2.0"),
        ])

    @Test func rendersDeterministicTextInKeyOrder() {
        let text = SnapshotFile.render(Self.sample)
        #expect(text == SnapshotFile.render(Self.sample))
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(lines == [
            "snapshot: v1.1.1",
            "created: \"2026-11-30T12:00:00Z\"",
            "workspace: OneForAll",
            "manifest: { commit: \(Self.commitA), branch: main }",
            "modules:",
            "  QCloudCore: { url: \"ssh://git@git.example.com/ios/QCloudCore.git\", path: Libs/QCloudCore, commit: \(Self.commitA), version: 1.0.1, branch: develop, tag: v1.1.1 }",
            "  Odd:        { url: \"../odd,{x}.git\", path: Libs/Odd, commit: \"\(Self.commitB)\", version: \"1.0\", tag: \"yes\" }",
            "  COSXML:     { path: BusinessComponents/COSXML, version: 1.2.0, tag: COSXML/1.2.0 }",
        ])
    }

    @Test func roundTripsThroughTheReader() throws {
        let text = SnapshotFile.render(Self.sample)
        let parsed = try SnapshotFile.parse(text, displayPath: "v1.1.1.yml")
        #expect(parsed == Self.sample)
    }

    @Test func quotesWhatYAMLWouldReadOtherwise() {
        for value in ["", "yes", "No", "null", "~", "1.0", "42", "-x", "a: b", "a,b", "{x}", "[x]", "#x", "a b", "q\"uote", "back\\slash", "line\nbreak"] {
            let quoted = SnapshotFile.scalar(value)
            #expect(quoted.hasPrefix("\""), "\(value) -> \(quoted)")
            let parsed = try? SnapshotFile.parse("snapshot: \(quoted)\nmodules: {}\n", displayPath: "x.yml")
            #expect(parsed?.name == (value.isEmpty ? nil : value), "\(value) -> \(quoted)")
        }
        for value in ["v1.0.0", "Libs/Core", "1.0.0", "release-1.2", "COSXML/1.2.0", ".hidden"] {
            #expect(SnapshotFile.scalar(value) == value)
        }
    }

    @Test func reportsEveryProblemWithLineAndColumn() {
        let text = """
        snapshot: v1
        created: "2026-11-30T12:00:00Z"
        modules:
          A: { url: x.git, path: Libs/A, comit: \(Self.commitA) }
          B: { path: Libs/B, commit: 12345 }
        extra: 1

        """
        #expect {
            try SnapshotFile.parse(text, displayPath: "v1:.modkit/snapshots/v1.yml")
        } throws: { error in
            guard let error = error as? ManifestError else { return false }
            let rendered = error.description
            return rendered.hasPrefix("v1:.modkit/snapshots/v1.yml:4:6: error: repository module 'A' has no 'commit'")
                && rendered.contains("v1:.modkit/snapshots/v1.yml:4:34: error: unknown key 'comit' in module 'A' (did you mean 'commit'?)")
                && rendered.contains("v1:.modkit/snapshots/v1.yml:5:30: error: '12345' is not a full commit id")
                && rendered.contains("v1:.modkit/snapshots/v1.yml:6:1: error: unknown key 'extra'")
                && rendered.contains("^")
        }
    }

    @Test func reportsInvalidYAML() {
        #expect(throws: ManifestError.self) { try SnapshotFile.parse("snapshot: [v1\n", displayPath: "v1.yml") }
        #expect(throws: ManifestError.self) { try SnapshotFile.parse("", displayPath: "v1.yml") }
    }

    @Test func tagNamesFromFormats() {
        #expect(Snapshot.tagName(format: "{snapshot}", snapshot: "v1.1.1", module: "Core", version: "1.0.0") == "v1.1.1")
        #expect(Snapshot.tagName(format: "{module}/{version}", snapshot: "v1.1.1", module: "COSXML", version: "1.2.0") == "COSXML/1.2.0")
        #expect(Snapshot.tagName(format: "{module}-{snapshot}", snapshot: "v2", module: "Core", version: nil) == "Core-v2")
    }

    @Test func pathsAndNamesAreCheckedLikeModkitYML() {
        let text = """
        snapshot: v1
        modules:
          A: { path: ../escaped/A }
          B: { path: /abs/B }
          C: { path: .git/C }
          "9 x": { path: Libs/X }
          D: { path: Libs/D }
          E: { path: Libs/D/E }
          F: { path: Libs/D }
          G: { url: "has space", path: Libs/G, commit: \(Self.commitA) }

        """
        #expect {
            try SnapshotFile.parse(text, displayPath: "v1.yml")
        } throws: { error in
            let rendered = (error as? ManifestError)?.description ?? ""
            return rendered.contains("v1.yml:3:14: error: module path '../escaped/A' escapes the workspace")
                && rendered.contains("v1.yml:4:14: error: module path '/abs/B' is absolute")
                && rendered.contains("v1.yml:5:14: error: module path '.git/C' lies inside the private directory '.git'")
                && rendered.contains("v1.yml:6:3: error: module name '9 x' is not a package name")
                && rendered.contains("v1.yml:8:14: error: module path 'Libs/D/E' lies inside module 'D' at 'Libs/D'; only repository modules can nest")
                && rendered.contains("v1.yml:9:14: error: module 'F' has the same path as module 'D' ('Libs/D')")
                && rendered.contains("v1.yml:10:13: error: 'has space' is not a url")
        }
    }

    @Test func invalidUTF8IsReportedAtItsLine() {
        let bytes = Array("snapshot: v1\nmodules:\n  A: { path: Libs/A }\n  B: { path: Libs/B }\n  C: { path: L".utf8) + [0xC3, 0x28] + Array(" }\n".utf8)
        #expect {
            try SnapshotFile.parse(bytes, displayPath: "v1.yml")
        } throws: { error in
            (error as? ManifestError)?.description.hasPrefix("v1.yml:5:15: error: v1.yml is not valid UTF-8 text") == true
        }
    }

    @Test func repositoryModulesMayNestAsInModkitYML() throws {
        let text = """
        snapshot: v1
        modules:
          bsim: { url: "file:///r/bsim.git", path: tools/bsim, commit: \(Self.commitA) }
          babblesim_base: { url: "file:///r/base.git", path: tools/bsim/components, commit: \(Self.commitA) }

        """
        let snapshot = try SnapshotFile.parse(text, displayPath: "v1.yml")
        #expect(snapshot.modules.map(\.path) == ["tools/bsim", "tools/bsim/components"])
    }
}
