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
            let elapsed = try clock.measure { _ = try SpecReader.read(input, kind: .packageSwift) }
            #expect(elapsed < .milliseconds(500), "\(input.prefix(8))… took \(elapsed)")
        }
    }
}
