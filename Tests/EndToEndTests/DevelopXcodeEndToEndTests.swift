import Foundation
import Testing

/// `modkit develop` on Xcode consumers, run as the binary: a project that uses a developed module as a remote Swift
/// package gets `<Name>.modkit-develop.xcworkspace` beside it (the user's workspace items, the project, the checkouts),
/// Python's XML parser reads it, and `--off` removes exactly it.
@Suite struct DevelopXcodeEndToEndTests {
    static let userWorkspace = """
    <?xml version="1.0" encoding="UTF-8"?>
    <Workspace
       version = "1.0">
       <FileRef
          location = "group:App.xcodeproj">
       </FileRef>
       <FileRef
          location = "group:Pods/Pods.xcodeproj">
       </FileRef>
       <Group
          location = "container:"
          name = "Docs &amp; &quot;Notes&quot;">
          <FileRef
             location = "group:../docs/README.md">
          </FileRef>
       </Group>
    </Workspace>

    """

    static let resolved = """
    {
      "originHash" : "3c1f0e",
      "pins" : [
        { "identity" : "core", "kind" : "remoteSourceControl", "location" : "https://github.com/example/Core.git",
          "state" : { "revision" : "0123456789abcdef0123456789abcdef01234567", "version" : "1.0.0" } },
        { "identity" : "feature", "kind" : "remoteSourceControl", "location" : "https://github.com/example/Feature",
          "state" : { "revision" : "89abcdef0123456789abcdef0123456789abcdef", "version" : "1.1.0" } }
      ],
      "version" : 3
    }

    """

    /// `kind outcome path` of each change a `--json` run reports.
    static func changes(_ result: ProcessResult) -> [String]? {
        let json = try? JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        return (json?["changes"] as? [[String: Any]])?.map { "\($0["kind"] ?? "") \($0["outcome"] ?? "") \($0["path"] ?? "")" }
    }

