import Foundation
import Testing
@testable import ModKit

/// Conventional Commits, version increments and changelog sections, without repositories.
@Suite struct ReleasePlanningTests {
    @Test func conventionalCommitsGiveTheIncrement() {
        #expect(ConventionalCommit(message: "fix: a crash").increment == .patch)
        #expect(ConventionalCommit(message: "feat(upload): resume").increment == .minor)
        #expect(ConventionalCommit(message: "feat!: drop iOS 12").increment == .major)
        #expect(ConventionalCommit(message: "refactor(core)!: new API").group == .breaking)
        #expect(ConventionalCommit(message: "fix: x\n\nBREAKING CHANGE: the region is required").increment == .major)
        #expect(ConventionalCommit(message: "Update the read-me").increment == .patch)
        #expect(ConventionalCommit(message: "Update: the read-me").type == "update")
        #expect(ConventionalCommit(message: "Merge branch 'x' into main").type == nil)
        #expect(ConventionalCommit(message: "fix(upload): retry on 503").description == "retry on 503")
        #expect(ConventionalCommit(message: "chore: x").group == .other)
    }

    @Test func incrementsFollowSemverAndTheZeroMajorRule() throws {
        func next(_ version: String, _ increment: VersionIncrement, pre: String? = nil) throws -> String {
            increment.next(after: try #require(SemanticVersion(version)), pre: pre).description
        }
        #expect(try next("1.0.1", .patch) == "1.0.2")
        #expect(try next("5.3.0", .minor) == "5.4.0")
        #expect(try next("5.3.2", .major) == "6.0.0")
        #expect(try next("0.4.3", .major) == "0.5.0", "below 1.0.0 a breaking change bumps the minor")
        #expect(try next("0.4.3", .minor) == "0.5.0")
        #expect(try next("1.2.0", .minor, pre: "beta") == "1.3.0-beta.1")
        #expect(try next("1.3.0-beta.1", .patch, pre: "beta") == "1.3.0-beta.2")
        #expect(try next("1.3.0-beta.2", .minor) == "1.3.0", "a pre-release is released as itself")
        #expect(try next("1.3.0-beta.2", .patch, pre: "rc") == "1.3.0-rc.1")
    }

    @Test func requestArgumentsAreOverridesOrModuleNames() throws {
        let request = try ReleasePlan.Request.parse(["Core=1.0.2", "COSXML=minor", "FaceInUI"], bump: "patch", pre: "beta", groups: [])
        #expect(request.overrides == ["Core": "1.0.2", "COSXML": "minor"])
        #expect(request.modules == ["FaceInUI"] && request.bump == .patch && request.pre == "beta")
        #expect(throws: ModKitError.self) { try ReleasePlan.Request.parse(["Core=soon"], bump: nil, pre: nil, groups: []) }
        #expect(throws: ModKitError.self) { try ReleasePlan.Request.parse([], bump: "huge", pre: nil, groups: []) }
        #expect(throws: ModKitError.self) { try ReleasePlan.Request.parse([], bump: nil, pre: "beta.1", groups: []) }
    }

    @Test func changelogSectionsGroupByKindNewestFirst() {
        let body = Changelog.body(commits: [("feat!: drop iOS 12", "aaaaaaa"), ("fix: retry", "bbbbbbb"), ("feat: resume", "ccccccc"),
                                            ("Tidy up", "ddddddd")],
                                  link: "https://github.com/org/COSXML/compare/5.3.0...6.0.0")
        #expect(body == ["[Full list of commits](https://github.com/org/COSXML/compare/5.3.0...6.0.0)", "",
                         "### Breaking changes", "", "- Drop iOS 12 (aaaaaaa)", "",
                         "### Features", "", "- Resume (ccccccc)", "",
                         "### Fixes", "", "- Retry (bbbbbbb)", "",
                         "### Other", "", "- Tidy up (ddddddd)"])
        #expect(Changelog.body(commits: [], link: nil) == ["- No changes."])
    }

    @Test func compareLinksForKnownWebHostsOnly() {
        let cases: [(String, String?)] = [
            ("https://github.com/org/COSXML.git", "https://github.com/org/COSXML/compare/1.0.0...1.1.0"),
            ("git@github.com:org/COSXML.git", "https://github.com/org/COSXML/compare/1.0.0...1.1.0"),
            ("ssh://git@github.com:22/org/COSXML", "https://github.com/org/COSXML/compare/1.0.0...1.1.0"),
            ("https://user:token@gitlab.example.com/ios/sdk/COSXML.git", "https://gitlab.example.com/ios/sdk/COSXML/-/compare/1.0.0...1.1.0"),
            ("git@bitbucket.org:team/cosxml.git", "https://bitbucket.org/team/cosxml/branches/compare/1.1.0%0D1.0.0"),
            ("file:///srv/git/COSXML.git", nil),
            ("ssh://git@git.example.com/ios/COSXML.git", nil),
            ("/srv/git/COSXML.git", nil),
        ]
        for (remote, expected) in cases {
            #expect(Changelog.compareLink(remote: remote, from: "1.0.0", to: "1.1.0") == expected, "\(remote)")
        }
    }

    @Test func releaseCommitsAreRecognised() {
        #expect(ReleaseHistory.isReleaseCommit("Release Core 1.1.0\n\nModkit-Release: 2024.6\n"))
        #expect(ReleaseHistory.isReleaseCommit("Release Core 1.1.0"))
        #expect(ReleaseHistory.isReleaseCommit("Release 1.1.0\n\nModules: Core\n"))
        #expect(!ReleaseHistory.isReleaseCommit("Release notes for the upload API"))
        #expect(!ReleaseHistory.isReleaseCommit("fix: release the lock"))
    }
}

/// The manifest keys of releases: `publish:`, `release: branch:` and `release: publish:`, `{workspace}` in tag formats.
@Suite struct ReleaseManifestTests {
    func parse(_ text: String) throws -> Manifest {
        try ManifestLoader.parse(text: text, file: URL(fileURLWithPath: "/w/modkit.yml"), displayPath: "modkit.yml")
    }

    @Test func releaseKeysAndDefaults() throws {
        let manifest = try parse("""
        version: 1
        workspace: OneForAll
        release:
          branch: release/{snapshot}
          publish: pod trunk push
        modules:
          - name: Core
            url: Core.git
            path: Libs/Core
            publish: ./publish.sh
          - name: Net
            url: Net.git
            path: Libs/Net
        """)
        #expect(manifest.defaults.tagFormat == "{workspace}/{snapshot}" && manifest.defaults.versionTagFormat == "{version}")
        #expect(manifest.releaseBranch == "release/{snapshot}" && manifest.releaseSteps == nil)
        #expect(manifest.publishCommand(of: manifest.modules[0]) == "./publish.sh")
        #expect(manifest.publishCommand(of: manifest.modules[1]) == "pod trunk push")
        #expect(Snapshot.tagName(format: manifest.defaults.tagFormat, workspace: manifest.workspace, snapshot: "2024.6", module: "Core", version: "1.0.2") == "OneForAll/2024.6")
    }

    @Test func aBranchWithAnotherPlaceholderIsAnError() {
        #expect(throws: ManifestError.self) {
            try parse("version: 1\nrelease:\n  branch: release/{version}\nmodules: []\n")
        }
        #expect(throws: ManifestError.self) {
            try parse("version: 1\ndefaults:\n  tag-format: \"{workspce}/{snapshot}\"\nmodules: []\n")
        }
    }
}
