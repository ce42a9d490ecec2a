import Foundation
import Testing
@testable import SpecKit

/// The remote Swift packages of a project.pbxproj: found in Xcode's own layout and in odd spellings, and nothing read
/// from hostile input takes more than linear time or leaves the buffer.
@Suite struct XcodeProjectReaderTests {
    @Test func findsEveryRemotePackageReferenceAndNothingElse() {
        let text = """
        // !$*UTF8*$!
        {
        \tobjects = {
        /* Begin PBXProject section */
        \t\t8D00A6 /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tpackageReferences = ( 8D00A1 /* XCRemoteSwiftPackageReference "Core" */, 8D00A7 );
        \t\t};
        /* Begin XCRemoteSwiftPackageReference section */
        \t\t8D00A1 /* XCRemoteSwiftPackageReference "Core" */ = {
        \t\t\tisa = XCRemoteSwiftPackageReference;
        \t\t\trepositoryURL = "https://github.com/example/Core.git";
        \t\t\trequirement = { kind = upToNextMajorVersion; minimumVersion = 1.0.0; };
        \t\t};
        \t\t8D00A2 = {repositoryURL = git@github.com:example/Feature; requirement = {kind = branch; branch = main;}; isa = XCRemoteSwiftPackageReference;};
        \t\t8D00A3 = {isa = "XCRemoteSwiftPackageReference"; repositoryURL = "https://host/with \\"quote\\"/Pkg"; };
        \t\t8D00A4 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/example/Core.git"; };
        // 8D00A5 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/example/LineComment"; };
        /* 8D00A8 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/example/BlockComment"; }; */
        \t\t8D00A7 = {isa = XCLocalSwiftPackageReference; relativePath = "../Tools"; };
        \t\t8D00A9 = {isa = PBXFileReference; path = "repositoryURL"; repositoryURL = "https://github.com/example/NotAPackage"; };
        \t};
        }
        """
        #expect(XcodeProjectReader.remotePackageURLs(Array(text.utf8))
                == ["https://github.com/example/Core.git", "git@github.com:example/Feature", "https://host/with \"quote\"/Pkg"])
    }

    @Test func garbageAndTruncatedInputReadsWhatItCan() {
        let complete = "{ a = {isa = XCRemoteSwiftPackageReference; repositoryURL = \"https://x/A\";}; "
        for text in [complete, complete + "b = {isa = XCRemoteSwiftPackageReference; repositoryURL = \"https://x/B", complete + "/* open",
                     complete + "}}}}}} { { ;;; = = = <0a0b", complete + "b = <unterminated"] {
            #expect(XcodeProjectReader.remotePackageURLs(Array(text.utf8)) == ["https://x/A"], "\(text)")
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<512, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = XcodeProjectReader.remotePackageURLs(bytes)
        }
        #expect(XcodeProjectReader.remotePackageURLs([]) == [])
    }

    @Test func hostileInputIsReadInLinearTime() {
        let clock = ContinuousClock()
        let size = 1 << 20
        let inputs: [[UInt8]] = [
            Array(repeating: UInt8(ascii: "{"), count: size),
            Array(repeating: UInt8(ascii: "}"), count: size),
            [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "\\"), count: size),
            Array("/*".utf8) + Array(repeating: UInt8(ascii: "*"), count: size),
            Array(repeating: UInt8(ascii: "<"), count: size),
            Array(String(repeating: "{isa = XCRemoteSwiftPackageReference; repositoryURL = u", count: size / 56).utf8),
            Array(String(repeating: "{isa=XCRemoteSwiftPackageReference;repositoryURL=\"https://x/", count: 1).utf8)
                + Array(String(repeating: "a", count: size).utf8),
        ]
        for input in inputs {
            let elapsed = clock.measure { _ = XcodeProjectReader.remotePackageURLs(input) }
            #expect(elapsed < .seconds(5), "\(input.prefix(8)) took \(elapsed)")
        }
    }
}
