import Foundation
import GitKit
import Testing
@testable import ModKit

/// repo manifests as they are found in the wild: deep, self-including, repeatedly included, huge, and `.repo` checkouts.
@Suite struct ImportRepoRobustnessTests {
    func importRepo(_ files: [String: String], main: String, in temp: URL) throws(ManifestError) -> ImportResult {
        for (name, text) in files {
            let file = temp.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? text.write(to: file, atomically: true, encoding: .utf8)
        }
        return try ManifestImporter.read(temp.appendingPathComponent(main), displayPath: main, workspaceRoot: temp, exact: false)
    }

    static let remote = #"<remote name="o" fetch="file:///srv/git"/><default remote="o" revision="main"/>"#

    @Test func anElementTreeFiftyThousandDeepIsFreedWithoutOverflowingTheStack() throws {
        let depth = 50_000
        let text = "<manifest>" + String(repeating: "<project name=\"p\">", count: depth) + String(repeating: "</project>", count: depth) + "</manifest>"
        var root: XMLElementNode? = try XMLTree.parse(text)
        var levels = 0
        var node = root
        while let current = node, let child = current.children.first {
            levels += 1
            node = child
        }
        #expect(levels == depth)
        node = nil
        root = nil  // the deinit loop, not recursion, frees the tree
        #expect(root == nil)
        // Unclosed, the error names the innermost open element and nothing overflows either.
        let unclosed = "<manifest>" + String(repeating: "<a>", count: depth)
        #expect(throws: XMLTree.SyntaxError.self) { try XMLTree.parse(unclosed) }
    }

