import Foundation
import Testing
@testable import SpecKit

/// Inputs that once crashed a lexer or made it quadratic: every reader stays in bounds and linear.
@Suite struct HostileInputTests {
    @Test func anUnterminatedInterpolationIsReadWithoutLeavingTheFile() throws {
        for text in ["s.dependency\"#{\"", "s.dependency \"#{'", "s.dependency %Q{#{\"", "pod \"#{", "s.version = \"#{\"", "x = /\\"] {
            for kind in [SpecFileKind.podspec, .podfile] {
                let requirements = try SpecReader.read(text, kind: kind)
                for requirement in requirements { #expect(requirement.span.range.upperBound <= text.utf8.count) }
                _ = try SpecReader.declaration(Array(text.utf8), kind: kind)
            }
        }
        let requirement = try #require(try SpecReader.read("s.dependency\"#{\"", kind: .podspec).first)
        #expect(requirement.rewritable == false && requirement.span.line == 1)
    }

    @Test func longRunsOfHashesAndUnterminatedStringsAreLexedInLinearTime() throws {
        let clock = ContinuousClock()
        let inputs = [
            String(repeating: "#", count: 16_384),
            "\"" + String(repeating: " ", count: 16_384),
            "#\"" + String(repeating: " ", count: 16_384),
            "\"\"\"" + String(repeating: " \n", count: 8_192),
            "let x = \"\\(" + String(repeating: " ", count: 16_384),
        ]
        for input in inputs {
            let elapsed = clock.measure { _ = try? SpecReader.read(input, kind: .packageSwift) }
            #expect(elapsed < .milliseconds(500), "\(input.prefix(8))… took \(elapsed)")
        }
    }

    @Test func aPackageManifestThatEndsInsideAStringIsAnErrorAtItsOpeningQuote() throws {
        let text = "let package = Package(name: \"App\",\n  dependencies: [.package(url: \"" + String(repeating: " ", count: 300_000)
        #expect(throws: SpecReadError(line: 2, column: 32, message: "unterminated string: the file ends before its closing quote")) {
            try SpecReader.read(text, kind: .packageSwift)
        }
        #expect(throws: SpecReadError.self) { try SpecReader.read("let x = \"\"\"\n  text\n", kind: .packageSwift) }
        // A line break ends a one-line string (a regex literal may hold a lone quote): the rest of the file is still read.
        let regex = "let r = /\"/\nlet package = Package(name: \"App\", dependencies: [.package(url: \"https://e.com/a.git\", from: \"1.0.0\")])\n"
        #expect(try SpecReader.read(regex, kind: .packageSwift).map(\.name) == ["https://e.com/a.git"])
    }
}
