import Testing
@testable import SpecKit

/// Bytes in, bytes out: declarations read from any encoding and line ending, and the small rules pin relies on.
@Suite struct SpecBytesTests {
    @Test func versionsAreReadFromCRLFLatin1AndBOMPodspecs() throws {
        let crlf = Array("Pod::Spec.new do |s|\r\n  s.name = 'Core'\r\n  s.version = '1.2.3'\r\nend\r\n".utf8)
        let latin = Array("# encoding: ISO-8859-1\nPod::Spec.new do |s|\n  s.authors = 'Jos".utf8) + [0xE9] + Array("'\n  s.version = \"2.0.0\"\nend\n".utf8)
        let bom = [0xEF, 0xBB, 0xBF] + Array("Pod::Spec.new do |spec|\n  spec.version = %q{3.1.0} # released\nend\n".utf8)
        for (bytes, version, line) in [(crlf, "1.2.3", 3), (latin, "2.0.0", 4), (bom, "3.1.0", 2)] {
            let declared = try #require(try SpecReader.declaration(bytes, kind: .podspec)?.version)
            #expect(declared.literal == version && declared.span.line == line)
            let range = try #require(declared.contentRange)
            let bumped = try TextEdit.apply([TextEdit(range: range, replacement: "9.9.9")], to: bytes)
            #expect(bumped.count == bytes.count + 5 - version.utf8.count)
            #expect(try SpecReader.declaration(bumped, kind: .podspec)?.version?.literal == "9.9.9")
        }
        let computed = try SpecReader.declaration(Array("Pod::Spec.new do |s|\n  s.version = File.read('VERSION').strip\nend\n".utf8), kind: .podspec)
        #expect(computed?.version?.literal == nil && computed?.version?.expression == "File.read('VERSION').strip")
        let json = try SpecReader.declaration(Array("\u{FEFF}{\r\n  \"name\": \"Net\",\r\n  \"version\": \"4.0.0\"\r\n}\r\n".utf8), kind: .podspecJSON)
        #expect(json?.name?.literal == "Net" && json?.version?.literal == "4.0.0" && json?.version?.span.line == 3)
    }

    @Test func cartfileTagsAreWrittenAsVersionsOrRefused() throws {
        let requirement = try #require(try SpecReader.read("github \"Moya/Moya\" ~> 15.0\n", kind: .cartfile).first)
        #expect(try requirement.writableVersion("v15.0.3").get() == "15.0.3")
        #expect(try requirement.writableVersion("15.0.3").get() == "15.0.3")
        #expect((try? requirement.writableVersion("nightly-2024").get()) == nil)
        let plan = try SpecRewriter.plan("github \"Moya/Moya\" ~> 15.0\n", pins: [PinRequest(requirement: requirement, version: "v15.0.3")])
        #expect(plan.newText == "github \"Moya/Moya\" == 15.0.3\n")
    }