    @Test func aFileThatIncludesItselfIsAnError() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        do {
            _ = try importRepo(["default.xml": "<manifest>\(Self.remote)<project name=\"a\"/><include name=\"default.xml\"/></manifest>"], main: "default.xml", in: temp)
            Issue.record("a self-include must fail")
        } catch {
            #expect(error.diagnostics.first?.description.hasPrefix("default.xml:1:") == true)
            #expect(error.diagnostics.first?.message == "<include name=\"default.xml\"> includes itself")
        }
        do {
            _ = try importRepo(["a.xml": "<manifest>\(Self.remote)<include name=\"b.xml\"/></manifest>",
                                "b.xml": "<manifest>\n<project name=\"x\"/>\n<include name=\"a.xml\"/></manifest>"], main: "a.xml", in: temp)
            Issue.record("a cycle must fail")
        } catch {
            #expect(error.diagnostics.first?.message == "<include name=\"a.xml\"> includes itself through the files that include it")
            #expect(error.diagnostics.first?.location?.file == "b.xml" && error.diagnostics.first?.location?.line == 3)
        }
    }

    @Test func aChainThatIncludesTwiceAtEveryLevelIsReadOnceEach() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let levels = 24  // 2^24 expansions without the memo
        var files = ["l0.xml": "<manifest>\(Self.remote)<include name=\"l1.xml\"/><include name=\"l1.xml\"/></manifest>"]
        for level in 1..<levels {
            files["l\(level).xml"] = "<manifest><project name=\"p\(level)\"/><include name=\"l\(level + 1).xml\"/><include name=\"l\(level + 1).xml\"/></manifest>"
        }
        files["l\(levels).xml"] = "<manifest><project name=\"last\"/></manifest>"
        let start = Date()
        let result = try importRepo(files, main: "l0.xml", in: temp)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(result.modules.count == levels)
        #expect(result.warnings.filter { $0.message.contains("again; its elements count once") }.count == levels)
    }

    @Test func oneCharacterFileNameWithAnInclude() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let result = try importRepo(["a": "<manifest>\(Self.remote)<include name=\"b\"/></manifest>", "b": "<manifest><project name=\"p\"/></manifest>"],
                                    main: "a", in: temp)
        #expect(result.modules.map(\.url) == ["file:///srv/git/p"])
        #expect(DisplayPath.parent(of: "a") == "" && DisplayPath.parent(of: "/a") == "/" && DisplayPath.parent(of: "x/y/a") == "x/y")
    }

    @Test func aFileThatDeclaresNoProjectIsAnError() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        do {
            _ = try importRepo(["only.xml": "<manifest>\(Self.remote)<extend-project name=\"x\" groups=\"g\"/></manifest>"], main: "only.xml", in: temp)
            Issue.record("an extend-only file must fail")
        } catch {
            #expect(error.diagnostics.first?.message == "only.xml declares no <project>")
        }
    }

    @Test func aThousandProjectsWithEightHundredRemovalsImportToTheTwoHundredLeft() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        var main = "<manifest>\n\(Self.remote)\n"
        for index in 0..<1_000 { main += "  <project name=\"platform/group\(index % 37)/project\(index)\" path=\"tree/\(index % 37)/p\(index)\" groups=\"pdk\"/>\n" }
        main += "  <include name=\"local.xml\"/>\n</manifest>\n"
        var local = "<manifest>\n"
        for index in stride(from: 0, to: 1_000, by: 1).filter({ $0 % 5 != 0 }) { local += "  <remove-project name=\"platform/group\(index % 37)/project\(index)\"/>\n" }
        local += "</manifest>\n"
        let start = Date()
        let result = try importRepo(["default.xml": main, "local.xml": local], main: "default.xml", in: temp)
        let seconds = Date().timeIntervalSince(start)
        print("import of 1,000 projects with 800 remove-project: \(String(format: "%.3f", seconds)) s")
        #expect(result.modules.count == 200)
    }

    @Test func projectsNestedInProjectsJoinNamesAndPaths() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let result = try importRepo(["default.xml": """
            <manifest>\(Self.remote)
              <project name="tools/bsim" path="tools/bsim" groups="babblesim">
                <project name="components" path="components"/>
              </project>
              <project name="tools/bsim-ext" path="tools/bsim/components/ext" clone-depth="1"/>
            </manifest>
            """], main: "default.xml", in: temp)
        #expect(result.modules.map(\.path) == ["tools/bsim", "tools/bsim/components", "tools/bsim/components/ext"])
        #expect(result.modules.map(\.sourceName) == ["tools/bsim", "tools/bsim/components", "tools/bsim-ext"])
        #expect(result.modules[1].groups == ["babblesim"])
        #expect(result.modules[2].depth == 1)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func relativeFetchAgainstAnSCPLikeOriginResolvesAsRepoDoes() throws {
        #expect(RelativeURL.resolveRepo("..", against: "git@github.com:LineageOS/android") == "ssh://git@github.com")
        #expect(RelativeURL.resolveRepo(".", against: "git@github.com:LineageOS/android.git") == "ssh://git@github.com/LineageOS")
        #expect(RelativeURL.resolveRepo("../mirror", against: "https://host/a/manifest") == "https://host/mirror")
        // Dot segments of the origin go as in a url join (Python's urljoin, which repo uses).
        #expect(RelativeURL.resolveRepo("..", against: "me@host:../srv/git/platform/manifest.git") == "ssh://me@host/srv/git")
        #expect(RelativeURL.resolveRepo("./x", against: "ssh://host/a/./b/../c/manifest") == "ssh://host/a/c/x")
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let manifests = temp.appendingPathComponent("manifests")
        let repository = try Repository.create(at: manifests.path)
        try repository.addRemote("origin", url: "git@github.com:LineageOS/android")
        let result = try importRepo(["manifests/default.xml": """
            <manifest><remote name="github" fetch=".."/><default remote="github" revision="lineage-21.0"/>
            <project name="LineageOS/android_build" path="build/make"/></manifest>
            """], main: "manifests/default.xml", in: temp)
        #expect(result.modules.first?.url == "ssh://git@github.com/LineageOS/android_build")
    }

    @Test func tagRevisionsKeepRefsTagsAndNotdefaultBecomesTheDefaultSelection() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let result = try importRepo(["default.xml": """
            <manifest>\(Self.remote)
              <project name="platform/external/zlib" path="external/zlib" revision="refs/tags/android-14.0.0_r1"/>
              <project name="platform/prebuilts/clang" path="prebuilts/clang" groups="notdefault,pdk"/>
              <project name="platform/build" path="build/make" revision="refs/heads/main"/>
            </manifest>
            """], main: "default.xml", in: temp)
        #expect(result.modules.map(\.revision) == ["refs/tags/android-14.0.0_r1", "main", "main"])
        #expect(result.defaultGroups == ["-notdefault"])
        let text = ManifestWriter.render(workspace: "W", imported: result)
        let manifest = try ManifestLoader.parse(text: text, file: temp.appendingPathComponent("modkit.yml"), displayPath: "modkit.yml")
        #expect(manifest.inDefaultGroups(manifest.modules).map(\.name) == ["zlib", "build"])
        #expect(manifest.modules.map(\.project) == ["platform/external/zlib", "platform/prebuilts/clang", "platform/build"])
        let export = try ManifestExporter.export(manifest, modules: manifest.modules, format: .repo, exact: false)
        #expect(export.text.contains(#"<project name="platform/external/zlib" path="external/zlib" revision="refs/tags/android-14.0.0_r1""#), "\(export.text)")
        #expect(export.text.contains(#"<remote name="origin" fetch="file:///srv/git"/>"#), "one remote, as in the source: \(export.text)")
    }

    @Test func warningsOfOneKindAreCountedOnce() {
        let warnings = (1...5).map { Diagnostic(severity: .warning, message: "<copyfile src=\"f\($0)\"> of project 'p\($0)' is not carried over",
                                                 location: SourceLocation(file: "d.xml", line: $0, column: 1)) }
            + [Diagnostic(severity: .warning, message: "attribute sync-j=\"4\" of <default> is not carried over")]
        let report = warnings.report(colored: false)
        #expect(report.components(separatedBy: "warning:").count == 3, "\(report)")
        #expect(report.contains("— and 4 more like this (d.xml:2, d.xml:3, d.xml:4, …; -v lists all)"), "\(report)")
        #expect(warnings.report(colored: false, foldingWarnings: false).components(separatedBy: "warning:").count == 7)
        #expect(WarningKinds.kind(of: "repo's project 'a' is odd") == WarningKinds.kind(of: "repo's project 'b' is odd"))
    }

    @Test func anIncludeOutsideTheManifestsDirectoryIsRefusedWithoutReadingIt() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        try "secret-line: do not echo\n".write(to: temp.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: temp.appendingPathComponent("m"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temp.appendingPathComponent("m/link.xml").path, withDestinationPath: "../secret.txt")
        for name in ["/etc/passwd", "../secret.txt", "link.xml", temp.appendingPathComponent("secret.txt").path] {
            do {
                _ = try importRepo(["m/default.xml": "<manifest>\(Self.remote)\n<include name=\"\(name)\"/></manifest>"], main: "m/default.xml", in: temp)
                Issue.record("\(name): an include outside must fail")
            } catch {
                let text = error.description
                #expect(error.diagnostics.first?.message.hasPrefix("<include name=\"\(name)\"> names a file outside") == true, "\(text)")
                #expect(error.diagnostics.first?.location?.line == 2, "\(text)")
                #expect(!text.contains("secret-line") && !text.contains("root:"), "\(text)")
            }
        }
    }

    // MARK: A file of .repo/manifests imported on its own

    /// The `.repo` checkout the local-manifest tests import from: `.repo/manifest.xml` includes `default.xml`, and two
    /// local manifests add a project and remove one.
    static let checkout = [
        ".repo/manifest.xml": "<manifest><include name=\"default.xml\"/></manifest>\n",
        ".repo/manifests/default.xml": "<manifest>\(remote)\n<project name=\"a\"/>\n<project name=\"b\"><copyfile src=\"x\" dest=\"y\"/></project>\n</manifest>\n",
        ".repo/local_manifests/extra.xml": "<manifest><project name=\"c\"/></manifest>\n",
        ".repo/local_manifests/remove.xml": "<manifest><remove-project name=\"a\"/></manifest>\n",
    ]

    @Test func aManifestsFileImportedDirectlyNamesTheLocalManifestsItLeavesOut() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let direct = try importRepo(Self.checkout, main: ".repo/manifests/default.xml", in: temp)
        let leftOut = direct.warnings.filter { $0.message.contains("imported on its own") }
        #expect(leftOut.map(\.description) == ["""
            warning: .repo/manifests/default.xml is imported on its own: the local manifests .repo/local_manifests/extra.xml, \
            .repo/local_manifests/remove.xml are not merged with it
            hint: repo merges local manifests with .repo/manifest.xml; to include them, import that file or the checkout folder (.)
            """])
        #expect(direct.mergedFiles.isEmpty)
        #expect(direct.baseDirectory == nil)

        // Nothing else changes: the same import without the local manifests differs by that warning only.
        try FileManager.default.removeItem(at: temp.appendingPathComponent(".repo/local_manifests"))
        let alone = try importRepo([:], main: ".repo/manifests/default.xml", in: temp)
        #expect(alone.modules == direct.modules && alone.modules.map(\.name) == ["a", "b"])
        #expect(alone.warnings == direct.warnings.filter { !leftOut.contains($0) } && alone.warnings.count == 1, "the copyfile warning stays")
        #expect(alone.defaultRevision == direct.defaultRevision && alone.urlBase == direct.urlBase && alone.defaultGroups == direct.defaultGroups)
    }

    @Test func theCheckoutMergesTheLocalManifestsAndOneLeftOutIsNamedAlone() throws {
        let temp = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let merged = try importRepo(Self.checkout, main: ".repo/manifest.xml", in: temp)
        #expect(merged.mergedFiles == [".repo/local_manifests/extra.xml", ".repo/local_manifests/remove.xml"])
        #expect(merged.modules.map(\.name) == ["b", "c"])
        #expect(!merged.warnings.contains { $0.message.contains("imported on its own") })

        try FileManager.default.removeItem(at: temp.appendingPathComponent(".repo/local_manifests/remove.xml"))
        let direct = try importRepo([:], main: ".repo/manifests/default.xml", in: temp)
        #expect(direct.warnings.filter { $0.message.contains("imported on its own") }.map(\.description) == ["""
            warning: .repo/manifests/default.xml is imported on its own: the local manifest .repo/local_manifests/extra.xml is not merged with it
            hint: repo merges local manifests with .repo/manifest.xml; to include it, import that file or the checkout folder (.)
            """])
        // Named from inside .repo/manifests, the file's path does not show .repo: the checkout is named in full.
        let manifests = temp.appendingPathComponent(".repo/manifests")
        let inside = try ManifestImporter.read(manifests.appendingPathComponent("default.xml"), displayPath: "default.xml", workspaceRoot: manifests, exact: false)
        let repo = temp.appendingPathComponent(".repo").path
        let insideLeftOut = inside.warnings.first { $0.message.contains("imported on its own") }
        #expect(insideLeftOut?.message == "default.xml is imported on its own: the local manifest \(repo)/local_manifests/extra.xml is not merged with it")
        #expect(insideLeftOut?.hint?.hasSuffix("import that file or the checkout folder (\(temp.path))") == true, "\(inside.warnings)")
    }
}
