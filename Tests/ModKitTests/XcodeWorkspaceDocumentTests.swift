import Foundation
import Testing
@testable import ModKit

/// The workspace `develop` writes lists what the user's workspace lists, resolved as Xcode resolves item locations.
@Suite struct XcodeWorkspaceDocumentTests {
    static let user = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace version = "1.0">
           <Group location = "group:Legacy" name = "Legacy">
              <FileRef location = "group:App.xcodeproj"></FileRef>
              <Group location = "group:Nested">
                 <FileRef location = "group:Tool.xcodeproj"></FileRef>
              </Group>
           </Group>
           <Group name = "No location">
              <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
           </Group>
           <FileRef location = "container:Shared/Kit.xcodeproj"></FileRef>
           <FileRef location = "absolute:/opt/Other.xcodeproj"></FileRef>
        </Workspace>
        """

    @Test func locationsAreResolvedThroughTheirGroups() throws {
        let items = try XMLTree.parse(Self.user).children
        #expect(XcodeWorkspaceDocument.folderPaths(of: items) == [
            "Legacy", "Legacy/App.xcodeproj", "Legacy/Nested", "Legacy/Nested/Tool.xcodeproj", "Pods/Pods.xcodeproj", "Shared/Kit.xcodeproj",
        ])
    }

    /// App.xcodeproj beside the workspace is not the Legacy/App.xcodeproj the user's workspace lists: it is added.
    @Test func aProjectListedOnlyInsideAGroupFolderIsStillAdded() throws {
        let items = try XMLTree.parse(Self.user).children
        let text = XcodeWorkspaceDocument.render(items: items, project: "App.xcodeproj", packages: ["group:../Modules/Core", "group:Pods/Pods.xcodeproj"])
        let written = try XMLTree.parse(text)
        let top = written.children.compactMap { $0["location"] }
        #expect(top.contains("group:App.xcodeproj"), "\(text)")
        #expect(top.contains("group:../Modules/Core"), "\(text)")
        #expect(!top.contains("group:Pods/Pods.xcodeproj"), "listed already, inside a Group without a location: \(text)")
        #expect(XcodeWorkspaceDocument.folderPaths(of: written.children).isSuperset(of: XcodeWorkspaceDocument.folderPaths(of: items)))
    }
}
