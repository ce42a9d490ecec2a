import Foundation
import Testing
@testable import ModKit

/// Module paths looked at on disk: real directories pass, any symbolic link on the way is refused with why.
@Suite struct ContainedPathTests {
    @Test func realDirectoriesAbsentPathsAndAFinalFilePass() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Libs/Core"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("Libs/file"))
        for path in ["Libs/Core", "Libs/Core/Deeper/Still", "New/Module", "Libs/file"] {
            #expect(ContainedPath.problem(path, in: root) == nil, "\(path)")
        }
        #expect(ContainedPath.problem("Libs/file/Inner", in: root)?.message == "module path 'Libs/file/Inner' lies under 'Libs/file', which is a file, not a directory")
    }

    @Test func everyLinkOnThePathIsRefusedSayingWhereItLeads() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Libs"), withIntermediateDirectories: true)
        let links = ["Up": "..", "Abs": "/tmp", "Gone": "nowhere", "Here": "Libs", "Libs/Self": "."]
        for (link, target) in links {
            try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(link).path, withDestinationPath: target)
        }
        #expect(ContainedPath.problem("Up/Net", in: root)?.message == "module path 'Up/Net' lies under 'Up', a symbolic link to '..', which leads outside the workspace")
        #expect(ContainedPath.problem("Abs/Net", in: root)?.message == "module path 'Abs/Net' lies under 'Abs', a symbolic link to '/tmp', which leads outside the workspace")
        #expect(ContainedPath.problem("Gone/Net", in: root)?.message == "module path 'Gone/Net' lies under 'Gone', a symbolic link to 'nowhere', which does not exist")
        #expect(ContainedPath.problem("Here", in: root)?.message == "module path 'Here' is a symbolic link to 'Libs'")
        #expect(ContainedPath.problem("Libs/Self/Net", in: root)?.message == "module path 'Libs/Self/Net' lies under 'Libs/Self', a symbolic link to '.'")
    }
}
