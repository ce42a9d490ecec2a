import Foundation
import Testing
@testable import ModKit

/// A fresh directory under the system temp dir, removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.resolvingSymlinksInPath()
}

@Suite struct ManifestTests {
    func manifest(_ modulesYAML: String, urlBase: String? = nil) throws -> Manifest {
        let defaults = urlBase.map { "defaults:\n  url-base: \($0)\n" } ?? ""
        return try ManifestLoader.parse(text: "version: 1\n\(defaults)modules:\n\(modulesYAML)", file: URL(fileURLWithPath: "/w/modkit.yml"), displayPath: "modkit.yml")
    }

    @Test func urlsResolveAgainstURLBase() throws {
        let m = try manifest("""
          - {name: A, path: A, url: Core.git}
          - {name: B, path: B, url: ios/B.git}
          - {name: C, path: C, url: "https://other.example.com/C.git"}
          - {name: D, path: D, url: "git@github.com:org/D.git"}
          - {name: E, path: E, url: /srv/git/E.git}
          - {name: F, path: F, url: "file:///srv/git/F.git"}
          - {name: G, path: G, url: ../mirrors/G.git}
          - {name: H, path: H}

        """, urlBase: "ssh://git@git.example.com/ios/")
        #expect(m.modules.map { m.url(of: $0) } == [
            "ssh://git@git.example.com/ios/Core.git",
            "ssh://git@git.example.com/ios/ios/B.git",
            "https://other.example.com/C.git",
            "git@github.com:org/D.git",
            "/srv/git/E.git",
            "file:///srv/git/F.git",
            "/mirrors/G.git",
            nil,
        ])
        let scp = try manifest("  - {name: A, path: A, url: Core.git}\n", urlBase: "git@host:team")
        #expect(scp.url(of: scp.modules[0]) == "git@host:team/Core.git")
        let none = try manifest("  - {name: A, path: A, url: Core.git}\n")
        #expect(none.url(of: none.modules[0]) == "/w/Core.git")
    }

    @Test func urlClassification() {
        #expect(ModuleURL.classify("https://h/x.git") == .remote)
        #expect(ModuleURL.classify("file:///x") == .remote)
        #expect(ModuleURL.classify("git@h:x.git") == .scpLike)
        #expect(ModuleURL.classify("h:x.git") == .scpLike)
        #expect(ModuleURL.classify("/x") == .absolutePath)
        #expect(ModuleURL.classify("./x") == .relativePath)
        #expect(ModuleURL.classify("Core.git") == .relativeName)
        for bad in ["", "a b", "https://", "1http://x", "git@h:", "@h:x", ":x", "http:/x"] {
            if case .invalid = ModuleURL.classify(bad) {} else { Issue.record("'\(bad)' should be invalid") }
        }
    }

    @Test func selectByNamesAndGroups() throws {
        let m = try manifest("""
          - {name: Core, path: Core, groups: [core]}
          - {name: Net, path: Net, groups: [core, net]}
          - {name: UI, path: UI, groups: ui}
          - {name: App, path: App}

        """)
        #expect(try m.select([], groups: []).map(\.name) == ["Core", "Net", "UI", "App"])
        #expect(try m.select([], groups: ["core"]).map(\.name) == ["Core", "Net"])
        #expect(try m.select(["App", "Core"], groups: []).map(\.name) == ["Core", "App"])
        #expect(try m.select(["App"], groups: ["ui"]).map(\.name) == ["UI", "App"])
        do {
            _ = try m.select(["Cor"], groups: ["uii"])
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["no module named 'Cor' (did you mean 'Core'?)", "no module is in group 'uii' (did you mean 'ui'?)"])
        }
    }

    @Test func selectByPathsCommaGroupsAndExclusions() throws {
        let m = try manifest("""
          - {name: Core, path: Libs/Core, groups: [core]}
          - {name: Net, path: Libs/Net, groups: [core, net]}
          - {name: Plugin, path: Plugins/Auth, groups: [net]}
          - {name: UI, path: UI, groups: ui}
          - {name: App, path: App, groups: [prebuilts]}

        """)
        let root = m.root
        // Paths: relative to the working directory, or to the workspace root; inside a module; '.'.
        #expect(try m.select(["Libs/Core"], groups: []).map(\.name) == ["Core"])
        #expect(try m.select(["Libs/Core/Sources/Core.swift"], groups: []).map(\.name) == ["Core"])
        #expect(try m.select(["."], groups: [], from: root.appendingPathComponent("Libs/Net/Sources")).map(\.name) == ["Net"])
        #expect(try m.select(["."], groups: [], from: root.appendingPathComponent("Plugins/Auth/x")).map(\.name) == ["Plugin"])
        #expect(try m.select(["../UI"], groups: [], from: root.appendingPathComponent("App")).map(\.name) == ["UI"])
        #expect(try m.select(["Core", "UI"], groups: [], from: root.appendingPathComponent("Libs")).map(\.name) == ["Core", "UI"])
        // Groups: comma lists, exclusions, all.
        #expect(try m.select([], groups: ["core,ui"]).map(\.name) == ["Core", "Net", "UI"])
        #expect(try m.select([], groups: ["core", "-net"]).map(\.name) == ["Core"])
        #expect(try m.select([], groups: ["-prebuilts"]).map(\.name) == ["Core", "Net", "Plugin", "UI"])
        #expect(try m.select([], groups: ["all,-net"]).map(\.name) == ["Core", "UI", "App"])
        #expect(try m.select(["App"], groups: ["-prebuilts"]).map(\.name) == ["App"])
        do {
            _ = try m.select(["Libs/Cor"], groups: ["-nett"])
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["no module named 'Libs/Cor'", "no module is in group 'nett' (did you mean 'net'?)"])
        }
    }

    @Test func discoveryWalksUpAndLoadReadsTheFile() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let nested = root.appendingPathComponent("Libs/Core/Sources", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        #expect(ManifestLoader.discover(from: nested) == nil || ManifestLoader.discover(from: nested)?.path.hasPrefix(root.path) == false)
        let file = root.appendingPathComponent("modkit.yml")
        try Data("version: 1\nmodules:\n  - {name: Core, path: Libs/Core}\n".utf8).write(to: file)
        #expect(ManifestLoader.discover(from: nested)?.path == file.path)
        #expect(ManifestLoader.discover(from: root)?.path == file.path)

        let manifest = try ManifestLoader.load(file: try #require(ManifestLoader.discover(from: nested)), displayPath: "modkit.yml")
        #expect(manifest.workspace == root.lastPathComponent)
        #expect(manifest.root.path == root.path)
        #expect(manifest.directory(of: manifest.modules[0]).path == nested.deletingLastPathComponent().path)

        do {
            _ = try ManifestLoader.load(file: root.appendingPathComponent("missing.yml"), displayPath: "missing.yml")
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics[0].message == "missing.yml does not exist")
        }
    }

    @Test func didYouMeanAndIdentifiers() {
        #expect(DidYouMean.suggestion(for: "revison", among: ["name", "revision", "version"]) == "revision")
        #expect(DidYouMean.suggestion(for: "pth", among: ["path", "url"]) == "path")
        #expect(DidYouMean.suggestion(for: "colour", among: ["version", "modules"]) == nil)
        #expect(DidYouMean.editDistance("teh", "the") == 1)
        #expect(Identifier.isValid("_Core2") && !Identifier.isValid("2Core") && !Identifier.isValid("my-mod") && !Identifier.isValid(""))
        #expect(RelativePath.normalize("Libs/./Core/") == .success("Libs/Core"))
        #expect(RelativePath.normalize("a/../../b") == .failure(.escapes))
        #expect(RelativePath.normalize("/a") == .failure(.absolute))
    }

    @Test func pathInsideAnother() {
        #expect(RelativePath.isInside("Libs/Core", "Libs"))
        #expect(RelativePath.isInside("Libs", "Libs"))
        #expect(RelativePath.isInside("Libs/Core/Sub", "Libs/Core"))
        #expect(RelativePath.isInside("anything", ""), "the workspace root contains every path")
        #expect(!RelativePath.isInside("LibsExtra/Core", "Libs"), "a shared name prefix is not nesting")
        #expect(!RelativePath.isInside("Libs", "Libs/Core"))
        #expect(!RelativePath.isInside("", "Libs"))
        #expect(RelativePath.isInside("Modulé/Ünïcode", "Modulé"))
        #expect(!RelativePath.isInside("Modulés", "Modulé"))
    }

    @Test func atomicWriteReplacesContentsAndKeepsTheMode() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("script.sh")
        try Data("old".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: file.path)
        try AtomicFile.write(Data("new contents".utf8), to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "new contents")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o750)
        try AtomicFile.write(Data("fresh".utf8), to: dir.appendingPathComponent("new.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["new.txt", "script.sh"])
        #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.write(Data(), to: dir.appendingPathComponent("no/such/dir/file"))
        }
    }

    /// A write killed before its rename leaves `.NAME.modkit-PID-RANDOM` beside the file: the next write of that file removes
    /// it when its process is gone, and leaves one whose process still runs (pid 1) and other files' temporaries alone.
    @Test func atomicWriteRemovesTheTemporaryOfAKilledWriter() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/sh")
        dead.arguments = ["-c", "exit 0"]
        try dead.run()
        dead.waitUntilExit()
        let abandoned = ".Core.podspec.modkit-\(dead.processIdentifier)-12345"
        let running = ".Core.podspec.modkit-1-12345"
        let other = ".Other.podspec.modkit-\(dead.processIdentifier)-12345"
        for name in [abandoned, running, other] { try Data("half".utf8).write(to: dir.appendingPathComponent(name)) }
        try AtomicFile.write(Data("whole".utf8), to: dir.appendingPathComponent("Core.podspec"))
        #expect(try String(contentsOf: dir.appendingPathComponent("Core.podspec"), encoding: .utf8) == "whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [other, running, "Core.podspec"].sorted())
    }
}
