import Testing
@testable import SpecKit

/// Different spellings of one repository URL compare equal after canonicalisation.
@Suite struct RepositoryURLTests {
    @Test(arguments: [
        "https://git.example.com/ios/Core.git",
        "https://git.example.com/ios/Core",
        "https://git.example.com/ios/Core/",
        "HTTPS://Git.Example.COM/ios/Core.git",
        "git@git.example.com:ios/Core",
        "git@git.example.com:ios/Core.git",
        "ssh://git@git.example.com/ios/Core.git",
        "ssh://git@git.example.com:2222/ios/Core.git",
        "https://user:secret@git.example.com/ios/Core.git",
        "git.example.com:ios/Core.git",
    ])
    func spellingsOfOneRepositoryAreEqual(url: String) {
        #expect(canonicalRepositoryURL(url) == "git.example.com/ios/Core")
    }

    @Test func pathCaseIsKeptAndOtherRepositoriesDiffer() {
        #expect(canonicalRepositoryURL("https://git.example.com/ios/core.git") == "git.example.com/ios/core")
        #expect(canonicalRepositoryURL("https://git.example.com/android/Core.git") != canonicalRepositoryURL("https://git.example.com/ios/Core.git"))
    }

    @Test func localPathsKeepTheirShape() {
        #expect(canonicalRepositoryURL("file:///tmp/repos/Core.git") == "/tmp/repos/Core")
        #expect(canonicalRepositoryURL("/tmp/repos/Core/") == "/tmp/repos/Core")
        #expect(canonicalRepositoryURL("../Core") == "../Core")
    }

    @Test func identitiesFollowSwiftPM() {
        #expect(packageIdentity(forLocation: "https://git.example.com/ios/Core.git") == "core")
        #expect(packageIdentity(forLocation: "git@git.example.com:Core.git") == "core")
        #expect(packageIdentity(forLocation: "../Local") == "local")
    }
}