    @Test func rangesTellWhetherAPinFallsInside() throws {
        func first(_ text: String, _ kind: SpecFileKind) throws -> Requirement { try #require(try SpecReader.read(text, kind: kind).first) }
        let pessimistic = try first("s.dependency 'FirebaseCore', '~> 12.19.0'\n", .podspec)
        #expect(pessimistic.admits("12.19.4") == true && pessimistic.admits("12.6.0") == false && pessimistic.admits("12.20.0") == false)
        let pair = try first("pod 'GTM', '>= 3.4', '< 6.0'\n", .podfile)
        #expect(pair.admits("3.5.0") == true && pair.admits("6.0.0") == false)
        let from = try first("let p = Package(dependencies: [.package(url: \"https://x/a.git\", from: \"1.5.0\")])\n", .packageSwift)
        #expect(from.admits("1.9.0") == true && from.admits("2.0.0") == false && from.admits("1.4.0") == false)
    }

    @Test func lockstepInterpolationsOfTheSpecsOwnVersionAreRecognised() throws {
        let text = "Pod::Spec.new do |s|\n  s.dependency 'A', \"#{s.version}\"\n  s.dependency 'B', s.version.to_s\n  s.dependency 'C', \"~> #{s.version}\"\n  s.dependency 'D', other_version\nend\n"
        let own = try SpecReader.read(text, kind: .podspec).map(\.isOwnVersion)
        #expect(own == [true, true, false, false])
    }

    @Test func aRequirementOverSeveralLinesIsAtItsFirstLine() throws {
        let text = "Pod::Spec.new do |s|\n  s.dependency 'GTM',\n    '>= 3.4',\n    '< 6.0'\nend\n"
        let requirement = try #require(try SpecReader.read(text, kind: .podspec).first)
        #expect(requirement.span.line == 3)
        #expect(requirement.isIgnored(in: Array(text.replacingOccurrences(of: "'< 6.0'", with: "'< 6.0' # modkit: ignore").utf8)))
        #expect(!requirement.isIgnored(in: Array(text.utf8)))
    }

    @Test func ignoreCommentsAreFoundOnceAndSilenceEveryRequirementOfTheirLine() throws {
        let line = (0..<300).map { "s.dependency 'D\($0)', '~> 1.0'" }.joined(separator: "; ")
        let text = "Pod::Spec.new do |s| \(line) # modkit: ignore\n s.dependency 'Next'\n s.dependency 'Tagged', '#1 modkit: ignore'\nend\n"
        let requirements = try SpecReader.read(text, kind: .podspec)
        let comments = IgnoreComments(Array(text.utf8), fileKind: .podspec)
        #expect(requirements.count == 302)
        #expect(requirements.prefix(300).allSatisfy(comments.silence))
        #expect(!comments.silence(requirements[300]), "the comment is on the line before")
        // A marker inside a string before the words counts, as it always did: the line is read as text.
        #expect(comments.silence(requirements[301]))
        #expect(requirements.map { $0.isIgnored(in: Array(text.utf8)) } == requirements.map(comments.silence))
        let swift = "let p = Package(dependencies: [.package(url: \"git@e.com:a.git\", from: \"1.0.0\") /* # modkit: ignore */])\n"
        let package = try #require(try SpecReader.read(swift, kind: .packageSwift).first)
        #expect(!IgnoreComments(Array(swift.utf8), fileKind: .packageSwift).silence(package), "Swift needs //")
    }

    @Test func manyEditsOnOneLineAreAppliedInOnePass() throws {
        let text = (0..<2000).map { "pod 'P\($0)', '~> 1.0'" }.joined(separator: "; ")
        let requirements = try SpecReader.read(text, kind: .podfile)
        let plan = try SpecRewriter.plan(text, pins: requirements.enumerated().map { PinRequest(requirement: $1, version: "1.0.\($0)") })
        #expect(plan.newText == (0..<2000).map { "pod 'P\($0)', '1.0.\($0)'" }.joined(separator: "; "))
        #expect(throws: TextEditError.self) { try TextEdit.apply([TextEdit(range: 0..<3, replacement: "a"), TextEdit(range: 2..<4, replacement: "b")], to: "abcdef") }
        #expect(try TextEdit.apply([TextEdit(range: 6..<6, replacement: "!"), TextEdit(range: 0..<1, replacement: "A")], to: "abcdef") == "Abcdef!")
    }

    @Test func lockFileLookupsFindTheFirstEntryOfEachKey() throws {
        let pins = (0..<3).map { #"{"identity": "dep\#($0)", "location": "https://example.com/org/Dep\#($0).git", "state": {"version": "1.0.\#($0)"}}"# }
        let resolved = try ResolvedVersions.packageResolved(#"{"pins": [\#(pins.joined(separator: ", ")), {"identity": "dep1", "location": "https://other.com/Dep1", "state": {"version": "9.9.9"}}], "version": 2}"#)
        #expect(resolved.packageVersion(identity: "DEP1") == "1.0.1")
        #expect(resolved.packageVersion(url: "git@example.com:org/Dep2.git") == "1.0.2")
        #expect(resolved.packageVersion(url: "https://other.com/Dep1.git") == "9.9.9")
        let carthage = ResolvedVersions.cartfileResolved("github \"a/Net\" \"1.0\"\ngithub \"b/Net\" \"2.0\"\ngithub \"c/Core\" \"3.0\"\n")
        #expect(carthage.carthageVersion(named: "b/Net") == "2.0")
        #expect(carthage.carthageVersion(named: "https://github.com/c/Core.git") == nil || carthage.carthageVersion(named: "https://github.com/c/Core.git") == "3.0")
        #expect(carthage.carthageVersion(named: "x/Core") == "3.0", "one entry of that repository name")
        #expect(carthage.carthageVersion(named: "x/Net") == nil, "two entries of that name: no guess")
        let merged = carthage.merging(ResolvedVersions.cartfileResolved("github \"a/Net\" \"1.5\"\n"))
        #expect(merged.carthage.map(\.version) == ["1.5", "2.0", "3.0"])
        #expect(merged.carthageVersion(named: "a/Net") == "1.5")
        #expect(ResolvedVersions.podfileLock("PODS:\n  - FirebaseCore (10.0.0)\n").podVersion(named: "firebasecore/Logger") == "10.0.0")
    }

    @Test func podfileLockCheckoutOptionsGiveGitCommits() {
        let lock = "PODS:\n  - SDWebImage (5.19.0)\n\nCHECKOUT OPTIONS:\n  SDWebImage:\n    :commit: 0123456789abcdef0123456789abcdef01234567\n    :git: https://github.com/SDWebImage/SDWebImage.git\n\nCOCOAPODS: 1.16.2\n"
        let resolved = ResolvedVersions.podfileLock(lock)
        #expect(resolved.podCommits == ["SDWebImage": "0123456789abcdef0123456789abcdef01234567"])
        #expect(resolved.pods["SDWebImage"] == "5.19.0")
    }
}
