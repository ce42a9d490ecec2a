import Testing
@testable import SpecKit

/// Cartfile lines and podspec.json dependencies.
@Suite struct CartfileAndJSONReaderTests {
    @Test func classifiesCartfileLines() throws {
        let cartfile = """
        # comment "github "x/Y""
        github "acme/Core" ~> 1.0
        github "acme/Net" >= 2.0 # min
        github "acme/Log" == 0.9.0
        github "acme/Dev" "develop"
        github "acme/Sha" "0123456789abcdef0123456789abcdef01234567"
        github "acme/Bare"
        git "https://git.example.com/ios/Git.git" ~> 1.0
        binary "https://example.com/Bin.json" ~> 1.0
        """
        let requirements = try SpecReader.read(cartfile, kind: .cartfile)
        #expect(requirements.map(\.name) == ["acme/Core", "acme/Net", "acme/Log", "acme/Dev", "acme/Sha", "acme/Bare",
                                             "https://git.example.com/ios/Git.git", "https://example.com/Bin.json"])
        #expect(requirements.map(\.origin) == [.github, .github, .github, .github, .github, .github, .git, .binary])
        #expect(requirements.map(\.constraint) == [
            .range("~> 1.0"), .range(">= 2.0"), .exact("0.9.0"), .branch("develop"),
            .revision("0123456789abcdef0123456789abcdef01234567"), .unconstrained, .range("~> 1.0"), .range("~> 1.0"),
        ])
        #expect(requirements.map(\.isPinned) == [false, false, true, false, true, false, false, false])
        #expect(requirements.map(\.span.line) == Array(2...9))
        #expect(requirements[1].rawText == ">= 2.0")
        #expect(requirements.map(\.identity) == ["core", "net", "log", "dev", "sha", "bare", "git", "bin"])
    }

    @Test func readsPodspecJSONContexts() throws {
        let json = """
        {
          "name": "P",
          "dependencies": { "Core": [], "Net": ["~> 2.0"] },
          "osx": { "dependencies": { "Mac": ["1.0"] } },
          "subspecs": [ { "name": "UI", "dependencies": { "Views": [">= 1", "< 2"] },
                          "subspecs": [ { "name": "Deep", "dependencies": { "Deep": [] } } ] } ],
          "testspecs": [ { "name": "Tests", "dependencies": { "Quick": [] } } ],
          "appspecs": [ { "name": "Demo", "dependencies": { "Demo": [42] } } ]
        }
        """
        let requirements = try SpecReader.read(json, kind: .podspecJSON)
        #expect(requirements.map(\.name) == ["Core", "Net", "Mac", "Views", "Deep", "Quick", "Demo"])
        #expect(requirements.map(\.constraint) == [.unconstrained, .range("~> 2.0"), .exact("1.0"), .range(">= 1, < 2"),
                                                   .unconstrained, .unconstrained, .range("42")])
        #expect(requirements.map(\.span.line) == [3, 3, 4, 5, 6, 7, 8])
        #expect(requirements[2].context.platform == "osx")
        #expect(requirements[3].context == RequirementContext(block: .subspec, specName: "UI"))
        #expect(requirements[4].context == RequirementContext(block: .subspec, specName: "UI/Deep"))
        #expect(requirements[5].context == RequirementContext(block: .testSpec, specName: "Tests"))
        #expect(requirements[6].rewritable == false)
    }

    @Test func invalidJSONThrowsWithPosition() {
        #expect(throws: SpecReadError(line: 2, column: 10, message: "expected ':'")) {
            try SpecReader.read("{\n  \"deps\" [] }", kind: .podspecJSON)
        }
    }

    @Test func recognisesFileNames() {
        #expect(SpecFileKind(fileName: "Core.podspec") == .podspec)
        #expect(SpecFileKind(fileName: "path/to/Core.podspec.json") == .podspecJSON)
        #expect(SpecFileKind(fileName: "Podfile") == .podfile)
        #expect(SpecFileKind(fileName: "Package.swift") == .packageSwift)
        #expect(SpecFileKind(fileName: "Package@swift-5.9.swift") == .packageSwift)
        #expect(SpecFileKind(fileName: "Cartfile.private") == .cartfile)
        #expect(SpecFileKind(fileName: "Cartfile.resolved") == nil)
        #expect(SpecFileKind(fileName: "Podfile.lock") == nil)
    }
}