    /// Core and Feature are Swift packages; the App repository's `ios/App.xcodeproj` uses Feature and swift-collections,
    /// beside a CocoaPods workspace whose Package.resolved also pins Core (as Xcode pins a transitive package); a tracked `Pods/Pods.xcodeproj` and an untracked project also name Core; at the
    /// workspace root, `Shell.xcodeproj` names Core only in its Package.resolved.
    private func makeXcodeWorkspace(_ sandbox: Sandbox) throws {
        try sandbox.write("""
        version: 1
        workspace: Xcode
        modules:
          - name: Core
            url: https://github.com/example/Core.git
            path: Modules/Core
          - name: Feature
            url: git@github.com:example/Feature.git
            path: Modules/Feature
          - name: App
            url: https://github.com/example/App.git
            path: Apps/App

        """, to: "ws/modkit.yml")
        try sandbox.write("// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(name: \"Core\", targets: [.target(name: \"Core\")])\n",
                          to: "ws/Modules/Core/Package.swift")
        try sandbox.write("// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(name: \"Feature\", targets: [.target(name: \"Feature\")])\n",
                          to: "ws/Modules/Feature/Package.swift")
        try sandbox.write(Sandbox.pbxproj(app: "App", remotes: [("https://github.com/example/Feature", "Feature"),
                                                                ("https://github.com/apple/swift-collections.git", "Collections")]),
                          to: "ws/Apps/App/ios/App.xcodeproj/project.pbxproj")
        try sandbox.write(Self.userWorkspace, to: "ws/Apps/App/ios/App.xcworkspace/contents.xcworkspacedata")
        try sandbox.write(Self.resolved, to: "ws/Apps/App/ios/App.xcworkspace/xcshareddata/swiftpm/Package.resolved")
        try sandbox.write(Sandbox.pbxproj(app: "Pods", remotes: [("https://github.com/example/Core.git", "Core")]),
                          to: "ws/Apps/App/ios/Pods/Pods.xcodeproj/project.pbxproj")
        try sandbox.write("# App\n", to: "ws/Apps/App/docs/README.md")
        try sandbox.git("init", "-q", "-b", "main", in: "ws/Apps/App")
        try sandbox.git("add", "-A", in: "ws/Apps/App")
        try sandbox.git("commit", "-qm", "the app", in: "ws/Apps/App")
        try sandbox.write(Sandbox.pbxproj(app: "Scratch", remotes: [("https://github.com/example/Core.git", "Core")]),
                          to: "ws/Apps/App/ios/Scratch/Scratch.xcodeproj/project.pbxproj")   // untracked, not at a root
        try sandbox.write(Sandbox.pbxproj(app: "Shell", remotes: []), to: "ws/Shell.xcodeproj/project.pbxproj")
        try sandbox.write(Self.resolved.replacingOccurrences(of: "https://github.com/example/Feature", with: "https://github.com/example/Other"),
                          to: "ws/Shell.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
    }

    @Test func aWorkspaceBesideTheProjectAddsTheCheckoutsAndOffRemovesIt() throws {
        let sandbox = try Sandbox()
        try makeXcodeWorkspace(sandbox)
        let before = sandbox.tree("ws")
        let appStatus = try sandbox.git("status", "--porcelain", "--untracked-files=all", in: "ws/Apps/App")
        let app = "ws/Apps/App/ios/App.modkit-develop.xcworkspace"
        let shell = "ws/Shell.modkit-develop.xcworkspace"

        // Core reaches the app through its workspace's Package.resolved: the app's workspace lists it beside every item of the user's.
        let develop = try sandbox.modkit("develop", "Core", in: "ws")
        #expect(develop.status == 0, "\(develop)")
        #expect(develop.out.contains("wrote Apps/App/ios/App.modkit-develop.xcworkspace") && develop.out.contains("wrote Shell.modkit-develop.xcworkspace"), "\(develop.out)")
        #expect(develop.err.contains("open Apps/App/ios/App.modkit-develop.xcworkspace"), "\(develop.err)")
        let again = try sandbox.modkit("develop", "Core", "--json", in: "ws")
        #expect(again.status == 0)
        #expect(Self.changes(again) == [], "running it again changes nothing: \(again.out)")
        #expect(try sandbox.workspaceFileRefs("\(app)/contents.xcworkspacedata")
                == ["group:App.xcodeproj", "group:Pods/Pods.xcodeproj", "Docs & \"Notes\"/group:../docs/README.md", "group:../../../Modules/Core"])
        #expect(try sandbox.workspaceFileRefs("\(shell)/contents.xcworkspacedata") == ["group:Shell.xcodeproj", "group:Modules/Core"])
        // The group: paths lead from the workspace's folder to the checkout, where Xcode finds Package.swift.
        let core = sandbox.url("ws/Apps/App/ios").appendingPathComponent("../../../Modules/Core/Package.swift").standardizedFileURL.path
        #expect(core == sandbox.url("ws/Modules/Core/Package.swift").path && FileManager.default.fileExists(atPath: core))
        // CocoaPods' own project and a project git does not track are no consumers.
        for ignored in ["ws/Apps/App/ios/Pods/Pods.modkit-develop.xcworkspace", "ws/Apps/App/ios/Scratch/Scratch.modkit-develop.xcworkspace"] {
            #expect(!FileManager.default.fileExists(atPath: sandbox.url(ignored).path), "\(ignored)")
        }
        #expect(sandbox.bytes("ws/Apps/App/ios/App.xcworkspace/contents.xcworkspacedata") == Data(Self.userWorkspace.utf8), "the user's workspace is untouched")

        // A second module joins the same workspace; the list, status and their JSON name it.
        let feature = try sandbox.modkit("develop", "Feature", "--json", in: "ws")
        #expect(Self.changes(feature) == ["xcworkspace updated Apps/App/ios/App.modkit-develop.xcworkspace"], "\(feature)")
        #expect(try sandbox.workspaceFileRefs("\(app)/contents.xcworkspacedata").suffix(2) == ["group:../../../Modules/Core", "group:../../../Modules/Feature"])
        #expect(try sandbox.workspaceFileRefs("\(shell)/contents.xcworkspacedata") == ["group:Shell.xcodeproj", "group:Modules/Core"], "Shell does not use Feature")
        let list = try sandbox.modkit("develop", "--json", in: "ws")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let overrides = try #require(json["overrides"] as? [[String: Any]])
        #expect(overrides.map { $0["xcodeWorkspaces"] as? [String] } == [["Apps/App/ios/App.modkit-develop.xcworkspace", "Shell.modkit-develop.xcworkspace"],
                                                                         ["Apps/App/ios/App.modkit-develop.xcworkspace"]], "\(list.out)")
        #expect(overrides.allSatisfy { ($0["files"] as? [String]) == [] })
        let status = try sandbox.modkit("status", "--json", in: "ws")
        let statusJSON = try #require(try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any])
        #expect(statusJSON["xcodeWorkspaces"] as? [String] == ["Apps/App/ios/App.modkit-develop.xcworkspace", "Shell.modkit-develop.xcworkspace"], "\(status.out)")
        #expect(try sandbox.modkit("status", in: "ws").err.contains("in Xcode open Apps/App/ios/App.modkit-develop.xcworkspace"))

        // Off for Core only: Shell's workspace goes, the app's keeps Feature.
        let offCore = try sandbox.modkit("develop", "--off", "Core", in: "ws")
        #expect(offCore.status == 0 && offCore.out.contains("removed Shell.modkit-develop.xcworkspace"), "\(offCore)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url(shell).path))
        #expect(try sandbox.workspaceFileRefs("\(app)/contents.xcworkspacedata").last == "group:../../../Modules/Feature")

        // Off: the workspace is gone, every other file holds its bytes, git sees what it saw before.
        let off = try sandbox.modkit("develop", "--off", "--json", in: "ws")
        #expect(off.status == 0, "\(off)")
        let offJSON = try #require(try JSONSerialization.jsonObject(with: Data(off.out.utf8)) as? [String: Any])
        #expect(offJSON["off"] as? Bool == true)
        #expect(Self.changes(off) == ["xcworkspace deleted Apps/App/ios/App.modkit-develop.xcworkspace"], "\(off.out)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url(app).path))
        #expect(sandbox.tree("ws") == before)
        #expect(try sandbox.git("status", "--porcelain", "--untracked-files=all", in: "ws/Apps/App") == appStatus)
    }

    @Test func aWorkspaceReachedThroughASymlinkFindsTheTrackedProjects() throws {
        // libgit2 names a work tree with symlinks resolved (/tmp is /private/tmp on macOS); the consumers are found all the same.
        let sandbox = try Sandbox()
        try makeXcodeWorkspace(sandbox)
        try FileManager.default.createSymbolicLink(atPath: sandbox.url("link").path, withDestinationPath: sandbox.url("ws").path)
        let develop = try sandbox.modkit("-C", "link", "develop", "Feature")
        #expect(develop.status == 0 && develop.out.contains("wrote Apps/App/ios/App.modkit-develop.xcworkspace"), "\(develop)")
        #expect(try sandbox.workspaceFileRefs("ws/Apps/App/ios/App.modkit-develop.xcworkspace/contents.xcworkspacedata").last == "group:../../../Modules/Feature")
        #expect(try sandbox.modkit("-C", "link", "develop", "--off").status == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Apps/App/ios/App.modkit-develop.xcworkspace").path))
    }

    @Test func aCheckoutFolderNamedUnlikeThePackageIsNamedInAWarning() throws {
        // Xcode replaces a remote package by a local one of the same identity, which for a folder is its name.
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nworkspace: X\nmodules:\n  - name: Core\n    url: https://github.com/example/core-ios.git\n    path: Modules/CoreKit\n",
                          to: "ws/modkit.yml")
        try sandbox.write("// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(name: \"Core\")\n", to: "ws/Modules/CoreKit/Package.swift")
        try sandbox.write(Sandbox.pbxproj(app: "Shell", remotes: [("https://github.com/example/core-ios", "Core")]), to: "ws/Shell.xcodeproj/project.pbxproj")
        let develop = try sandbox.modkit("develop", "Core", in: "ws")
        #expect(develop.status == 0 && develop.out.contains("wrote Shell.modkit-develop.xcworkspace"), "\(develop)")
        #expect(develop.err.contains("warning: Xcode takes Modules/CoreKit for the package 'corekit', not 'core-ios'"), "\(develop.err)")
        #expect(try sandbox.modkit("develop", "--off", in: "ws").status == 0)
    }

    @Test func theWorkspaceIsModkitsButWhatOthersPutInItStays() throws {
        let sandbox = try Sandbox()
        try makeXcodeWorkspace(sandbox)
        let app = "ws/Apps/App/ios/App.modkit-develop.xcworkspace"
        let develop = try sandbox.modkit("develop", "Core", "--json", in: "ws")
        #expect(Self.changes(develop) == ["xcworkspace created Apps/App/ios/App.modkit-develop.xcworkspace",
                                          "xcworkspace created Shell.modkit-develop.xcworkspace"], "\(develop)")
        let written = try #require(sandbox.bytes("\(app)/contents.xcworkspacedata"))

        // Changed by hand (or by Xcode): --off refuses and keeps it.
        try sandbox.writeBytes(written + Data("<!-- mine -->\n".utf8), to: "\(app)/contents.xcworkspacedata")
        let refused = try sandbox.modkit("develop", "--off", in: "ws")
        #expect(refused.status == 1 && refused.err.contains("App.modkit-develop.xcworkspace/contents.xcworkspacedata changed since 'modkit develop' wrote it"), "\(refused)")
        #expect(refused.err.contains("delete the .modkit-develop.xcworkspace folder"), "\(refused.err)")
        #expect(sandbox.bytes("\(app)/contents.xcworkspacedata") == written + Data("<!-- mine -->\n".utf8))

        // Put back, then opened in Xcode (which keeps its per-user state inside): --off removes its file, keeps the folder.
        try sandbox.writeBytes(written, to: "\(app)/contents.xcworkspacedata")
        try sandbox.write("state", to: "\(app)/xcuserdata/me.xcuserdatad/UserInterfaceState.xcuserstate")
        let off = try sandbox.modkit("develop", "--off", in: "ws")
        #expect(off.status == 0 && off.err.contains("kept the folder Apps/App/ios/App.modkit-develop.xcworkspace"), "\(off)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("\(app)/contents.xcworkspacedata").path))
        #expect(try sandbox.read("\(app)/xcuserdata/me.xcuserdatad/UserInterfaceState.xcuserstate") == "state")

        // A file of that name that modkit did not write is kept byte for byte and given back by --off.
        let theirs = Data("<?xml version=\"1.0\"?>\r\n<Workspace version = \"1.0\"></Workspace>".utf8)
        try sandbox.writeBytes(theirs, to: "\(app)/contents.xcworkspacedata")
        #expect(try sandbox.modkit("develop", "Core", in: "ws").status == 0)
        #expect(try sandbox.workspaceFileRefs("\(app)/contents.xcworkspacedata").last == "group:../../../Modules/Core")
        #expect(try sandbox.modkit("develop", "--off", in: "ws").status == 0)
        #expect(sandbox.bytes("\(app)/contents.xcworkspacedata") == theirs)
        try FileManager.default.removeItem(at: sandbox.url("\(app)/contents.xcworkspacedata"))

        // A workspace that does not read stops develop with its line and column, and nothing is written.
        try sandbox.write("<Workspace version = \"1.0\">\n   <FileRef location = \"group:App.xcodeproj\">\n</Workspace>\n",
                          to: "ws/Apps/App/ios/App.xcworkspace/contents.xcworkspacedata")
        let broken = try sandbox.modkit("develop", "Core", in: "ws")
        #expect(broken.status == 2 && broken.err.contains("Apps/App/ios/App.xcworkspace/contents.xcworkspacedata:3:"), "\(broken)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("\(app)/contents.xcworkspacedata").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Shell.modkit-develop.xcworkspace").path))
    }
}
