import Foundation
import Testing

/// Untrusted input, second round, against the built binary: byte order marks read as if absent, control characters in paths
/// refused before anything is written, and paths that would leave the workspace through a symbolic link refused.
@Suite struct UntrustedInputEndToEndTests {
    static let bom = "\u{FEFF}"

    /// Every entry below `directory` (relative paths, sorted; modkit's own `.modkit/.gitignore` and lock left out), to show that a
    /// refused command created nothing there.
    func listing(_ directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var entries: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            if !["/.modkit", ".modkit/.gitignore", ".modkit/lock"].contains(where: { entry.hasSuffix($0) }) { entries.append(entry) }
        }
        return entries.sorted()
    }

    @Test func aManifestWithAByteOrderMarkIsReadAndItsErrorsKeepTheirPositions() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Self.bom + "version: 1\nworkspace: W\nmodules:\n  - name: Core\n    path: Libs/Core\n", to: "ws/modkit.yml")
        let list = try sandbox.modkit("list", "-q", in: "ws")
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out == "Core\n")

        let new = try sandbox.modkit("new", "Io", "--dir", "--path", "Libs/Io", in: "ws")
        #expect(new.status == 0, "\(new.err)")
        #expect(try Data(contentsOf: sandbox.url("ws/modkit.yml")) == Data((Self.bom + "version: 1\nworkspace: W\nmodules:\n  - name: Core\n    path: Libs/Core\n"
            + "  - name: Io\n    path: Libs/Io\n").utf8), "new keeps the byte order mark")

        try sandbox.write(Self.bom + "version: 1\nmodules:\n  - name: Core\n    path: ../Core\n", to: "ws/modkit.yml")
        let bad = try sandbox.modkit("list", in: "ws")
        #expect(bad.status == 2)
        #expect(bad.err.contains("modkit.yml:4:11: error: module path '../Core' escapes the workspace"), "\(bad.err)")
    }

    @Test func aLockFileWithAByteOrderMarkResolvesAndOneThatCannotBeReadIsNamed() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules:\n  - name: App\n    path: App\n", to: "ws/modkit.yml")
        try sandbox.write("1.0.0\n", to: "ws/App/VERSION")
        try sandbox.write(Self.bom + "target 'App' do\n  pod 'Alamofire', '~> 5.0'\nend\n", to: "ws/App/Podfile")
        try sandbox.write(Self.bom + "PODS:\r\n  - Alamofire (5.8.1)\r\n\r\nCOCOAPODS: 1.15.2\r\n", to: "ws/App/Podfile.lock")
        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1)
        #expect(check.out == "App/Podfile:2: 'Alamofire' is loose ('~> 5.0'); pin: 5.8.1\n", "\(check.out)\(check.err)")

        let pin = try sandbox.modkit("pin", in: "ws")
        #expect(pin.status == 0, "\(pin.err)")
        // Read as bytes: Foundation's UTF-8 decoding drops a byte order mark.
        #expect(try Data(contentsOf: sandbox.url("ws/App/Podfile")) == Data((Self.bom + "target 'App' do\n  pod 'Alamofire', '5.8.1'\nend\n").utf8))

        try FileManager.default.removeItem(at: sandbox.url("ws/App/Podfile.lock"))
        try FileManager.default.createDirectory(at: sandbox.url("ws/App/Podfile.lock"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.url("ws/Cartfile.resolved").path, withDestinationPath: "gone")
        let unreadable = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(unreadable.status == 1)
        #expect(unreadable.err.contains("App/Podfile.lock:1:1: cannot read the file: it is a directory"), "\(unreadable.err)")
        #expect(unreadable.err.contains("ws/Cartfile.resolved:1:1: cannot read the file: it is a symbolic link to nothing"), "\(unreadable.err)")
        #expect(unreadable.err.components(separatedBy: "Cartfile.resolved").count == 2, "named once: \(unreadable.err)")
    }

    @Test func controlCharactersInAModulePathAreRefusedBeforeAnythingIsWritten() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        let url = "file://\(sandbox.url("remotes/Core.git").path)"
        for (written, shown) in [("Libs/Core\\0x", "Libs/Core\\x00x"), ("Libs/\\tCore", "Libs/\\tCore"), ("Libs/Core\\x7F", "Libs/Core\\x7F"),
                                 ("Libs/Co\\x1Bre", "Libs/Co\\x1Bre")] {
            let text = "version: 1\nmodules:\n  - name: Core\n    url: \(url)\n    path: \"\(written)\"\n"
            try sandbox.write(text, to: "ws/modkit.yml")
            let before = listing(sandbox.root)
            let sync = try sandbox.modkit("sync", in: "ws")
            #expect(sync.status == 2, "\(written): \(sync.out)\(sync.err)")
            #expect(sync.err.contains("modkit.yml:5:11: error: module path \"\(shown)\" holds the control character U+00"), "\(sync.err)")
            #expect(listing(sandbox.root) == before, "\(written): nothing was written")
        }
    }

    @Test func controlCharactersInASnapshotAreRefusedBeforeAnythingIsCloned() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.write("version: 1\nmodules:\n  - name: Core\n    path: Libs/Core\n", to: "ws/modkit.yml")
        try sandbox.write("1.0.0\n", to: "ws/Libs/Core/VERSION")
        try sandbox.git("init", "-q", "-b", "main", "ws")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "Product", in: "ws")
        let commit = String(repeating: "ab", count: 20)
        try sandbox.commitSnapshot("""
        snapshot: v9
        modules:
          Core: { url: "file://\(sandbox.url("remotes/Core.git").path)", path: "Libs/Net\\0", commit: \(commit) }

        """)
        let before = listing(sandbox.root)
        let checkout = try sandbox.modkit("checkout", "v9", in: "ws")
        #expect(checkout.status == 2, "\(checkout.out)\(checkout.err)")
        #expect(checkout.err.contains("v9:.modkit/snapshots/v9.yml:3:"), "\(checkout.err)")
        #expect(checkout.err.contains("module path \"Libs/Net\\x00\" holds the control character U+0000 (NUL)"), "\(checkout.err)")
        #expect(listing(sandbox.root) == before)
    }

    /// A manifest repository `ws` with one repository module Net at `Vendor/Net` (remote `remotes/Net.git`), whose `Vendor` is a link to `target`.
    func workspaceWithLink(to target: String, in sandbox: Sandbox) throws {
        if !FileManager.default.fileExists(atPath: sandbox.url("remotes/Net.git").path) { try sandbox.makeRemote("Net") }
        try sandbox.write("version: 1\nmodules:\n  - name: Net\n    url: file://\(sandbox.url("remotes/Net.git").path)\n    path: Vendor/Net\n", to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "-b", "main", "ws")
        try FileManager.default.createSymbolicLink(atPath: sandbox.url("ws/Vendor").path, withDestinationPath: target)
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "Product", in: "ws")
    }

    @Test func noCommandWritesOrRunsThroughALinkOutOfTheWorkspace() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.url("outside/Net"), withIntermediateDirectories: true)
        for target in ["..", sandbox.url("outside").path] {
            try? FileManager.default.removeItem(at: sandbox.url("ws"))
            try workspaceWithLink(to: target, in: sandbox)
            for command in [["sync"], ["forall", "-c", "touch ran"], ["guard"], ["start", "topic"], ["pin"], ["tag", "v1"], ["release", "r1", "--yes"]] {
                let before = listing(sandbox.root)
                let result = try sandbox.run(Sandbox.modkitBinary.path, command, in: sandbox.url("ws"))
                #expect(result.status == 2, "\(command) \(target): \(result.out)\(result.err)")
                #expect(result.err.contains("modkit.yml:5:11: error: module path 'Vendor/Net' lies under 'Vendor', a symbolic link to '\(target)', which leads outside the workspace"),
                        "\(command): \(result.err)")
                #expect(listing(sandbox.root) == before, "\(command) \(target) wrote nothing")
            }
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("outside/Net/ran").path))
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("Net").path))
        }
    }

    @Test func aLinkInsideTheWorkspaceOrToNothingIsRefusedWithAClearError() throws {
        let sandbox = try Sandbox()
        try workspaceWithLink(to: "gone", in: sandbox)
        let dangling = try sandbox.modkit("sync", in: "ws")
        #expect(dangling.status == 2)
        #expect(dangling.err.contains("modkit.yml:5:11: error: module path 'Vendor/Net' lies under 'Vendor', a symbolic link to 'gone', which does not exist"), "\(dangling.err)")
        #expect(!dangling.err.contains("NSCocoaErrorDomain"))

        try FileManager.default.removeItem(at: sandbox.url("ws/Vendor"))
        try FileManager.default.createDirectory(at: sandbox.url("ws/.git/hooks/Net"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.url("ws/Vendor").path, withDestinationPath: ".git/hooks")
        let inside = try sandbox.modkit("forall", "-c", "touch ran", in: "ws")
        #expect(inside.status == 2)
        #expect(inside.err.contains("modkit.yml:5:11: error: module path 'Vendor/Net' lies under 'Vendor', a symbolic link to '.git/hooks'\n"), "\(inside.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.git/hooks/Net/ran").path))

        let new = try sandbox.modkit("new", "Io", "--dir", "--path", "Vendor/Io", in: "ws")
        #expect(new.status == 2, "\(new.out)\(new.err)")
        #expect(new.err.contains("module path 'Vendor/Io' lies under 'Vendor', a symbolic link to '.git/hooks'"), "\(new.err)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.git/hooks/Io").path))
    }

    @Test func guardRefusesAGeneratedFolderThatIsALinkOut() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.url("outside"), withIntermediateDirectories: true)
        try sandbox.write("version: 1\nmodules:\n  - name: Core\n    path: Libs/Core\n", to: "ws/modkit.yml")
        try sandbox.write("1.0.0\n", to: "ws/Libs/Core/VERSION")
        try FileManager.default.createSymbolicLink(atPath: sandbox.url("ws/Libs/Core/Generated").path, withDestinationPath: sandbox.url("outside").path)
        let result = try sandbox.modkit("guard", in: "ws")
        #expect(result.status == 2, "\(result.out)\(result.err)")
        #expect(result.err.contains("modkit.yml:4:11: error: module path 'Libs/Core/Generated' is a symbolic link to '\(sandbox.url("outside").path)', which leads outside the workspace"),
                "\(result.err)")
        #expect(listing(sandbox.url("outside")).isEmpty)
    }

    @Test func aSnapshotPathThroughALinkIsRefusedBeforeAnythingIsCloned() throws {
        let sandbox = try Sandbox()
        try workspaceWithLink(to: "..", in: sandbox)
        try sandbox.commitSnapshot("""
        snapshot: v9
        modules:
          Net: { url: "file://\(sandbox.url("remotes/Net.git").path)", path: Vendor/Net, commit: \(String(repeating: "ab", count: 20)) }

        """)
        let before = listing(sandbox.root)
        let checkout = try sandbox.modkit("checkout", "v9", in: "ws")
        #expect(checkout.status == 2, "\(checkout.out)\(checkout.err)")
        #expect(checkout.err.contains("v9:.modkit/snapshots/v9.yml:3:\(32 + sandbox.url("remotes/Net.git").path.count): error: module path 'Vendor/Net' lies under 'Vendor', a symbolic link to '..', which leads outside the workspace"),
                "\(checkout.err)")
        #expect(listing(sandbox.root) == before)
    }

    @Test func startRefusesANameGitRefusesForABranch() throws {
        let sandbox = try Sandbox()
        try sandbox.makeRemote("Core")
        try sandbox.write("version: 1\nmodules:\n  - name: Core\n    url: file://\(sandbox.url("remotes/Core.git").path)\n    path: Core\n", to: "ws/modkit.yml")
        #expect(try sandbox.modkit("sync", in: "ws").status == 0)
        for name in ["/etc", "a..b", "topic/", "a b", "x\u{7}y", "HEAD", "a@{1}"] {
            let result = try sandbox.modkit("start", name, in: "ws")
            #expect(result.status == 2, "\(name): \(result.out)\(result.err)")
            #expect(result.err.contains("is not a valid branch name"), "\(name): \(result.err)")
        }
        #expect(try sandbox.git("branch", "--format=%(refname)", in: "ws/Core") == "refs/heads/main")
        let valid = try sandbox.modkit("start", "feature/etc", in: "ws")
        #expect(valid.status == 0, "\(valid.err)")
        #expect(try sandbox.git("branch", "--show-current", in: "ws/Core") == "feature/etc")
    }

    @Test func pinDryRunWithNothingToPinSaysSo() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules:\n  - name: App\n    path: App\n", to: "ws/modkit.yml")
        try sandbox.write("target 'App' do\n  pod 'Alamofire', '5.8.1'\nend\n", to: "ws/App/Podfile")
        let dryRun = try sandbox.modkit("pin", "--dry-run", in: "ws")
        #expect(dryRun.status == 0, "\(dryRun.err)")
        #expect(dryRun.out.isEmpty)
        #expect(dryRun.err == "every requirement is already pinned\n")
        let pin = try sandbox.modkit("pin", in: "ws")
        #expect(pin.out == "every requirement is already pinned\n")
    }
}
