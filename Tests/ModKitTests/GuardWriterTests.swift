import Foundation
import Testing
@testable import ModKit

@Suite struct GuardWriterTests {
    func modificationDate(_ url: URL) throws -> Date {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test func writesMissingFilesThenNothing() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = GuardSpec(name: "Core", version: version("1.0.1"))

        let first = try GuardWriter.plan(spec, moduleDirectory: root)
        #expect(first.files.map(\.state) == [.missing, .missing])
        #expect(first.files.map(\.url.lastPathComponent) == ["CoreVersion.h", "CoreVersion.swift"])
        #expect(try GuardWriter.apply(first).count == 2)
        let header = root.appendingPathComponent("Generated/CoreVersion.h")
        #expect(try String(contentsOf: header, encoding: .utf8) == GuardGenerator.header(for: spec))

        // Back-date the files so a rewrite within the same clock tick would still show.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for file in first.files { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.url.path) }
        let second = try GuardWriter.plan(spec, moduleDirectory: root)
        #expect(second.isUpToDate)
        #expect(second.files.map(\.state) == [.upToDate, .upToDate])
        #expect(try GuardWriter.apply(second).isEmpty)
        #expect(GuardWriter.diff(second).isEmpty)
        for file in second.files { #expect(try modificationDate(file.url) == old) }
    }

    @Test func versionBumpMakesFilesStaleUntilRewritten() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let core = root.appendingPathComponent("Core"), feature = root.appendingPathComponent("Feature")
        let feature101 = GuardSpec(name: "Feature", version: version("2.0.0"), dependencies: [GuardDependency(name: "Core", version: version("1.0.1"))])
        try writeGuard(GuardSpec(name: "Core", version: version("1.0.1")), in: core)
        try writeGuard(feature101, in: feature)
        let featureHeader = feature.appendingPathComponent("Generated/FeatureVersion.h")
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: featureHeader.path)

        // Core moves to 1.0.2: both of Core's files and both of Feature's are stale.
        let core102 = GuardSpec(name: "Core", version: version("1.0.2"))
        var feature102 = feature101
        feature102.dependencies[0].version = version("1.0.2")
        let corePlan = try GuardWriter.plan(core102, moduleDirectory: core)
        let featurePlan = try GuardWriter.plan(feature102, moduleDirectory: feature, languages: [.c])
        #expect(corePlan.changes.map(\.state) == [.stale, .stale])
        #expect(featurePlan.changes.map(\.url) == [featureHeader])

        let diff = GuardWriter.diff(featurePlan, relativeTo: root)
        #expect(diff.hasPrefix("--- a/Feature/Generated/FeatureVersion.h\n+++ b/Feature/Generated/FeatureVersion.h\n@@ "))
        #expect(diff.contains("\n-/* Core 1.0.1 */\n+/* Core 1.0.2 */\n"))
        #expect(diff.contains("\n+#if !defined(CoreModuleVersionNumber) || CoreModuleVersionNumber != 1000002 || !defined(CoreModuleVersion_1_0_2)\n"))
        #expect(try modificationDate(featureHeader) == old, "planning and diffing must not write")

        #expect(try GuardWriter.apply(featurePlan).count == 1)
        #expect(try modificationDate(featureHeader) != old)
        #expect(try GuardWriter.plan(feature102, moduleDirectory: feature, languages: [.c]).isUpToDate)
        #expect(try !GuardWriter.plan(feature102, moduleDirectory: feature).isUpToDate, "the Swift file is still stale")
    }

    @Test func dryRunOfAMissingFileShowsItWhole() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = GuardSpec(name: "Core", version: version("1.0.1"))
        let plan = try GuardWriter.plan(spec, moduleDirectory: root, languages: [.swift])
        let diff = GuardWriter.diff(plan, relativeTo: root)
        let lines = GuardGenerator.swift(for: spec).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(diff == "--- /dev/null\n+++ b/Generated/CoreVersion.swift\n@@ -0,0 +1,\(lines.count) @@\n" + lines.map { "+\($0)\n" }.joined())
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Generated").path))
    }

    @Test func generatedDirIsConfigurableWithModulePlaceholder() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = GuardSpec(name: "Core", version: version("1.0.1"))
        try writeGuard(spec, in: root, generatedDir: "Sources/{module}/Guard", languages: [.swift])
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/Core/Guard/CoreVersion.swift").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/Core/Guard/CoreVersion.h").path))
    }

    @Test func unreadableGuardPathIsAnErrorNotAnOverwrite() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Generated/CoreVersion.h"), withIntermediateDirectories: true)
        #expect(throws: GuardReadError.self) {
            try GuardWriter.plan(GuardSpec(name: "Core", version: version("1.0.1")), moduleDirectory: root)
        }
    }

    @Test func unifiedDiffHunks() {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var newLines = (1...20).map { "line \($0)" }
        newLines[1] = "LINE 2"
        newLines.insert("inserted", at: 15)
        let new = newLines.joined(separator: "\n") + "\n"
        #expect(LineDiff.unified(old: old, new: new, oldPath: "a/f", newPath: "b/f") == """
            --- a/f
            +++ b/f
            @@ -1,5 +1,5 @@
             line 1
            -line 2
            +LINE 2
             line 3
             line 4
             line 5
            @@ -13,6 +13,7 @@
             line 13
             line 14
             line 15
            +inserted
             line 16
             line 17
             line 18

            """)
        #expect(LineDiff.unified(old: "a\n", new: "a\n", oldPath: "x", newPath: "y") == "")
        #expect(LineDiff.unified(old: "a", new: "a\n", oldPath: "x", newPath: "y") == "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n")
        #expect(LineDiff.unified(old: "a\nb\n", new: "a\n", oldPath: "x", newPath: "y") == "--- x\n+++ y\n@@ -1,2 +1 @@\n a\n-b\n")
    }
}
